"""Check that the lexers tokenize exactly as a reference revision of themselves: token for token.

A rewrite of a lexer for speed must not change a single token (kind, text, offsets, line, gluing; Lean's column)
nor which texts fail to lex (and where); for Rocq, nor how tokens group into sentences. This script lexes,
for each prover, every statement of its benchmark, every challenge derived from it (both tracks), every file
of its conformance corpus (and their CRLF forms) and the worst inputs of ``bench/text_gate_worst.py`` (cut
to 16 KiB, where the reference lexers still end), with the current lexer and with the prover's
``syntax.py`` as of a git revision, and reports each difference, texts on which the reference crashed
(a RecursionError: the current one must lex them), and the time each lexer took on the same inputs (old/new).
Usage: ``python bench/lexer_equivalence.py [revision] [lean|rocq ...]``.
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
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # for tests.helpers
sys.path.insert(0, str(Path(__file__).resolve().parent))  # for text_gate_worst

import text_gate_worst
from putnam_solver.core.benchmark import load_benchmark
from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.lean import syntax as lean_syntax
from putnam_solver.core.provers.rocq import syntax as rocq_syntax
from putnam_solver.core.verify import Track
from tests.helpers import COQ_BENCH, LEAN_BENCH

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "fixtures" / "conformance"
WORST_BYTES = 1 << 14
"""Small enough for the reference's quadratic sentence and command splitting to end in seconds."""


@dataclass(frozen=True)
class Subject:
    """One prover's lexer: where its source lives (now, and before the trust boundary moved it under
    ``core/``), the current module, its benchmark, and what a lexing outcome is."""

    prover: str
    path: str
    old_path: str
    module: ModuleType
    bench: Path
    outcome: Callable[[ModuleType, str], Any]


def _lean_outcome(module: ModuleType, text: str) -> Any:
    """Every token as a plain tuple, and the commands by their head, keyword, name and length."""
    tokens = _uncached(module, text)
    commands = module.split_commands(module.code_tokens(tokens))
    return tuple(tuple(t) for t in tokens), tuple((c.head, c.keyword, c.name, len(c.tokens)) for c in commands)


def _rocq_outcome(module: ModuleType, text: str) -> Any:
    """Every token by its fields (not the column, which older revisions kept and no gate read), and the
    sentences as token counts with their command."""
    tokens = _uncached(module, text)
    fields = tuple((str(t.kind), t.text, t.start, t.line, t.glued) for t in tokens)
    sentences = tuple((len(s.tokens), s.command, s.ended) for s in module.split_sentences(list(tokens)))
    return fields, sentences


SUBJECTS = {
    "lean": Subject(
        "lean",
        "src/putnam_solver/core/provers/lean/syntax.py",
        "src/putnam_solver/provers/lean/syntax.py",
        lean_syntax,
        LEAN_BENCH,
        _lean_outcome,
    ),
    "rocq": Subject(
        "rocq",
        "src/putnam_solver/core/provers/rocq/syntax.py",
        "src/putnam_solver/provers/rocq/syntax.py",
        rocq_syntax,
        COQ_BENCH,
        _rocq_outcome,
    ),
}


def reference(subject: Subject, revision: str) -> ModuleType:
    """The syntax module as of ``revision`` (read from git, imported under a private name), over the
    revision's own ``_lexer`` and ``_commands`` where it has them: ``syntax`` only re-exports those, so
    importing it alone would compare the current lexer with itself."""
    package = subject.path.rsplit("/", 1)[0]
    swapped: dict[str, ModuleType | None] = {}
    try:
        for private in PRIVATE_MODULES:
            source = _shown(revision, f"{package}/{private}.py")
            if source is not None:
                qualified = f"putnam_solver.core.provers.{subject.prover}.{private}"
                swapped.setdefault(qualified, sys.modules.get(qualified))
                sys.modules[qualified] = _load(f"reference_{subject.prover}_{private}", source)
        source = _shown(revision, subject.path) or _shown(revision, subject.old_path)
        if source is None:
            raise SystemExit(f"{revision} has no {subject.path} nor {subject.old_path}")
        return _load(f"reference_{subject.prover}_syntax", source)
    finally:  # the current package keeps its own modules
        for qualified, module in swapped.items():
            if module is None:
                sys.modules.pop(qualified, None)
            else:
                sys.modules[qualified] = module


