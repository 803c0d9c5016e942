"""Mutants of the published Rocq proofs the gates accept, for the mutation sweep of red team 19.

Each published proof (``PUBLISHED``: the conformance corpus's Rocq files expected ``accepted`` on
``full/with-answer``, and the published miniF2F Rocq proof accepted on ``full``) is cut at points found
from its own sentences (:class:`Shape`): after its imports, between its helper lemmas, right before the
theorem, inside the theorem's proof after a tactic, inside a ``Section`` or ``Module`` before the
theorem, and at the end of the file. Every operator (``OPERATORS``) turns one proof into mutants, each
an attack of one class of DESIGN section 7 in several spellings and at several of those points (mostly
*used* by the theorem's proof, so an acceptance would be a proof of the statement from it), or a valid
change that must still be accepted. Names a mutant adds start with ``zz_``, apart from every word of a
statement. The operators are in ``tests/rocq_mutation_operators.py``, which also makes the mutants.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from putnam_solver.core.provers.rocq.syntax import sentences
from tests.helpers import COQ_BENCH, MINIF2F_ROCQ, REPO

CORPUS = REPO / "tests" / "fixtures" / "conformance"
USE = "exfalso; exact zz_ax."
"""The proof of any statement from ``zz_ax : False`` (``exfalso`` works on any goal)."""


@dataclass(frozen=True)
class Published:
    """A published proof the full profile accepts, with the benchmark file its problem is pinned in."""

    label: str
    problem_id: str
    benchmark: Path
    text: str


@cache
def published() -> tuple[Published, ...]:
    """Every Rocq proof of the two conformance corpora expected ``accepted`` on the full profile."""
    found = []
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["entries"]:
        if entry["prover"] == "rocq" and entry["expected"]["full/with-answer"]["verdict"] == "accepted":
            text = (CORPUS / entry["file"]).read_text(encoding="utf-8")
            found.append(Published(entry["problem_id"], entry["problem_id"], COQ_BENCH, text))
    corpus = CORPUS / "published"
    manifest = json.loads((corpus / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["entries"]:
        if entry["prover"] == "rocq" and entry["expected"] != "rejected":
            text = (corpus / "rocq" / entry["member"]).read_text(encoding="utf-8")
            found.append(Published(entry["problem_id"], entry["problem_id"], MINIF2F_ROCQ, text))
    return tuple(found)


@dataclass(frozen=True)
class Shape:
    """Offsets in a published proof where mutants cut it, found from its sentences."""

    header_end: int
    """After the last ``Require``/``From``/``Import`` before the theorem."""
    theorem: int
    """The theorem sentence's first character."""
    statement_end: int
    proof_start: int
    """Right after the theorem's ``Proof.``."""
    first_tactic_end: int
    """Right after the first sentence of the theorem's proof."""
    proof_end: tuple[int, int]
    """The theorem's ``Qed.`` sentence."""
    helper_end: int | None
    """After the first helper lemma's ``Qed.``, when the file has helpers before the theorem."""
    helper_body: tuple[int, int] | None
    """That helper's proof, from after its ``Proof.`` to its ``Qed.``."""


def shape(p: Published) -> Shape:
    sents = sentences(p.text)
    at = next(i for i, s in enumerate(sents) if s.declared_name == p.problem_id)
    proof = next(i for i in range(at + 1, len(sents)) if sents[i].command == "Proof")
    end = next(i for i in range(proof + 1, len(sents)) if sents[i].words[0] in ("Qed", "Defined"))
    header = max(i for i in range(at) if sents[i].command in ("Require", "From", "Import"))
    helpers = [i for i in range(at) if sents[i].words[0] == "Qed"]
    helper_body = None
    if helpers:
        opening = max(i for i in range(helpers[0]) if sents[i].command == "Proof")
        helper_body = (sents[opening].end, sents[helpers[0]].start)
    return Shape(
        header_end=sents[header].end,
        theorem=sents[at].start,
        statement_end=sents[at].end,
        proof_start=sents[proof].end,
        first_tactic_end=sents[proof + 1].end,
        proof_end=(sents[end].start, sents[end].end),
        helper_end=sents[helpers[0]].end if helpers else None,
        helper_body=helper_body,
    )


@dataclass(frozen=True)
class Mutant:
    """One mutant: ``attack`` ones must never be accepted, the others must be."""

    proof: Published
    operator: str
    spelling: str
    point: str
    attack: bool
    text: str

    @property
    def id(self) -> str:
        return f"{self.proof.label}:{self.operator}:{self.spelling}@{self.point}"


def splice(text: str, at: int, snippet: str) -> str:
    return f"{text[:at]}\n{snippet}\n{text[at:]}"


def with_proof(p: Published, s: Shape, tactics: str, end: str = "Qed.") -> str:
    """The proof with the theorem's proof script replaced by ``tactics`` and ``end``."""
    return f"{p.text[: s.proof_start]}\n{tactics}\n{end}{p.text[s.proof_end[1] :]}"


def command_points(p: Published, s: Shape) -> dict[str, int]:
    """Where a command may go before the theorem, so that the theorem's proof can use what it declares."""
    points = {"after imports": s.header_end, "before theorem": s.theorem}
    if s.helper_end is not None:
        points["between helpers"] = s.helper_end
    return points


def declared(p: Published, s: Shape, operator: str, spelling: str, decl: str, use: str) -> Iterator[Mutant]:
    """``decl`` at every point before the theorem with the theorem proved by ``use``; inside the proof;
    inside a section and a module before it; and unused: at the end of the file and before the theorem."""

    def m(point: str, text: str) -> Mutant:
        return Mutant(p, operator, spelling, point, True, text)

    for point, at in command_points(p, s).items():
        yield m(point, splice(with_proof(p, s, use), at, decl))
    yield m("inside the proof", with_proof(p, s, f"{decl}\n{use}"))
    section = f"Section zz_S.\n{decl}\nEnd zz_S."
    yield m("inside a section", splice(with_proof(p, s, use), s.theorem, section))
    module = f"Module zz_M.\n{decl}\nEnd zz_M.\nImport zz_M."
    yield m("inside a module", splice(with_proof(p, s, use), s.theorem, module))
    yield m("end of file, unused", p.text.rstrip() + "\n" + decl + "\n")
    yield m("before theorem, unused", splice(p.text, s.theorem, decl))


Operator = Callable[[Published, Shape], Iterator[Mutant]]
OPERATORS: dict[str, Operator] = {}
"""Every operator by name, in a fixed order (``tests/rocq_mutation_operators.py`` defines them)."""


def operator(fn: Operator) -> Operator:
    OPERATORS[fn.__name__] = fn
    return fn


def each(p: Published, s: Shape, name: str, table: dict[str, tuple[str, str]]) -> Iterator[Mutant]:
    for spelling, (decl, use) in table.items():
        yield from declared(p, s, name, spelling, decl, use)
