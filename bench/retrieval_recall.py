"""Recall@10 and latency of the agent's library searches, on the lemmas published Rocq proofs use.

The corpus is the published Rocq proofs of the conformance corpus (``tests/fixtures/conformance``:
PutnamBench proofs and the miniF2F ones under ``published/rocq``). For each file whose imports load
here, in a warm coqtop with those imports (``kits.rocq.sessions``):

- the uses: every identifier in a proof's tactic sentences that ``Locate`` resolves to an opaque library
  constant (a lemma: ``About`` says "opaque"; not the file's own lemmas, not its hypotheses), with the goal
  just before that sentence (the file replayed up to it, then ``Show``);
- for each use, each tool is asked with what a worker has at that point, the goal; its head symbols are
  its global constants (``Locate``), else its relation and operators outside parentheses:
  ``regex``: the ``search`` tool (ripgrep over the library sources) for declaration lines with the first
  two head symbols; ``coq-search``: Rocq's ``Search`` with up to three head symbols (``library_search``);
  ``coq-pattern``: ``SearchPattern`` with the goal's outline (``0 <= Rabs m * cos x`` is ``(0 <= _ * _)``);
  ``coq-rewrite``: ``SearchRewrite`` with its left side's outline; ``bm25``: ``find_declarations`` with
  the goal's text; ``bm25-heads``: the same with the head symbols only; ``bm25s``: the goal's text in
  bm25s over the same documents and tokens, when it is installed (the engine comparison);
- a hit: the lemma's short name among the first 10 names the tool answered (short names, because the
  text index names a lemma where its source declares it, ``NZAddProp.add_comm`` for ``Nat.add_comm``).

Printed: per tool recall@10, how many queries it could not write (no head symbol; no relation at the
goal's top), median / p90 latency, and how many uses at least one tool found. Many uses cannot be found
from the goal at all (``rewrite ... in H``, ``exfalso; apply ...``): the figures compare the tools, they
are not a ceiling. Bounded: the first ``--sample`` uses (40) by default, ``--all`` for every use. Lean is
measured by ``retrieval_recall_lean.py`` (given a Mathlib source tree), which shares the tally and table.
Usage: ``python bench/retrieval_recall.py [--sample N | --all]``.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.provers.rocq.syntax import PROOF_ENDS, THEOREM_COMMANDS, Kind, Sentence, sentences
from putnam_solver.core.verify import Profile, VerifyOptions
from putnam_solver.kits.interactive import NotWarm
from putnam_solver.kits.library_index import open_index, tokens
from putnam_solver.kits.rocq import RocqKit
from putnam_solver.kits.rocq.sessions import CoqtopSession, coqtop_for, header_sentences
from putnam_solver.kits.sandbox_session import SessionError
from putnam_solver.run.agent.toolkit import search_library

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "conformance"
OPTIONS = VerifyOptions(profile=Profile.FAST, timeout_seconds=300)
K = 10
_IDENT = re.compile(r"[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*")
_DECLARED = re.compile(r"\b(?:Lemma|Theorem|Fact|Corollary|Remark|Proposition|Definition)\s+([\w']+)")


_SCOPED = re.compile(r"\((.*)\)%(\w+)")
_RELATIONS = ("<->", "<>", "=", "<=", "<", ">=", ">")
_OPERATORS = (("+", "-"), ("*", "/", "mod"), ("^",))
"""Arithmetic operators from the loosest to the tightest binding."""


def depth0(text: str) -> list[str]:
    """The whitespace-separated pieces of ``text`` outside any parentheses (a parenthesised run is one)."""
    pieces, depth, current = [], 0, ""
    for char in " ".join(text.split()):
        depth += (char == "(") - (char == ")")
        if char == " " and depth == 0:
            pieces, current = [*pieces, current] if current else pieces, ""
        else:
            current += char
    return [*pieces, current] if current else pieces


def outline(term: str, depth: int) -> str:
    """A term as a pattern a worker would write: its loosest operator with each operand outlined to
    ``depth`` operators (a parenthesised operand opened), every other operand ``_`` (``(4 * x ^ 3) mod 7``
    is ``(_ * _) mod _`` at depth 2, ``_ mod _`` at depth 1); a term that is a numeral stays."""
    if term.isdigit():
        return term
    return _outline(term, depth)


def _outline(term: str, depth: int) -> str:
    pieces = depth0(term)
    if len(pieces) == 1 and pieces[0].startswith("(") and pieces[0].endswith(")"):
        return _outline(pieces[0][1:-1], depth)
    for level in _OPERATORS:
        at = next((i for i in range(len(pieces) - 1, -1, -1) if pieces[i] in level), None)
        if at is not None and depth > 0:
            left, right = (_outline(" ".join(p), depth - 1) for p in (pieces[:at], pieces[at + 1 :]))
            return " ".join(f"({x})" if " " in x else x for x in (left, pieces[at], right))
    return "_"


def sides(goal: str) -> tuple[str, str, str, str] | None:
    """The goal's two sides, its relation and its scope suffix (None: the goal's top is no relation)."""
    scoped = _SCOPED.fullmatch(" ".join(goal.split()))
    pieces = depth0(scoped.group(1) if scoped else goal)
    at = next((i for i, p in enumerate(pieces) if p in _RELATIONS), None)
    if at is None:
        return None
    return " ".join(pieces[:at]), pieces[at], " ".join(pieces[at + 1 :]), f"%{scoped.group(2)}" if scoped else ""


def shape(goal: str) -> str | None:
    """``SearchPattern``'s query: the goal outlined (``0 <= Rabs m * cos x`` is ``(0 <= _ * _)``)."""
    found = sides(goal)
    if found is None:
        return None
    left, relation, right, scope = found
    return f"({outline(left, 1)} {relation} {outline(right, 1)}){scope}"