PRIVATE_MODULES = ("_lexer", "_commands")
"""The modules ``syntax`` is built on, in import order (a later one imports the earlier ones)."""


def _shown(revision: str, path: str) -> str | None:
    shown = subprocess.run(["git", "-C", str(ROOT), "show", f"{revision}:{path}"], capture_output=True, text=True)
    return shown.stdout if shown.returncode == 0 else None


def _load(name: str, source: str) -> ModuleType:
    path = Path(tempfile.mkdtemp(prefix="lexer-reference-")) / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def texts(subject: Subject) -> list[tuple[str, str]]:
    """(label, text): statements, their challenges on both tracks, corpus files, their CRLF forms, and the
    worst inputs of ``bench/text_gate_worst.py`` cut to ``WORST_BYTES``."""
    out: list[tuple[str, str]] = []
    prover = get_prover(subject.prover)
    for problem in load_benchmark(subject.bench).problems.values():
        out.append((f"{problem.id} statement", problem.formal_statement))
        for track in Track:
            with contextlib.suppress(Exception):  # a statement without the benchmark's shape has no challenge
                out.append((f"{problem.id} {track.value}", prover.challenge(problem, track)))
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["entries"]:
        if entry["prover"] == subject.prover:
            text = (CORPUS / entry["file"]).read_bytes().decode("utf-8", errors="replace")
            out.append((entry["file"], text))
            out.append((f"{entry['file']} (CRLF)", text.replace("\n", "\r\n")))
    text_gate_worst.CAP = WORST_BYTES
    for label, *_, candidate in text_gate_worst.cases(subject.prover):
        out.append((f"worst input: {label}", candidate.decode("utf-8")))
    return out


def outcome(subject: Subject, module: ModuleType, text: str) -> Any:
    """The lexing outcome, or the lexing error's position and reason."""
    try:
        return subject.outcome(module, text)
    except ValueError as exc:
        return f"LexError {exc}"


def compare(subject: Subject, revision: str) -> int:
    """Print the differences for one prover; return how many texts differ."""
    old = reference(subject, revision)
    cases = texts(subject)
    differ, crashed = 0, []
    for label, text in cases:
        try:
            before = outcome(subject, old, text)
        except RecursionError:
            crashed.append(label)
            outcome(subject, subject.module, text)  # must not raise
            continue
        if before != outcome(subject, subject.module, text):
            differ += 1
            print(f"{subject.prover}: DIFFERS: {label}")
    size = sum(len(t) for _, t in cases)
    timed = [(label, text) for label, text in cases if label not in crashed]
    timings = [_time(module, timed) for module in (old, subject.module)]
    print(f"{subject.prover}: {len(cases)} texts ({size / 1e6:.1f} M characters): {differ} differ from {revision}")
    for label in crashed:
        print(f"{subject.prover}: the reference crashed (RecursionError), the current lexer lexes: {label}")
    print(
        f"{subject.prover}: lexing the {len(timed)} others: reference {timings[0]:.2f} s, current "
        f"{timings[1]:.2f} s, ratio {timings[0] / timings[1]:.1f}"
    )
    return differ


def main(revision: str, provers: list[str]) -> int:
    return 1 if sum(compare(SUBJECTS[p], revision) for p in provers) else 0


def _uncached(module: ModuleType, text: str) -> Any:
    """The module's lexer without its per-text cache, so that timings measure lexing."""
    lexer = module._Lexer(text)
    if hasattr(lexer, "lex"):  # the lexer's own entry point (it may set up more than ``run``)
        return lexer.lex()
    return lexer.run()


def _time(module: ModuleType, cases: list[tuple[str, str]]) -> float:
    start = time.perf_counter()
    for _, text in cases:
        with contextlib.suppress(ValueError):
            _uncached(module, text)
    return time.perf_counter() - start


if __name__ == "__main__":
    args = sys.argv[1:]
    sys.exit(main(args[0] if args else "c2106da", args[1:] or ["lean", "rocq"]))
