#!/usr/bin/python3
"""tests/lint/lint.t's "tap" rule: in shell test scripts, the check helpers
(tap_check) must take the whole condition.
Offences: a `&&` after the helper on its (logical) line, or a `|| true` after it.
Quoted strings and comments are blanked first. Prints FILE:LINE: what, one per offence."""
import re
import sys


def blank_quotes(line):
    out, q = [], None
    for ch in line:
        if q:
            if ch == q:
                q = None
            out.append(' ' if ch != q else ch)
            continue
        if ch in '\'"':
            q = ch
        out.append(ch)
    return ''.join(out)


for path in sys.argv[1:]:
    try:
        raw = open(path, encoding='utf-8', errors='replace').read().split('\n')
    except OSError:
        continue
    logical, start, buf = [], 1, ''
    for n, line in enumerate(raw, 1):
        if not buf:
            start = n
        if line.endswith('\\'):
            buf += line[:-1] + ' '
            continue
        logical.append((start, buf + line))
        buf = ''
    for i, (n, line) in enumerate(logical):
        code = blank_quotes(line)
        code = re.sub(r'(^|\s)#.*$', '', code)
        m = re.search(r'(^|[\s;(|&])tap_check\s', code)
        if not m:
            continue
        rest = code[m.end():]
        # a command substitution in the name or arguments hides its && from the blanking
        raw_rest = line[m.end():] if len(line) == len(code) else line
        if '&&' in rest or re.search(r'\$\([^)]*&&', raw_rest):
            print(f'{path}:{n}: && after {m.group(0).strip(" ;(|&")}')
        nxt = logical[i + 1][1].strip() if i + 1 < len(logical) else ''
        if re.search(r'\|\|\s*true\b', rest) or re.match(r'\|\|\s*true\b', nxt):
            print(f'{path}:{n}: || true after {m.group(0).strip(" ;(|&")}')