def rewritten(goal: str) -> str | None:
    """``SearchRewrite``'s query: the goal's left side outlined, when it has an operator."""
    found = sides(goal)
    pattern = outline(found[0], 2) if found else "_"
    return None if found is None or pattern in ("_", found[0]) else f"({pattern}){found[3]}"


def operators(goal: str) -> tuple[str, ...]:
    """The relation and operators of the goal outside parentheses, in order."""
    known = {*_RELATIONS, *(op for level in _OPERATORS for op in level)}
    scoped = _SCOPED.fullmatch(" ".join(goal.split()))
    return tuple(dict.fromkeys(p for p in depth0(scoped.group(1) if scoped else goal) if p in known))


@dataclass(frozen=True)
class Use:
    """A library lemma a published proof uses, the goal it was used on (for Lean, the statement nearest to
    it: ``retrieval_recall_lean``), and the goal's head symbols."""

    file: str
    lemma: str
    goal: str
    heads: tuple[str, ...]


def rocq_files() -> list[Path]:
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text())
    files = [CORPUS / e["file"] for e in manifest["entries"] if e["prover"] == "rocq"]
    return sorted(files) + sorted((CORPUS / "published" / "rocq").glob("*.v"))


def proof_sentences(sents: list[Sentence]) -> Iterator[Sentence]:
    """The tactic sentences of every ``Proof ... Qed`` block."""
    inside = False
    for sent in sents:
        if sent.command in THEOREM_COMMANDS:
            inside = True
        elif sent.command in PROOF_ENDS:
            inside = False
        elif inside and sent.command != "Proof":
            yield sent


class Resolver:
    """``Locate`` / ``About`` answers in one session, asked once per name."""

    def __init__(self, session: CoqtopSession, preamble: str) -> None:
        self.session, self.preamble = session, preamble
        self._cache: dict[tuple[str, str], str] = {}

    def ask(self, command: str, name: str) -> str:
        if (command, name) not in self._cache:
            answer = self.session.query(self.preamble, f"{command} {name}.", OPTIONS.timeout_seconds)
            self._cache[command, name] = answer or ""
        return self._cache[command, name]

    def constant(self, name: str) -> str | None:
        """The full name of the library constant ``name`` refers to (None: not one)."""
        found = re.search(r"^Constant\s+(\S+)", self.ask("Locate", name), re.M)
        if found is None or found.group(1).startswith("Putnam.Candidate."):
            return None
        return found.group(1)

    def lemma(self, name: str) -> bool:
        return self.constant(name) is not None and "opaque" in self.ask("About", name)


