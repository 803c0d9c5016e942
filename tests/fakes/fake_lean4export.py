"""A stand-in for lean4export (leanprover/lean4export at the release's tag), for what G6 depends on:
``lean4export MODULE -- NAME...`` prints NDJSON (format 3.1.0) for each named constant, and a name the
module's environment lacks is a ``panic!`` (Main.lean:4-18 at f7f95b22, the ``v4.24.0`` tag;
Export.lean:233-235 ``dumpConstant``: "Constant X not found in environment."). Lean prints a panic as
``PANIC at <function> <module>:<line>:<column>: <message>`` on stderr and, with
``LEAN_ABORT_ON_PANIC=1`` (which comparator sets, leanprover/comparator Main.lean:146), aborts.

The fake knows its release from its file name (``lean4export-v4.24.0``) and models the one constant that
matters here: Lean v4.24.0 has no ``String.ofList``, which comparator always asks for (Main.lean:261).
"""

import json
import os
import sys
from pathlib import Path

MISSING = {"v4.24.0": {"String.ofList"}}


def main(argv: list[str]) -> int:
    release = Path(argv[0]).name.removeprefix("lean4export-")
    names = argv[argv.index("--") + 1 :] if "--" in argv else []
    print(json.dumps({"meta": {"format": {"version": "3.1.0"}}}), flush=True)
    for name in names:
        if name in MISSING.get(release, set()):
            print(f"PANIC at dumpConstant Export:235:6: Constant {name} not found in environment.", file=sys.stderr)
            if os.environ.get("LEAN_ABORT_ON_PANIC") == "1":
                sys.stderr.flush()
                os.abort()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
