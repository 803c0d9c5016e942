"""Check that the Lean lexer tokenizes exactly as a reference revision of itself: token for token.

A rewrite of the lexer for speed must not change a single token (kind, text, offsets, line, column,
``spaced``) nor which texts fail to lex (and where). This script lexes every Lean statement of the
benchmark, every challenge derived from it (both tracks), and every Lean file of the conformance corpus
with the current lexer and with ``src/putnam_solver/core/provers/lean/syntax.py`` as of a git revision, and
reports each difference, together with the time each lexer took on the same inputs (a ratio, old/new).
Usage: ``python bench/lexer_equivalence.py [revision] [path/to/putnam_bench_lean4.jsonl]``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers

from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers.lean import syntax
from putnam_solver.core.provers.lean.challenge import challenge
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fixtures" / "conformance"
SYNTAX = "src/putnam_solver/core/provers/lean/syntax.py"
OLD_SYNTAX = "src/putnam_solver/provers/lean/syntax.py"
"""Where the lexer lived before the trust boundary moved it under ``core/`` (the default revision's)."""


def reference(revision: str) -> ModuleType:
    """The lexer module as of ``revision`` (read from git, imported under a private name)."""
    for path in (SYNTAX, OLD_SYNTAX):
        shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{path}"], capture_output=True, text=True)
        if shown.returncode == 0:
            source = shown.stdout
            break
    else:
        raise SystemExit(f"{revision} has no {SYNTAX} nor {OLD_SYNTAX}")
    path = Path(tempfile.mkdtemp(prefix="lexer-reference-")) / "reference_syntax.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("reference_syntax", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def texts(bench_path: Path) -> list[tuple[str, str]]:
    """(label, text): statements, their challenges on both tracks, corpus files, and their CRLF forms."""
    out: list[tuple[str, str]] = []
    for problem in load_benchmark(bench_path).problems.values():
        out.append((f"{problem.id} statement", problem.formal_statement))
        for track in Track:
            out.append((f"{problem.id} {track.value}", challenge(problem.formal_statement, track)))
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["entries"]:
        if entry["prover"] == "lean":
            text = (CORPUS / entry["file"]).read_bytes().decode("utf-8", errors="replace")
            out.append((entry["file"], text))
            out.append((f"{entry['file']} (CRLF)", text.replace("\n", "\r\n")))
    return out


def outcome(lex: Callable[[str], Any], text: str) -> tuple[tuple[Any, ...], ...] | str:
    """Every token as a plain tuple, or the lexing error's position and reason."""
    try:
        return tuple(tuple(t) for t in lex(text))
    except ValueError as exc:
        return f"LexError {exc}"


def main(revision: str, bench_path: Path) -> int:
    old = reference(revision)
    cases = texts(bench_path)
    differ = 0
    for label, text in cases:
        if outcome(_uncached(old), text) != outcome(_uncached(syntax), text):
            differ += 1
            print(f"DIFFERS: {label}")
    size = sum(len(t) for _, t in cases)
    timings = [_time(_uncached(module), cases) for module in (old, syntax)]
    print(f"{len(cases)} texts ({size / 1e6:.1f} M characters): {differ} differ from {revision}")
    print(f"lexing all: reference {timings[0]:.2f} s, current {timings[1]:.2f} s, ratio {timings[0] / timings[1]:.1f}")
    return 1 if differ else 0


def _uncached(module: ModuleType) -> Callable[[str], Any]:
    """The module's lexer without its per-text cache, so that timings measure lexing."""

    def run(text: str) -> Any:
        lexer = module._Lexer(text)
        if hasattr(lexer, "lex"):  # the lexer's own entry point (it may set up more than ``run``)
            return lexer.lex()
        lexer.run()
        return lexer.tokens

    return run


def _time(lex: Callable[[str], Any], cases: list[tuple[str, str]]) -> float:
    start = time.perf_counter()
    for _, text in cases:
        with contextlib.suppress(ValueError):
            lex(text)
    return time.perf_counter() - start


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0] if args else "c2106da", Path(args[1]) if len(args) > 1 else LEAN_BENCH))
