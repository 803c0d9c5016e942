"""A stand-in for elan's proxy binaries (``$ELAN_HOME/bin/lake``, ``lean``), choosing a toolchain as
elan does (leanprover/elan at b6cec7e):

- a first argument ``+<toolchain>`` (src/elan-cli/proxy_mode.rs:25-33);
- else ``ELAN_TOOLCHAIN`` (src/elan/config.rs:91 and :160, ``find_override``);
- else a ``lean-toolchain`` file in the current directory or one above it (config.rs:180-243,
  ``find_override_from_dir_walk``; ``-d`` and every other argument are never looked at);
- else the default toolchain of ``$ELAN_HOME/settings.toml``, else "no default toolchain configured"
  (config.rs:337-342 ``toolchain_for_dir``; src/elan/errors.rs:28), exit 1.

It then runs ``$ELAN_HOME/toolchains/<dir>/bin/<name>`` with ``ELAN_TOOLCHAIN`` set (src/elan/toolchain.rs:549).
"""

import os
import re
import sys
from pathlib import Path


def chosen(args: list[str]) -> tuple[str | None, list[str]]:
    if args and args[0].startswith("+"):
        return args[0][1:], args[1:]
    if os.environ.get("ELAN_TOOLCHAIN"):
        return os.environ["ELAN_TOOLCHAIN"], args
    for directory in (Path.cwd().resolve(), *Path.cwd().resolve().parents):
        if (directory / "lean-toolchain").is_file():
            return (directory / "lean-toolchain").read_text().strip(), args
    settings = Path(os.environ["ELAN_HOME"]) / "settings.toml"
    found = re.search(r'default_toolchain = "([^"]+)"', settings.read_text()) if settings.is_file() else None
    return (found.group(1) if found else None), args


def main(argv: list[str]) -> int:
    name = Path(argv[0]).name
    toolchain, args = chosen(argv[1:])
    if toolchain is None:
        print(
            "error: no default toolchain configured. run `elan default stable` to install & configure "
            "the latest Lean 4 stable release.",
            file=sys.stderr,
        )
        return 1
    directory = toolchain.replace("/", "--").replace(":", "---")
    binary = Path(os.environ["ELAN_HOME"]) / "toolchains" / directory / "bin" / name
    os.execve(binary, [str(binary), *args], {**os.environ, "ELAN_TOOLCHAIN": toolchain})


if __name__ == "__main__":
    sys.exit(main(sys.argv))
