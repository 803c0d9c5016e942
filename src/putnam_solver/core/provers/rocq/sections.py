"""Assumptions local to a section the candidate adds around its helpers, before the theorem.

Coq discharges a section's ``Variable``, ``Hypothesis``, ``Context`` and ``Let`` when the section is
closed (``End``): each lemma of the section is generalised over those it uses, and none of them outlives
the section as an assumption (the reference manual, "Sections"). Published proofs use the idiom for their
helpers (the corrected PutnamBench Rocq ``putnam_1962_a2`` of the conformance corpus). Outside a section a
``Variable`` or ``Hypothesis`` is an axiom (Coq warns "declared as a local axiom"), and inside the
challenge's own section, before its theorem, it would become a hypothesis of the theorem: both stay
refused. G2 requires every section the candidate opens to be closed before the theorem, so the theorem is
read where none of them is in scope; G5 and G6 list the theorem's assumptions by meaning.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.rocq.syntax import ASSUMPTION_COMMANDS, Sentence

SECTION_LOCAL: Final = ASSUMPTION_COMMANDS | {"Let"}
"""Commands that declare something local to the enclosing section."""
LET_IN_SECTION: Final = (
    "a `Let` inside the challenge's section is local to the section that holds the theorem, which its `End` "
    "can make a hypothesis of it; write `Definition`, or a `Let` at top level (Coq reads it as a `Local "
    "Definition`) or in a section of your own closed before the theorem"
)
"""Outside every section Coq 8.16 reads a ``Let`` as a ``Local Definition`` (it warns so), a helper like
any other; inside the challenge's own section (``putnam_1969_b5``) it would be in scope of the theorem."""


def section_assumptions(sents: Sequence[Sentence], theorem_at: int) -> frozenset[int]:
    """The positions in ``sents`` of the assumptions (``Variable``, ``Hypothesis``, ``Context``) of every
    section that opens and closes before ``theorem_at`` (the theorem's position): Coq has discharged them
    when the theorem is read; or that opens after it and closes: the closed theorem cannot use them. An
    assumption of a section still open at the theorem, the challenge's own included, is none of them."""
    open_sections: list[list[int]] = []
    found: set[int] = set()
    for i, sent in enumerate(sents):
        if i == theorem_at:
            open_sections = []  # a section open here holds the theorem: its assumptions are the theorem's
        elif sent.command == "Section":
            open_sections.append([])
        elif sent.command == "End" and open_sections:
            found.update(open_sections.pop())
        elif open_sections and sent.command in ASSUMPTION_COMMANDS:
            open_sections[-1].append(i)
    return frozenset(found)


__all__ = ["LET_IN_SECTION", "SECTION_LOCAL", "section_assumptions"]
