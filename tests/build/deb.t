#!/usr/bin/env bash
# make deb end to end, in a scratch build directory: the package is built from a copy
# of the tracked files and lintian-clean; unpacked into a scratch root (dpkg-deb -x)
# its binary runs (--version is the changelog's, report -i reads a recording, walk
# finds its drgn scripts under that root's usr/share/lruscope); the completion, man
# page, documentation, sysusers file and exporter unit are where they belong; the unit
# passes systemd-analyze verify, is neither enabled nor started by the package; the
# binary has the hardening of dpkg-buildflags and the BPF objects none of it.
# It builds the whole package: about 3 to 5 minutes on 2 cores.
# time-limit: 900
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 19
T=deb
tmp=$(mktemp -d /tmp/lrs-test-deb.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

version=$(dpkg-parsechangelog -l "$LRS_ROOT/debian/changelog" -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
dir=$tmp/build/deb
deb=$dir/lruscope_${version}_${arch}.deb

# ---- the build and its lint ---------------------------------------------------------
# lintian's cache files in the temporary directory, before and after (it leaves one a run)
lintian_litter() { find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'mldbm-*' 2>/dev/null | sort; }
litter_before=$(lintian_litter)
start=$SECONDS
make -s -C "$LRS_ROOT" BUILD="$tmp/build" deb >"$tmp/make.log" 2>&1
rc=$?
new_litter=$(comm -13 <(echo "$litter_before") <(lintian_litter) | tr '\n' ' ')
tap_check "$T: make deb leaves no lintian file in ${TMPDIR:-/tmp} (${new_litter:-none})" [ -z "$new_litter" ]
echo "# make deb: exit $rc after $((SECONDS - start)) s; its last lines:"
tail -n 6 "$tmp/make.log" | sed 's/^/#   /'
tap_check "$T: make deb exits 0 (built, lintian clean) ($rc)" [ "$rc" -eq 0 ]
if [ ! -f "$deb" ]; then
	tap_fail "$T: make deb wrote no build/deb/$(basename "$deb"): $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"
	exit 1
fi
tap_ok "$T: the package is build/deb/$(basename "$deb")"
echo "# lintian:"
sed 's/^/#   /' "$dir/lintian.log" 2>/dev/null
tap_check "$T: lintian ran on it and reports no E: or W: line" \
	bash -c 'grep -q "^  LINTIAN " "$1" && [ -f "$2" ] && ! grep -Eq "^[EW]: " "$2"' _ "$tmp/make.log" "$dir/lintian.log"
depends=$(dpkg-deb -f "$deb" Depends)
echo "# Depends: $depends"
tap_check "$T: Depends are computed from the binary's libraries (libbpf, libc6)" \
	bash -c 'grep -q "libbpf" <<<"$1" && grep -q "libc6" <<<"$1"' _ "$depends"
recommends=$(dpkg-deb -f "$deb" Recommends) suggests=$(dpkg-deb -f "$deb" Suggests)
tap_check "$T: Recommends python3-drgn ($recommends), Suggests bpftrace and prometheus ($suggests)" \
	bash -c 'grep -qw "python3-drgn" <<<"$1" && grep -qw bpftrace <<<"$2" && grep -qw prometheus <<<"$2"' \
	_ "$recommends" "$suggests"

# ---- unpacked into a scratch root -----------------------------------------------------
root=$tmp/root
if ! dpkg-deb -x "$deb" "$root" 2>"$tmp/x.err"; then
	tap_fail "$T: dpkg-deb -x failed: $(head -c 300 "$tmp/x.err")"
	exit 1
fi
bin=$root/usr/bin/lruscope
said=$("$bin" --version 2>&1)
tap_check "$T: the installed lruscope --version ($said) is the changelog's $version" \
	[ "$said" = "lruscope $version" ]
/usr/bin/python3 "$LRS_ROOT/tests/integration/synth_recording.py" --snapshots 3 --memcgs 2 \
	--prefix /lrs-test-deb- >"$tmp/rec.jsonl"
"$bin" report -i "$tmp/rec.jsonl" >"$tmp/report" 2>&1
rc=$?
tap_check "$T: the installed report -i reads a recording (exit $rc, both memcgs listed)" \
	bash -c '[ "$1" -eq 0 ] && grep -q "/lrs-test-deb-0@N0" "$2" && grep -q "/lrs-test-deb-1@N0" "$2"' \
	_ "$rc" "$tmp/report"
tap_check "$T: the installed walk --help runs" bash -c '"$1" walk --help | grep -q "^usage: lruscope walk"' _ "$bin"
# walk looks for walk.py beside the binary, then in ../share/lruscope/drgn-scripts: here
# only the scratch root has it. On a file that is no vmcore, walk.py itself says so
# (with drgn), or walk stops at the drgn check that comes after finding the scripts.
echo "not a vmcore" >"$tmp/not-a-vmcore"
env -u LRS_DRGN_SCRIPTS "$bin" walk -c "$tmp/not-a-vmcore" -s "$tmp/not-a-vmcore" >/dev/null 2>"$tmp/walk.err"
echo "# walk: $(head -c 300 "$tmp/walk.err")"
tap_check "$T: walk finds its scripts in the root's usr/share/lruscope/drgn-scripts" \
	bash -c '! grep -q "walk.py not found" "$1" && grep -Eq "not an ELF core file|cannot import drgn" "$1"' _ "$tmp/walk.err"
comp=$root/usr/share/bash-completion/completions/lruscope
"$bin" completion bash >"$tmp/completion" 2>&1
tap_check "$T: the bash completion is in usr/share/bash-completion/completions, as the binary writes it" \
	bash -c '[ -s "$1" ] && cmp -s "$1" "$2"' _ "$comp" "$tmp/completion"
man=$root/usr/share/man/man8/lruscope.8.gz
tap_check "$T: the man page is usr/share/man/man8/lruscope.8.gz and renders without warnings" \
	bash -c 'zcat "$1" | grep -q "^\.TH LRUSCOPE 8" && [ -z "$(zcat "$1" | groff -man -ww -z 2>&1)" ]' _ "$man"
doc=$root/usr/share/doc/lruscope
tap_check "$T: the docs and the Grafana dashboard (valid JSON) are in usr/share/doc/lruscope" \
	bash -c '[ -f "$1/copyright" ] && [ -f "$1/docs/metrics.md.gz" ] && /usr/bin/python3 -m json.tool "$1/docs/grafana/lruscope.json" >/dev/null' \
	_ "$doc"
readelf -d -l -W --dyn-syms "$bin" >"$tmp/readelf" 2>&1
tap_check "$T: the binary has dpkg-buildflags' hardening: RELRO, BIND_NOW (LDFLAGS), fortified calls (CPPFLAGS)" \
	bash -c 'grep -q GNU_RELRO "$1" && grep -Eq "BIND_NOW|FLAGS.*NOW" "$1" && grep -q "__[a-z]*_chk" "$1"' _ "$tmp/readelf"
bpf_lines=$(grep -c -- '-target bpf' "$dir/build.log")
echo "# build.log: $bpf_lines clang -target bpf lines"
tap_check "$T: the BPF objects were compiled without the host's hardening flags ($bpf_lines)" \
	bash -c '[ "$1" -gt 0 ] && ! grep -- "-target bpf" "$2" | grep -Eq "fstack-protector|_FORTIFY_SOURCE|-z,relro"' \
	_ "$bpf_lines" "$dir/build.log"

# ---- the exporter's unit and its user ------------------------------------------------
unit=$(find "$root" -path '*/systemd/system/lruscope-exporter.service' | head -n 1)
tap_check "$T: lruscope-exporter.service is in the package's systemd/system ($unit)" [ -n "$unit" ]
if command -v systemd-analyze >/dev/null; then
	# verify checks that ExecStart's binary exists: the scratch root's, here; and that
	# Documentation's man page exists: the scratch root's, through MANPATH
	mkdir -p "$tmp/unit"
	sed "s|^ExecStart=/usr/bin/lruscope|ExecStart=$bin|" "$unit" >"$tmp/unit/lruscope-exporter.service"
	MANPATH=$root/usr/share/man systemd-analyze verify "$tmp/unit/lruscope-exporter.service" >"$tmp/verify" 2>&1
	rc=$?
	sed 's/^/#   /' "$tmp/verify"
	tap_check "$T: systemd-analyze verify accepts the unit: exit 0, no warning ($rc)" \
		bash -c '[ "$1" -eq 0 ] && [ ! -s "$2" ]' _ "$rc" "$tmp/verify"
else
	tap_skip "$T: systemd-analyze verify accepts the unit" "systemd-analyze is not installed (Debian: systemd)"
fi
dpkg-deb -e "$deb" "$tmp/control"
# dh_installsystemd --no-enable --no-start: no link in the package, nothing started, and
# the postinst enables only a unit that was enabled before (inside its debian-installed test)
tap_check "$T: the package neither enables nor starts the unit" \
	bash -c '! find "$1" -path "*/systemd/system/*.wants*" | grep -q . &&
		! grep -Eq "deb-systemd-invoke (start|restart)|systemctl.* start" "$2"/postinst &&
		grep -q "deb-systemd-helper debian-installed .lruscope-exporter.service" "$2"/postinst &&
		! grep -q "was-enabled defaults to true" "$2"/postinst' _ "$root" "$tmp/control"
user=$(sed -n 's/.* --user \([^ ]*\).*/\1/p' "$unit")
tap_check "$T: usr/lib/sysusers.d/lruscope.conf makes the unit's --user ($user), the postinst applies it" \
	bash -c '[ -n "$1" ] && grep -Eq "^u $1 " "$2" && grep -q "systemd-sysusers.*lruscope.conf" "$3"/postinst' \
	_ "$user" "$root/usr/lib/sysusers.d/lruscope.conf" "$tmp/control"
