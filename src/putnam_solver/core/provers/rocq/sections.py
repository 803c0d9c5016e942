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


def section_assumptions(sents: Sequence[Sentence]) -> frozenset[int]:
    """The indices of the sentences of ``sents`` that declare assumptions (``Variable``, ``Hypothesis``,
    ``Context``) inside a ``Section`` that ``sents`` themselves open: the candidate's own sentences, the
    challenge's left out, so an assumption added inside the challenge's section is not one of them."""
    depth = 0
    found = set()
    for i, sent in enumerate(sents):
        if sent.command == "Section":
            depth += 1
        elif sent.command == "End" and depth:
            depth -= 1
        elif depth and sent.command in ASSUMPTION_COMMANDS:
            found.add(i)
    return frozenset(found)


__all__ = ["SECTION_LOCAL", "section_assumptions"]
