"""JSON on stdout, diagnostics on stderr, the entry point that turns LrsError into exit 1."""

import json
import os
import sys
import time

from lrs import LrsError


def emit_json(obj, out=None):
    out = sys.stdout if out is None else out
    json.dump(obj, out, indent=None, separators=(",", ":"))
    out.write("\n")


def fault_text(what, e):
    """One warnings entry for a FaultError met while reading `what`."""
    return "%s: %s" % (what, e)


def fmt_addr(a):
    return "0x%x" % a


def now_ns():
    return time.monotonic_ns() if hasattr(time, "monotonic_ns") else int(time.monotonic() * 1e9)


def run(main, prog=None, argv=None):
    """Run main(prog, argv) and turn LrsError into one line on stderr and exit 1. `prog` is
    given when the script runs under the drgn CLI."""
    argv = sys.argv[1:] if argv is None else argv
    try:
        return main(prog, argv)
    except LrsError as e:
        # run by 'lruscope walk': its error line begins as that command's own
        print("%s: %s" % (os.environ.get("LRS_ERROR_PREFIX") or "error", e), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


def print_result(res, as_json, format_table):
    """The script's answer: one JSON object, or its table."""
    if as_json:
        emit_json(res)
    else:
        print(format_table(res))
