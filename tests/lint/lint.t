#!/usr/bin/env bash
# Lint (part of make check; alone: make lint). One TAP line per rule; a rule that is
# broken prints "not ok" naming every file (and line) that breaks it:
#   layers     only collector/live/ (and the unit tests that link it) includes libbpf
#              (<bpf/libbpf.h>, <bpf/bpf.h>, <bpf/btf.h>) or a BPF skeleton (*.skel.h);
#              model/ includes no curses, SDL or libbpf header; ui/ includes no libbpf
#              header or skeleton
#   readme     README.md is an index: at most 250 lines
#   man        groff -man -ww -z docs/lruscope.8 prints nothing
#   refs       no .c/.h/.py/.md/.8 (nor test or make) file refers to design notes
#              outside the repository or to issue numbers
#   tap        in a test script, a check's whole condition is the command the
#              check helper (tap_check) runs: nothing chained after it with `&&`, and no
#              `|| true` after it (tap_rules.py says exactly what it matches)
#   format     clang-format --dry-run --Werror (.clang-format) changes no C source
#              but those .clang-format-ignore lists (format_check.py; make format-check)
#   python     flake8 (.flake8) finds nothing in drgn-scripts/ and the tests' *.py
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 9	# the rules below: three of layers, readme, man, refs, tap, format, python
cd "$LRS_ROOT" || { tap_fail "lint: cannot cd to $LRS_ROOT"; exit 1; }

# The repository's files: git's list (tracked and new, not ignored), else find.
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files --cached --others --exclude-standard | while IFS= read -r f; do
		[ -f "$f" ] && printf '%s\n' "$f"; done)
else
	mapfile -t files < <(find . -path ./build -prune -o -type f -print | sed 's|^\./||')
fi
self=tests/lint/lint.t

# rule NAME OFFENDERS: ok when OFFENDERS is empty, else one not ok naming them.
failed=0
rule() {
	local name=$1 found=$2
	if [ -z "$found" ]; then
		tap_ok "lint: $name"
	else
		failed=1
		tap_fail "lint: $name: $(printf '%s' "$found" | tr '\n' ' ' | sed 's/ $//')"
	fi
}

# grep_in PATTERN FILE...: file:line of every match (extended regex), nothing if none.
grep_in() {
	local pat=$1; shift
	[ $# -gt 0 ] || return 0
	grep -nHE -- "$pat" "$@" 2>/dev/null | cut -d: -f1,2
}

# tests_live_layer FILE: true when FILE is a unit test that links the live layer (the
# Makefile's test_NAME_LAYERS names live): it may use that layer's libraries to set up
# what the layer reads, as a real BPF map.
tests_live_layer() {
	local name
	case "$1" in tests/unit/test_*.c) ;; *) return 1 ;; esac
	name=$(basename "$1" .c)
	grep -qE "^${name}_LAYERS[[:space:]]*:=.*[[:space:]]live([[:space:]]|$)" Makefile
}

sources=() model=() ui=() not_live=()
for f in "${files[@]}"; do
	case "$f" in *.c|*.h) ;; *) continue ;; esac
	sources+=("$f")
	# the lab's bench helpers stand outside the layers (lrs-floor loads its own BPF object)
	case "$f" in
	collector/live/* | tests/lab/lib/*) ;;
	*) tests_live_layer "$f" || not_live+=("$f") ;;
	esac
	case "$f" in model/*) model+=("$f") ;; ui/*) ui+=("$f") ;; esac
done

inc='^[[:space:]]*#[[:space:]]*include[[:space:]]*'
libbpf_core="$inc[<\"]bpf/(libbpf|bpf|btf)\\.h[>\"]"
skel="$inc[<\"][^>\"]*\\.skel\\.h[>\"]"
libbpf_any="$inc(<bpf/[^>]*>|\"bpf/(libbpf[^\"]*|bpf|btf)\\.h\")"
curses="$inc[<\"](n?curses[^>\"]*|ncursesw/[^>\"]*|term\\.h)[>\"]"
sdl="$inc[<\"](SDL2?/[^>\"]*|SDL[^>\"]*\\.h)[>\"]"

rule "layers: libbpf and skeletons only in collector/live/ and the unit tests that link it" \
	"$(grep_in "$libbpf_core|$skel" "${not_live[@]}")"
rule "layers: model/ includes no curses, SDL or libbpf header" \
	"$(grep_in "$curses|$sdl|$libbpf_any|$skel" "${model[@]}")"
rule "layers: ui/ includes no libbpf header or skeleton" \
	"$(grep_in "$libbpf_any|$skel" "${ui[@]}")"

lines=$(wc -l <README.md 2>/dev/null || echo missing)
if [ "$lines" = missing ]; then
	rule "readme: README.md at most 250 lines" "README.md: missing"
elif [ "$lines" -gt 250 ]; then
	rule "readme: README.md at most 250 lines" "README.md: $lines lines"
else
	rule "readme: README.md at most 250 lines ($lines)" ""
fi

if [ ! -r docs/lruscope.8 ]; then
	rule "man: groff -man -ww -z docs/lruscope.8 is clean" "docs/lruscope.8: missing"
elif ! command -v groff >/dev/null; then
	rule "man: groff -man -ww -z docs/lruscope.8 is clean" "groff is not installed (make deps)"
else
	warn=$(groff -man -ww -z docs/lruscope.8 2>&1 | head -5)
	rule "man: groff -man -ww -z docs/lruscope.8 is clean" "${warn:+docs/lruscope.8: $warn}"
fi

texts=()
for f in "${files[@]}"; do
	[ "$f" = "$self" ] && continue
	case "$f" in *.c|*.h|*.py|*.md|*.8|*.t|*.sh|*.mk|Makefile|.ci/*) texts+=("$f") ;; esac
done
refs='DESIGN\.md|KERNEL-LAB\.md|\.\./shared|[Ii]ssues?[[:space:]]+#?[0-9]+|[Ii]ssue[[:space:]]*#[0-9]+'
rule "refs: no design notes outside the repository, no issue numbers" "$(grep_in "$refs" "${texts[@]}")"

# Test scripts: shell code with its quoted strings blanked, continuation lines joined.
scripts=()
for f in "${files[@]}"; do
	case "$f" in tests/*.t|tests/*.sh|*.sh) ;; *) continue ;; esac
	[ "$f" = "$self" ] && continue
	head -1 "$f" | grep -q python && continue
	scripts+=("$f")
done
tap_rule=""
[ ${#scripts[@]} -gt 0 ] && tap_rule=$(/usr/bin/python3 "$(dirname "$0")/tap_rules.py" "${scripts[@]}")
# (the rule's name avoids the shapes it forbids, so no reader of this file mistakes it for one)
rule "tap: every check takes its whole condition, nothing chained after it" "$tap_rule"

fmt=$(/usr/bin/python3 "$(dirname "$0")/format_check.py" "$LRS_ROOT")
rule "format: clang-format --dry-run is clean" "$fmt"

python=()
for f in "${files[@]}"; do
	case "$f" in drgn-scripts/*.py|tests/*.py) python+=("$f") ;; esac
done
if ! command -v flake8 >/dev/null; then
	rule "python: flake8 is clean" "flake8 is not installed (make deps)"
else
	rule "python: flake8 is clean (${#python[@]} files)" "$(flake8 "${python[@]}" 2>&1 | head -20)"
fi
exit $failed
