#!/bin/sh
# Print the Debian packages lruscope needs that are not installed; with
# --install, install them (apt-get update first). Exit 0 when all are there.
set -eu
PACKAGES="make clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev pkg-config
libncurses-dev libsdl2-dev libsdl2-ttf-dev fonts-dejavu-core libcmocka-dev python3-drgn
qemu-system-x86 busybox-static cpio e2fsprogs tmux xvfb procps"
missing=""
for p in $PACKAGES; do
	s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$s" in *"install ok installed"*) ;; *) missing="$missing $p" ;; esac
done
if [ -z "$missing" ]; then
	exit 0
fi
if [ "${1:-}" != "--install" ]; then
	echo "missing Debian packages:$missing" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: installing$missing needs root: run 'sudo make deps'" >&2
	exit 1
fi
echo "deps: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
