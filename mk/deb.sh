#!/usr/bin/env bash
# mk/deb.sh DIR GUI (make deb): copy the files git tracks, as they are in the tree,
# into DIR/src, build the binary package there with dpkg-buildpackage (no root:
# Rules-Requires-Root: no), GUI=0 with the pkg.lruscope.nogui profile, and lint it.
# Leaves DIR/lruscope_VERSION_ARCH.deb, DIR/build.log and DIR/lintian.log; exits 1
# when the build fails or lintian reports an error or a warning.
set -euo pipefail
dir=$1 gui=$2
top=$(cd "$(dirname "$0")/.." && pwd)

if ! git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "make deb: $top is not a git checkout: make deb packages the files git tracks" \
		"(in an unpacked source package, run dpkg-buildpackage -b)" >&2
	exit 1
fi
version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$dir/lruscope_${version}_${arch}.deb
changes=$dir/lruscope_${version}_${arch}.changes

rm -rf "$dir"
mkdir -p "$dir/src"
# tracked files, less those deleted in the tree: never build/ or untracked files
comm -z -23 <(git -C "$top" ls-files -z | sort -z) <(git -C "$top" ls-files -z --deleted | sort -z) |
	tar -C "$top" --null -T - -cf - | tar -C "$dir/src" -xf -

profile=()
[ "$gui" = 0 ] && profile=(-Ppkg.lruscope.nogui)
echo "  DEB      $deb"
# the outer make's flags and variables (BUILD=..., GUI=0, -j) are not the package
# build's: debian/rules gives its own
if ! (cd "$dir/src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES -u BUILD \
	-u GUI -u PREFIX -u DESTDIR dpkg-buildpackage -b -us -uc -Jauto "${profile[@]}") >"$dir/build.log" 2>&1; then
	tail -20 "$dir/build.log" >&2
	echo "make deb: dpkg-buildpackage failed; the whole log: $dir/build.log" >&2
	exit 1
fi
if [ ! -f "$deb" ]; then
	echo "make deb: dpkg-buildpackage wrote no $deb; the log: $dir/build.log" >&2
	exit 1
fi

echo "  LINTIAN  $changes"
# lintian leaves a file of its ELF cache (mldbm-elf-*) in its TMPDIR at every run: a
# directory of ours, removed after it
lint_tmp=$(mktemp -d "$dir/lintian-tmp.XXXXXX")
rc=0
TMPDIR=$lint_tmp lintian --fail-on none --display-info "$changes" >"$dir/lintian.log" 2>&1 || rc=$?
rm -rf "$lint_tmp"
if [ "$rc" -ne 0 ]; then
	cat "$dir/lintian.log" >&2
	echo "make deb: lintian did not run" >&2
	exit 1
fi
sed 's/^/  /' "$dir/lintian.log"
if grep -Eq '^[EW]: ' "$dir/lintian.log"; then
	echo "make deb: lintian reports errors or warnings ($dir/lintian.log)" >&2
	exit 1
fi
