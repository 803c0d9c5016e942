"""Files no sandbox shows, though they lie under a directory it shows read-only.

Every sandbox shows the system directories whole (``/usr`` and the ``/bin``-style links), and the
caller's toolchain paths. Where putnam is installed system-wide (``pip install`` as root puts it under
``/usr/local``), its packaged benchmark files sit there too, with every official answer and informal
solution, and so may a benchmark file the user names (``--benchmark``, ``PUTNAM_BENCHMARK``). A candidate's
compile that reads a file (Lean's ``include_str``, a plugin) or a CLI agent's shell in its layer
(``run.agent.cli_sandbox``) could read them and, on the no-answer track, tell the model the answer.

So the benchmark files this process loads (``core.benchmark.load_benchmark``) and the folder of the copies
packaged with putnam (``putnam_solver/data``, whoever imports this) are registered here, and every sandbox
covers those of them that fall under what it shows: a folder with an empty read-only tmpfs, a file with
the null device (the bind mount makes it unopenable).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from pathlib import Path

PACKAGED_DATA = Path(__file__).resolve().parents[2] / "data"
"""The benchmark files that ship with putnam (``benchmark_files.PACKAGED_DATA``), hidden in every process
(this module is imported by every sandbox, so no process can run one before the folder is registered)."""
_LOCK = threading.Lock()
_HIDDEN: set[Path] = {PACKAGED_DATA}


def hide(path: Path) -> None:
    """Never show ``path`` (a file or folder, by its resolved path) in a sandbox started after this."""
    resolved = path.resolve()
    with _LOCK:
        _HIDDEN.add(resolved)


def hidden_under(shown: Iterable[Path]) -> list[Path]:
    """The registered paths that exist and lie strictly below one of ``shown`` (resolved), sorted, but
    those inside another of them."""
    roots = [root.resolve() for root in shown]
    with _LOCK:
        paths = sorted(_HIDDEN)
    shown = [p for p in paths if any(p != r and p.is_relative_to(r) for r in roots) and p.exists()]
    # a path inside another is covered with it (and a mount point inside a read-only cover cannot be made)
    return [p for p in shown if not any(o != p and p.is_relative_to(o) for o in shown)]


def cover_argv(shown: Iterable[Path]) -> list[str]:
    """Bubblewrap arguments that cover every hidden path below ``shown``; they must follow the mounts of
    ``shown`` (a cover lands on top of what is already there)."""
    args: list[str] = []
    for path in hidden_under(shown):
        if path.is_dir():
            args += ["--perms", "0555", "--size", "4096", "--tmpfs", str(path), "--remount-ro", str(path)]
        else:
            args += ["--ro-bind", "/dev/null", str(path)]
    return args
