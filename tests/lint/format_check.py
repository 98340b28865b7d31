#!/usr/bin/env python3
"""Check that the C sources are formatted as .clang-format says.

Runs `clang-format --dry-run --Werror` over every .c and .h file under the
source folders, less the paths that .clang-format-ignore lists (POSIX globs
relative to the top, where `*` does not cross a `/`, the rules clang-format
itself applies to that file from version 18 on). Prints one line per file that
would change, with the number of places, and exits 1 if there is any; exits 2
when clang-format cannot be run. Usage: format_check.py [ROOT]
(CLANG_FORMAT names the program; default clang-format).
"""
import glob
import os
import re
import subprocess
import sys

SOURCE_DIRS = ["bpf", "model", "collector", "ui", "demo", "cli",
               "tests/unit", "tests/bench", "tests/fuzz"]
IGNORE_FILE = ".clang-format-ignore"
VIOLATION = re.compile(r"^(.+?):\d+:\d+: (?:error|warning): code should be clang-formatted",
                       re.M)


def sources(root):
    """The repository's C files under SOURCE_DIRS: git's list, else a walk."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others",
                              "--exclude-standard", "--"] + SOURCE_DIRS,
                             capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):
        out = []
        for top in SOURCE_DIRS:
            for d, _, files in os.walk(os.path.join(root, top)):
                out += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return sorted(f for f in set(out) if f.endswith((".c", ".h"))
                  and os.path.isfile(os.path.join(root, f)))


def ignored(root):
    """The paths .clang-format-ignore's patterns match (# starts a comment)."""
    skip = set()
    try:
        with open(os.path.join(root, IGNORE_FILE), encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except FileNotFoundError:
        return skip
    for line in lines:
        pat = line.split("#", 1)[0].strip()
        if pat:
            skip.update(glob.glob(pat, root_dir=root))
    return skip


def main(root):
    prog = os.environ.get("CLANG_FORMAT", "clang-format")
    skip = ignored(root)
    files = [f for f in sources(root) if f not in skip]
    if not files:
        return 0
    try:
        run = subprocess.run([prog, "--dry-run", "--Werror", "--style=file"] + files, cwd=root,
                             capture_output=True, text=True)
    except OSError as e:
        print(f"cannot run {prog}: {e.strerror} (make deps installs clang-format)")
        return 2
    places = {}
    for f in VIOLATION.findall(run.stderr):
        places[f] = places.get(f, 0) + 1
    if run.returncode != 0 and not places:
        print(f"{prog} failed (exit {run.returncode}): {run.stderr.strip()[:300]}")
        return 2
    for f in sorted(places):
        print(f"{f} ({places[f]} places)")
    return 1 if places else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
