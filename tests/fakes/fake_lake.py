"""A stand-in for a toolchain's own `lake` (not elan's shim): ``lake [-d DIR] env CMD ARGS...`` and
``lake build TARGET``, as the Lake of Lean 4.27 does them.

``env`` loads the workspace at ``-d`` (default: the current directory), starts CMD as a child process
with the workspace's environment and exits with the child's exit code, or 128+N when the child died by
signal N (leanprover/lean4 src/runtime/process.cpp, ``lean_io_process_child_wait``: "use bash's
convention"). The environment puts the workspace's library directories before the caller's
``LEAN_PATH`` (src/lake/Lake/Config/Workspace.lean, ``augmentedLeanPath``: ``self.leanPath ++
self.lakeEnv.leanPath``), and sets ``LAKE`` and ``LEAN_SYSROOT``. Without a lakefile it fails, as Lake
does, with exit 1. ``build TARGET`` leaves ``.lake/build/lib/lean/TARGET.olean``.
"""

import os
import signal
import subprocess
import sys
from pathlib import Path


def library_dirs(workspace: Path) -> list[str]:
    packages = workspace / ".lake" / "packages"
    roots = [workspace, *(sorted(packages.iterdir()) if packages.is_dir() else [])]
    return [str(root / ".lake" / "build" / "lib" / "lean") for root in roots]


def env(workspace: Path, command: list[str]) -> int:
    if not any((workspace / name).is_file() for name in ("lakefile.toml", "lakefile.lean")):
        print(f"error: no configuration file with a supported extension in {workspace}", file=sys.stderr)
        return 1
    caller = [p for p in os.environ.get("LEAN_PATH", "").split(":") if p]
    variables = {
        **os.environ,
        "LEAN_PATH": ":".join([*library_dirs(workspace), *caller]),
        "LAKE": str(Path(sys.argv[0]).resolve()),
        "LEAN_SYSROOT": str(Path(sys.argv[0]).resolve().parent.parent),
    }
    child = subprocess.run(command, env=variables, check=False)
    return 128 + -child.returncode if child.returncode < 0 else child.returncode


def main(argv: list[str]) -> int:
    args = argv[1:]
    workspace = Path.cwd()
    if args[:1] == ["-d"]:
        workspace, args = Path(args[1]), args[2:]
    if args[:1] == ["env"]:
        return env(workspace.resolve(), args[1:])
    if args[:1] == ["build"]:
        olean = workspace / ".lake" / "build" / "lib" / "lean" / f"{args[1]}.olean"
        olean.parent.mkdir(parents=True, exist_ok=True)
        olean.write_text("fake olean\n")
        return 0
    print(f"fake lake: unsupported command {args}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(main(sys.argv))
