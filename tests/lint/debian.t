#!/usr/bin/env bash
# debian/ agrees with what it packages, by construction of nothing else: the
# Build-Depends are mk/deps.sh's BUILD_PACKAGES (less make: build-essential) and,
# under <!pkg.lruscope.nogui>, its GUI_PACKAGES (less fonts-dejavu-core, which the
# window reads at run time: the GUI build recommends it); debian/changelog's
# version is the program's (cli/commands.h); every SPDX line of the sources says
# GPL-2.0, as debian/copyright does; the exporter's unit serves on export's
# default address as the user debian/lruscope.sysusers makes. Quick: no build.
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 7
T=debian
cd "$LRS_ROOT" || { tap_fail "$T: cannot cd to $LRS_ROOT"; exit 1; }

# build_depends PROFILED: debian/control's Build-Depends, sorted, one line: with
# PROFILED=0 those without a profile, less debhelper's own (debhelper-compat,
# dh-sequence-*); with 1 those under <!pkg.lruscope.nogui>
build_depends() {
	/usr/bin/python3 - "$1" <<'PY'
import re, sys
want = sys.argv[1] == "1"
text = open("debian/control").read()
para = text.split("\n\n")[0]
lines = [l for l in para.splitlines() if not l.startswith("#")]
field, on = [], False
for l in lines:
    if l.startswith("Build-Depends:"):
        on = True
        field.append(l.split(":", 1)[1])
    elif on and l[:1] in (" ", "\t"):
        field.append(l)
    else:
        on = False
names = []
for item in ",".join(field).split(","):
    item = item.strip()
    if not item:
        continue
    name = re.match(r"[a-z0-9][a-z0-9.+-]*", item).group(0)
    profiled = "<!pkg.lruscope.nogui>" in item
    if profiled != want or (not want and (name == "debhelper-compat" or name.startswith("dh-sequence-"))):
        continue
    names.append(name)
print(" ".join(sorted(names)))
PY
}
# deps_list SET LESS...: mk/deps.sh's SET, less the packages LESS, sorted, one line
deps_list() {
	local set=$1; shift
	mk/deps.sh --list "$set" | grep -vxF -f <(printf '%s\n' "$@") | sort | paste -sd' '
}

plain=$(build_depends 0) build=$(deps_list build make)
echo "# Build-Depends: $plain"
echo "# BUILD_PACKAGES less make: $build"
tap_check "$T: Build-Depends without a profile are BUILD_PACKAGES less make" \
	[ -n "$build" -a "$plain" = "$build" ]
nogui=$(build_depends 1) gui=$(deps_list gui fonts-dejavu-core)
echo "# Build-Depends <!pkg.lruscope.nogui>: $nogui"
echo "# GUI_PACKAGES less fonts-dejavu-core: $gui"
tap_check "$T: Build-Depends under <!pkg.lruscope.nogui> are GUI_PACKAGES less fonts-dejavu-core" \
	[ -n "$gui" -a "$nogui" = "$gui" ]
tap_check "$T: the GUI build recommends fonts-dejavu-core (debian/rules)" \
	grep -q 'lruscope:Recommends=fonts-dejavu-core' debian/rules

changelog=$(dpkg-parsechangelog -l debian/changelog -S Version 2>&1)
program=$(sed -n 's/^#define LRS_VERSION "\(.*\)"$/\1/p' cli/commands.h)
tap_check "$T: debian/changelog's version ($changelog) is LRS_VERSION ($program)" \
	[ -n "$program" -a "$changelog" = "$program" ]

# the licenses the tracked files' SPDX lines name (debian/ and this test aside)
spdx=$(git ls-files -z | grep -zv '^debian/\|^tests/lint/debian\.t$' | xargs -0 grep -Iho 'SPDX-License-Identifier: [^ *]*' |
	sed 's/.*: //' | sort -u | paste -sd' ')
tap_check "$T: every SPDX line says GPL-2.0 ($spdx), as debian/copyright's License: GPL-2" \
	bash -c '[ "$1" = GPL-2.0 ] && grep -qx "License: GPL-2" debian/copyright' _ "$spdx"

unit=debian/lruscope.lruscope-exporter.service
listen=$(sed -n 's/^#define DEFAULT_LISTEN "\(.*\)"$/\1/p' cli/cmd_export.c)
exec_start=$(grep '^ExecStart=' "$unit")
echo "# $exec_start"
tap_check "$T: the unit serves on export's default address ($listen)" \
	bash -c '[ -n "$1" ] && grep -q -- "--listen $1 " <<<"$2"' _ "$listen" "$exec_start"
user=$(awk '$1 == "u" { print $2 }' debian/lruscope.sysusers)
tap_check "$T: the unit serves as the user debian/lruscope.sysusers makes ($user)" \
	bash -c '[ -n "$1" ] && grep -q -- "--user $1 " <<<"$2"' _ "$user" "$exec_start"
