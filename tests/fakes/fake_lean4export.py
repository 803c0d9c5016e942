"""A stand-in for lean4export (leanprover/lean4export at the release's tag), for what G6 depends on:
``lean4export MODULE -- NAME...`` prints NDJSON (format 3.1.0) for each named constant, and a name the
module's environment lacks is a ``panic!`` (Main.lean:4-18 at f7f95b22, the ``v4.24.0`` tag;
Export.lean:233-235 ``dumpConstant``: "Constant X not found in environment."). Lean prints a panic as
``PANIC at <function> <module>:<line>:<column>: <message>`` on stderr and, with
``LEAN_ABORT_ON_PANIC=1`` (which comparator sets, leanprover/comparator Main.lean:146), aborts.

Before exporting anything it imports the named module from its compiled ``.olean`` found on
``LEAN_PATH`` (Main.lean:10 ``initSearchPath``, :20 ``importModules``, at 006dc35b): a module whose
``.olean`` no build left (or seeded) there is an uncaught exception ("object file ... does not exist"),
exit 1. Comparator runs it under ``lake env``, whose ``LEAN_PATH`` holds the project's
``.lake/build/lib/lean`` (fake_lake.py ``env``), so it reads the build products Lake made or replayed.

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
    modules = [a for a in (argv[1 : argv.index("--")] if "--" in argv else argv[1:]) if not a.startswith("-")]
    search = [Path(p) for p in os.environ.get("LEAN_PATH", "").split(":") if p]
    for module in modules:
        if not any((d / f"{module}.olean").is_file() for d in search):
            print(f"uncaught exception: object file {module}.olean of module {module} does not exist", file=sys.stderr)
            return 1
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
