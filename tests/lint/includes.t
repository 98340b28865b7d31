#!/usr/bin/env bash
# The include graph of the C sources, module by module (x.c with x.h): no
# cycles, each layer includes only the layers below it, a view (ui/) includes
# of collector/ only collector/source.h, and no collector folder includes another's.
# And the calls between C files: no circle (a split module's private header hides
# those from the include graph; call_graph.py says how).
set -u
. "$(dirname "$0")/../lib.sh"
tap_plan 2
out=$(/usr/bin/python3 "$LRS_ROOT/tests/lint/include_graph.py" "$LRS_ROOT" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
tap_check "includes: no cycle between modules, no layer includes one above it, views see collectors only through source.h, collectors not each other" [ "$rc" -eq 0 ]
out=$(/usr/bin/python3 "$LRS_ROOT/tests/lint/call_graph.py" "$LRS_ROOT" 2>&1)
rc=$?
printf '%s\n' "$out" | sed 's/^/# /'
tap_check "calls: no circle of C files calling each other" [ "$rc" -eq 0 ]
