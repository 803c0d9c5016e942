"""Assumptions local to a section the candidate adds around its helpers, before the theorem.

Coq discharges a section's ``Variable``, ``Hypothesis``, ``Context`` and ``Let`` when the section is
closed (``End``): each lemma of the section is generalised over those it uses, and none of them outlives
the section as an assumption (the reference manual, "Sections"). Published proofs use the idiom for their
helpers (the corrected PutnamBench Rocq ``putnam_1962_a2`` of the conformance corpus). Outside a section a
``Variable`` or ``Hypothesis`` is an axiom (Coq warns "declared as a local axiom"), and inside the
challenge's own section, before its theorem, it would become a hypothesis of the theorem: both stay
refused. G5 and G6 list the theorem's assumptions by meaning.

A section of the candidate's may also hold the theorem (``Section S. Theorem putnam_X ... Qed. End S.``,
the layout of PutnamBench's early Coq files, a section per problem). Its ``End`` generalises the theorem
over the section's assumptions the theorem or its proof uses, and turns a ``Let`` it uses into a
``let ... in`` of its type, so the theorem that outlives the section may state something else: with a
used ``Hypothesis h : False`` it proves ``False -> statement``. What decides is the type the kernel
holds after ``End``, which G5 checks against the pinned statement up to conversion (``statement.py``): an
extra premise fails it, an unused assumption or a ``let`` that unfolds to the statement passes. So G2
accepts the layout when the section closes right after the theorem's proof: without assumptions or
``Let``s before the theorem as a scope that changes nothing, with them only where G5 runs (class 2); and
G3 reads the section's assumptions as discharged, as those of any section the candidate closes. A
section of the challenge's own that holds the theorem is not the candidate's to fill: an assumption
added there stays refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.rocq.syntax import ASSUMPTION_COMMANDS, Sentence
from putnam_solver.core.provers.rocq.vernacular import exporting

SECTION_LOCAL: Final = ASSUMPTION_COMMANDS | {"Let"}
"""Commands that declare something local to the enclosing section."""
LET_IN_SECTION: Final = (
    "a `Let` inside the challenge's section is local to the section that holds the theorem, which its `End` "
    "can make a hypothesis of it; write `Definition`, or a `Let` at top level (Coq reads it as a `Local "
    "Definition`) or in a section of your own closed before the theorem"
)
"""Outside every section Coq 8.16 reads a ``Let`` as a ``Local Definition`` (it warns so), a helper like
any other; inside the challenge's own section (``putnam_1969_b5``) it would be in scope of the theorem."""


def section_assumptions(sents: Sequence[Sentence], theorem_at: int, own: frozenset[int]) -> frozenset[int]:
    """The positions in ``sents`` of the assumptions (``Variable``, ``Hypothesis``, ``Context``) of every
    section that opens and closes: Coq has discharged them at its ``End``, into the type of whatever of
    the section uses them. A section of the challenge's (its ``Section`` is not in ``own``, the positions
    of the candidate's sentences) that holds the theorem (at ``theorem_at``) is none of them: an
    assumption added there before the theorem is one the pinned statement does not have, and one after it
    is refused alike. A section of the candidate's that holds the theorem is: G5 holds the theorem's type
    after its ``End`` against the pinned statement."""
    open_sections: list[tuple[str | None, int, list[int] | None]] = []  # name, opening, assumptions counted
    found: set[int] = set()
    for i, sent in enumerate(sents):
        if i == theorem_at:  # the challenge's sections here hold the theorem: their assumptions are not counted
            open_sections = [(name, at, found_here if at in own else None) for name, at, found_here in open_sections]
        elif sent.command == "Section":
            open_sections.append((sent.declared_name, i, []))
        elif sent.command == "End" and open_sections and open_sections[-1][0] == sent.declared_name:
            found.update(open_sections.pop()[2] or ())
        elif open_sections and sent.command in ASSUMPTION_COMMANDS and (counted := open_sections[-1][2]) is not None:
            counted.append(i)
    return frozenset(found)


def declares_locals(sents: Sequence[Sentence], body: int) -> bool:
    """Whether the section whose body begins at ``body`` in ``sents`` declares an assumption or a ``Let`` of
    its own (not of a section nested in it) anywhere before its ``End``. Not only among the sentences of
    its body: coqc 8.16 takes a ``Hypothesis`` or ``Context`` in a helper's proof (``Lemma l : True.
    Proof. Hypothesis h : False. exact I. Qed.``) as one of the enclosing section, in scope of every later
    lemma, and its ``End`` makes it a premise of the theorem that uses it; so one in the theorem's own
    proof is counted alike. A section nested in this one discharges its own at its ``End``."""
    depth = 0
    for sent in sents[body:]:
        if sent.command == "Section":
            depth += 1
        elif sent.command == "End":
            if depth == 0:
                return False
            depth -= 1
        elif depth == 0 and sent.command in SECTION_LOCAL:
            return True
    return False


HOLDS_THEOREM: Final = "a section of yours that holds the theorem"
"""How G2 names the candidate's section around the theorem in a refusal."""


def section_scoped(sent: Sentence, scoped: list[list[Sentence]]) -> bool:
    """Whether ``sent``, an ``Open``/``Close Scope`` before the theorem, ends with the candidate's section it
    stands in (``scoped`` holds one list per open section of the candidate's, innermost last): then it is
    noted there and judged when the section ends (red team 27).

    Coq 8.16 ends a scope command's effect at the ``End`` of the innermost section that holds it: plain,
    ``Local`` and ``#[local]`` alike, nested sections too; only ``Global``/``#[global]`` outlives it
    (measured; the reference manual, "Scopes"). So a scope opened or closed in a section the candidate
    closes before the theorem cannot reach the statement (class 1, accepted on every profile): G2 refused
    it on ``fast`` as class 2, a false rejection of the published idiom ``Section S. Local Open Scope
    nat_scope. ... End S.``. A section that turns out to hold the theorem turns its noted scope commands
    back into class 2 (``checks.hold_theorem``); an exporting one is class 2 at once."""
    if not scoped or sent.command not in ("Open", "Close") or exporting(sent):
        return False
    scoped[-1].append(sent)
    return True


__all__ = [
    "HOLDS_THEOREM",
    "LET_IN_SECTION",
    "SECTION_LOCAL",
    "declares_locals",
    "section_assumptions",
    "section_scoped",
]
