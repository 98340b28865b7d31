#!/bin/sh
# The Debian packages lruscope needs, in two sets: to build it, and to run
# its tests, bench, demo and lab (jansson and json-c: bench_json measures our
# JSON parser against them; clang-format and flake8: make lint checks the C
# sources' format and the Python). Usage:
#   deps.sh --check-build [--no-gui]  name what building needs and is missing; exit 1 if any
#   deps.sh --install                 install both sets (apt-get update first); needs root
#   deps.sh --check-deb [--no-gui]    the same for make deb: DEB_PACKAGES too
#   deps.sh --list build|gui|deb|test one set, one package a line (debian/control's check)
# Exit 0 when nothing is missing.
set -eu
BUILD_PACKAGES="make clang llvm libbpf-dev bpftool libelf-dev zlib1g-dev libzstd-dev pkg-config
libncurses-dev libmicrohttpd-dev"
GUI_PACKAGES="libsdl2-dev libsdl2-ttf-dev libpng-dev fonts-dejavu-core"
TEST_PACKAGES="libcmocka-dev python3-drgn qemu-system-x86 busybox-static cpio e2fsprogs tmux
xvfb xdotool procps groff man-db clang-format flake8 libjansson-dev libjson-c-dev iproute2
bpftrace linux-perf"
# a third set, for make deb: the package build and its lint
DEB_PACKAGES="debhelper dpkg-dev lintian"
# tests/build/deb.t checks the exporter's unit with systemd-analyze verify
TEST_PACKAGES="$TEST_PACKAGES systemd"

missing_of() {
	m=""
	for p in "$@"; do
		s=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
		case "$s" in *"install ok installed"*) ;; *) m="$m $p" ;; esac
	done
	echo "$m"
}

mode=${1:-}
case "$mode" in
--check-build|--check-deb)
	want="$BUILD_PACKAGES"
	[ "$mode" = --check-deb ] && want="$want $DEB_PACKAGES"
	[ "${2:-}" = "--no-gui" ] || want="$want $GUI_PACKAGES"
	# shellcheck disable=SC2086
	missing=$(missing_of $want)
	[ -z "$missing" ] && exit 0
	echo "lruscope: cannot build: missing Debian packages:$missing" >&2
	echo "  install them with: sudo make deps   (or: sudo apt-get install$missing)" >&2
	echo "  to build without the SDL2 window: make GUI=0" >&2
	exit 1
	;;
--list)
	case "${2:-}" in
	build) echo "$BUILD_PACKAGES" ;;
	gui) echo "$GUI_PACKAGES" ;;
	deb) echo "$DEB_PACKAGES" ;;
	test) echo "$TEST_PACKAGES" ;;
	*) echo "usage: deps.sh --list build|gui|deb|test" >&2; exit 2 ;;
	esac | tr -s ' ' '\n'
	;;
--install)
	# shellcheck disable=SC2086
	missing=$(missing_of $BUILD_PACKAGES $GUI_PACKAGES $TEST_PACKAGES $DEB_PACKAGES)
	[ -z "$missing" ] && exit 0
	if [ "$(id -u)" != 0 ]; then
		echo "deps: installing$missing needs root: run 'sudo make deps'" >&2
		exit 1
	fi
	echo "deps: installing$missing" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
	;;
*)
	echo "usage: deps.sh --check-build [--no-gui] | --check-deb [--no-gui] | --install | --list SET" >&2
	exit 2
	;;
esac