def uses_in(path: Path) -> list[Use]:
    """The library lemmas the proofs of ``path`` use, each with the goal before its sentence."""
    text = path.read_text(encoding="utf-8")
    sents = sentences(text)
    first = next((s for s in sents if s.command in THEOREM_COMMANDS), None)
    preamble = text[: first.start] if first else text
    with tempfile.TemporaryDirectory() as scratch:
        session = CoqtopSession(coqtop_for(OPTIONS), header_sentences(text), text, OPTIONS, Path(scratch))
        try:
            resolver = Resolver(session, preamble)
            found: list[Use] = []
            for sent in proof_sentences(sents):
                names = dict.fromkeys(t.text for t in sent.tokens if t.kind is Kind.WORD and _IDENT.fullmatch(t.text))
                lemmas = [n for n in names if resolver.lemma(n)]
                if not lemmas:
                    continue
                before = text[: sent.start]
                state = session.goals(before, before.count("\n") + 1, OPTIONS.timeout_seconds)
                if state.goals is None:
                    continue
                conclusion = state.goals.split("============================")[-1].split("\n\n")[0].strip()
                named = tuple(n for n in dict.fromkeys(_IDENT.findall(conclusion)) if resolver.constant(n))
                heads = named or tuple(f'"{op}"' for op in operators(conclusion))
                found += [Use(path.name, n, conclusion, heads) for n in lemmas]
            return found
        finally:
            session.close()


