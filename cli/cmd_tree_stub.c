/* placeholder removed when sim/tree lands */
#include "cli/cli.h"
int wt_cmd_tree(int argc, char **argv)
{
	(void)argc; (void)argv;
	return wt_usage_error("tree: not built yet");
}
