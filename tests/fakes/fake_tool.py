"""A stand-in for elan, elan's lake shim, lean, git, curl and go in bootstrap tests (see fake_lake.py
for a toolchain's own `lake env`).

It dispatches on the name it is called by, appends its argv and cwd as one JSON line to ``$FAKE_LOG``
(when set), and creates only the files the real tool would leave behind that the harness checks.
``FAKE_FAIL=<tool> <first argument>`` makes that command fail with exit code 3. Never touches the network.
"""

import json
import os
import shutil
import sys
from pathlib import Path


def touch(path: Path, text: str = "fake\n") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def install_self(dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(__file__, dest)
    dest.chmod(0o755)


INSTALLER = """#!/bin/sh
set -e
mkdir -p "$ELAN_HOME/bin"
for tool in elan lake; do cp {tool} "$ELAN_HOME/bin/$tool"; chmod 755 "$ELAN_HOME/bin/$tool"; done
"""


PACKAGE_SOURCES = {
    "mathlib/Mathlib.lean": "import Mathlib.Tactic.Common\n",
    # Mathlib/Tactic/Common.lean lines 8, 9 and 12 (mathlib4 at 000999064e8e): the closure the gates ship
    "mathlib/Mathlib/Tactic/Common.lean": "import Aesop\nimport Qq\nimport ImportGraph.Imports\n",
    "aesop/Aesop.lean": "",
    "Qq/Qq.lean": "",
    "importGraph/ImportGraph/Imports.lean": "",
}
"""The sources ``lake update`` leaves in the project's packages, as far as the import closure reads them."""


def main(argv: list[str]) -> int:
    tool, args = Path(argv[0]).name, argv[1:]
    log = os.environ.get("FAKE_LOG")
    if log:
        with open(log, "a") as handle:
            handle.write(json.dumps({"tool": tool, "argv": args, "cwd": os.getcwd()}) + "\n")
    if os.environ.get("FAKE_FAIL") == f"{tool} {args[0] if args else ''}".strip():
        print(f"{tool}: simulated failure of {' '.join(args)}", file=sys.stderr)
        return 3
    cwd = Path.cwd()
    if tool == "lake" and args[:1] == ["update"]:
        touch(cwd / "lake-manifest.json", '{"version": "1.1.0", "packages": []}\n')
        for path, text in PACKAGE_SOURCES.items():  # what Lake clones: each package's sources
            touch(cwd / ".lake" / "packages" / path, text)
    elif tool == "lake" and (args[:3] == ["exe", "cache", "get"] or args == ["build", "Mathlib"]):
        touch(cwd / ".lake/packages/mathlib/.lake/build/lib/lean/Mathlib.olean")
    elif tool == "lake" and args[:1] == ["build"] and (cwd / "lakefile.toml").is_file():
        touch(cwd / ".lake" / "build" / "lib" / "lean" / f"{args[1]}.olean")  # a library of the project
    elif tool == "lake" and args[:1] == ["build"]:
        touch(cwd / ".lake" / "build" / "bin" / args[1])
    elif tool == "elan" and args[:2] == ["toolchain", "install"]:
        name = args[2].replace("/", "--").replace(":", "---")
        install_self(Path(os.environ["ELAN_HOME"]) / "toolchains" / name / "bin" / "lean")
    elif tool == "lean" and args == ["--version"]:
        print("Lean (version 4.27.0, fake)")
    elif tool == "git" and args[:1] == ["clone"]:
        (Path(args[-1]) / ".git").mkdir(parents=True)
    elif tool == "curl":
        touch(Path(args[args.index("-o") + 1]), INSTALLER.format(tool=__file__))
    elif tool == "cargo" and args[:1] == ["build"]:
        touch(cwd / "target" / "release" / "nanoda_bin")
    elif tool == "go" and args[:1] == ["build"]:
        touch(Path(args[args.index("-o") + 1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