def short(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def regex_names(roots: tuple[Path, ...], use: Use) -> list[str] | None:
    if not use.heads:
        return None
    words = [re.escape(short(h.strip('"'))) for h in use.heads[:2]]
    pattern = r"^\s*(Lemma|Theorem|Fact|Corollary)\s.*" + ".*".join(rf"\b{w}\b" if w[0].isalpha() else w for w in words)
    return _DECLARED.findall(search_library(roots, "*.v", pattern))[:K]


def coq_names(session: CoqtopSession, preamble: str, sentence: str | None) -> list[str] | None:
    """The first names of a ``Search``/``SearchPattern`` answer (None: no query could be written)."""
    if sentence is None:
        return None
    output = session.query(preamble, sentence, OPTIONS.timeout_seconds) or ""
    return [m.group(1) for m in re.finditer(r"^([\w'.]+):", output, re.M)][:K]


def search_heads(use: Use) -> str | None:
    return "Search " + " ".join(use.heads[:3]) + "." if use.heads else None


def search_shape(use: Use) -> str | None:
    pattern = shape(use.goal)
    return f"SearchPattern {pattern}." if pattern else None


def search_rewrite(use: Use) -> str | None:
    pattern = rewritten(use.goal)
    return f"SearchRewrite {pattern}." if pattern else None


Results = dict[str, tuple[int, int, list[float]]]
"""Per tool: hits, queries it could not write, latencies (seconds)."""


def record(results: Results, name: str, lemma: str, tool: Callable[[], list[str] | None]) -> bool:
    """Ask ``tool`` once, timed, and tally whether ``lemma``'s short name is among its answers."""
    hits, unanswered, latencies = results.setdefault(name, (0, 0, []))
    started = time.perf_counter()
    names = tool()
    latencies.append(time.perf_counter() - started)
    hit = names is not None and short(lemma) in {short(n) for n in names}
    results[name] = (hits + hit, unanswered + (names is None), latencies)
    return hit


def report(results: Results, count: int, any_tool: int) -> None:
    """The table: per tool recall@10, unwritable queries, median / p90 latency."""
    print(f"\n{'tool':<12} {'recall@10':>10} {'unanswered':>11} {'median ms':>10} {'p90 ms':>8}")
    for name, (hits, unanswered, latencies) in results.items():
        p90 = statistics.quantiles(latencies, n=10)[-1] if len(latencies) > 1 else latencies[0]
        recall = hits / count if count else 0.0
        median = statistics.median(latencies) * 1000
        print(f"{name:<12} {recall:>10.2f} {unanswered:>11} {median:>10.1f} {p90 * 1000:>8.1f}")
    print(f"found by at least one tool: {any_tool} of {count}")


def measure(uses: list[Use]) -> tuple[Results, int]:
    """Per tool: hits, unanswered queries, latencies; and how many uses at least one tool found."""
    roots = RocqKit().library_roots(OPTIONS)
    index = open_index(roots, ".v")
    tools: dict[str, Callable[[Use], list[str] | None]] = {
        "regex": lambda u: regex_names(roots, u),
        "bm25": lambda u: [d.name for d in index.search(u.goal, K)],
        "bm25-heads": lambda u: (
            [d.name for d in index.search(" ".join(h.strip('"') for h in u.heads), K)] if u.heads else None
        ),
    }
    ranker = bm25s_ranker(roots, ".v")
    if ranker is not None:
        tools["bm25s"] = lambda u: ranker(u.goal)
    coq = {"coq-search": search_heads, "coq-pattern": search_shape, "coq-rewrite": search_rewrite}
    results: Results = {}
    found: set[int] = set()
    by_file: dict[str, list[Use]] = {}
    for use in uses:
        by_file.setdefault(use.file, []).append(use)
    for file, group in by_file.items():
        text = next(p for p in rocq_files() if p.name == file).read_text(encoding="utf-8")
        preamble = text[: next(s for s in sentences(text) if s.command in THEOREM_COMMANDS).start]
        with tempfile.TemporaryDirectory() as scratch:
            session = CoqtopSession(coqtop_for(OPTIONS), header_sentences(text), text, OPTIONS, Path(scratch))
            try:
                for use in group:
                    asked = [
                        record(results, name, use.lemma, functools.partial(tool, use)) for name, tool in tools.items()
                    ]
                    asked += [
                        record(results, name, use.lemma, functools.partial(coq_names, session, preamble, build(use)))
                        for name, build in coq.items()
                    ]
                    if any(asked):
                        found.add(id(use))
            finally:
                session.close()
    return results, len(found)


def bm25s_ranker(roots: tuple[Path, ...], suffix: str) -> Callable[[str], list[str]] | None:
    """bm25s over the same documents and tokens as the index, when installed (the engine comparison)."""
    try:
        import bm25s  # type: ignore[import-not-found]
    except ImportError:
        return None
    from putnam_solver.kits.declarations import library_declarations

    docs = list(library_declarations(roots, suffix))
    started = time.perf_counter()
    retriever = bm25s.BM25()
    retriever.index([tokens(f"{d.name} {d.statement} {d.doc}") for d in docs], show_progress=False)
    print(f"bm25s: indexed {len(docs)} declarations in {time.perf_counter() - started:.2f} s")

    def run(query: str) -> list[str]:
        found, _ = retriever.retrieve([tokens(query)], k=K, show_progress=False)
        return [docs[i].name for i in found[0]]

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=40, help="uses measured (the first N, in corpus order)")
    parser.add_argument("--all", action="store_true", help="every use in the corpus")
    args = parser.parse_args()
    uses: list[Use] = []
    for path in rocq_files():
        try:
            found = uses_in(path)
        except (SessionError, NotWarm) as exc:
            print(f"skipped {path.name}: {str(exc)[:120]}")
            continue
        print(f"{path.name}: {len(found)} library lemma uses")
        uses += found
    chosen = uses if args.all else uses[: args.sample]
    print(f"\n{len(chosen)} of {len(uses)} uses, {len({u.lemma for u in chosen})} distinct lemmas")
    measured, any_tool = measure(chosen)
    report(measured, len(chosen), any_tool)


if __name__ == "__main__":
    sys.exit(main())
