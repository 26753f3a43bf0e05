/* SPDX-License-Identifier: MIT */
/*
 * The registered filesystem types, by name.  An unknown name gets NULL;
 * the caller prints wt_fs_type_names() and fails (it never guesses).
 */
#include <string.h>

#include "sim/fs/libfs.h"

static const struct file_system_type *const fs_types[] = {
	&wt_tmpfs_type,
	&wt_plain_type,
	&wt_remote_type,
	&wt_casefold_type,
	&wt_autofs_type,
	&wt_proc_type,
	&wt_slowperm_type,
};

const struct file_system_type *wt_fs_type_lookup(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof(fs_types) / sizeof(fs_types[0]); i++)
		if (strcmp(fs_types[i]->name, name) == 0)
			return fs_types[i];
	return NULL;
}

const char *wt_fs_type_names(void)
{
	return "tmpfs, plain, remote, casefold, autofs, proc, slowperm";
}
