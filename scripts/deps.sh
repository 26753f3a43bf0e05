#!/bin/sh
# Install the Debian packages walktorture builds with (when run as root;
# otherwise only check that they are there).
set -eu
PKGS="build-essential cmake pkg-config libck-dev libcriterion-dev libhwloc-dev
libyaml-dev libjansson-dev libsqlite3-dev python3"
if [ "$(id -u)" = 0 ]; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $PKGS >/dev/null
else
	missing=""
	for p in $PKGS; do
		dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		echo "deps.sh: not root; install:$missing" >&2
		exit 2
	fi
fi
