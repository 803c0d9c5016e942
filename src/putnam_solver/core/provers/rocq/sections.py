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


def section_assumptions(sents: Sequence[Sentence], theorem_at: int) -> frozenset[int]:
    """The positions in ``sents`` of the assumptions (``Variable``, ``Hypothesis``, ``Context``) of every
    section that opens and closes before ``theorem_at`` (the theorem's position): Coq has discharged them
    when the theorem is read. An assumption of a section still open at the theorem, the challenge's own
    included, is none of them."""
    open_sections: list[list[int]] = []
    found: set[int] = set()
    for i, sent in enumerate(sents[:theorem_at]):
        if sent.command == "Section":
            open_sections.append([])
        elif sent.command == "End" and open_sections:
            found.update(open_sections.pop())
        elif open_sections and sent.command in ASSUMPTION_COMMANDS:
            open_sections[-1].append(i)
    return frozenset(found)


__all__ = ["SECTION_LOCAL", "section_assumptions"]
