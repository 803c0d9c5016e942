"""``set_option autoImplicit V in`` (or ``relaxedAutoImplicit``, or a tactic's search option) and
``attribute [local simp] x in`` where they cannot reach the statement.

Both options act on declaration headers only: "Unbound local variables in declaration headers become
implicit arguments" (leanprover/lean4 ``src/Lean/Elab/AutoBound.lean``, the options' descriptions;
``Term.withAutoBoundImplicit`` is what reads them, around a header's binders). ``set_option ... in`` holds
for the one command or term it prefixes. So the option

* before the theorem (``set_option autoImplicit true in theorem putnam_x ...``) changes how the pinned
  statement elaborates: an unknown name in it becomes a variable instead of an error. G2 refuses it
  (``_preservation._compare``), as any option before the theorem that is not a resource or printing one;
* before a helper changes only that helper's own signature, which the statement never names (G2's naming
  rules) and the kernel checks whatever it says: harmless;
* inside the theorem's proof or a helper's body comes after the statement is elaborated, and a proof
  elaborates no declaration header that the statement could depend on: harmless.

A global ``set_option autoImplicit true`` would be in force at the theorem and stays refused (G2: option
not allowed; G3: the option and the word). G3 matches the word anywhere, so :func:`decided_sites` tells it
which occurrences G2 judges (the ``checks.leave_to_g2`` mechanism): those in a helper command and those
after the theorem's first top-level ``:=``. G2 still compares every pinned declaration token for token, so
an occurrence in a pinned one (the theorem's statement, a challenge ``def``, an answer's signature) is
refused there as a changed statement.

The same sites may set an option of :data:`SEARCH_OPTIONS` (round 34): each only chooses among proofs a
tactic builds, which the kernel checks like any other. Options that act on the kernel check or on what
runs stay refused there (``debug.skipKernelTC`` is read by ``addDecl`` with the options of the moment,
leanprover/lean4 src/Lean/AddDecl.lean, so an auxiliary lemma a tactic adds inside a proof would skip the
kernel). A helper may also be prefixed by ``attribute [local simp] x in`` (any ``_helpers.LOCAL_ATTRIBUTES``
item): Lean expands ``c in d`` to ``section c d end``, so the local entries end with that helper, as in
a block of the candidate's own (``_declarations``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._helpers import local_attribute_in_end
from putnam_solver.core.provers.lean._policy import POLICY
from putnam_solver.core.provers.lean.syntax import Command, Statement, normalize_name, top_level_assign

SIGNATURE_OPTIONS: Final = frozenset({"autoImplicit", "relaxedAutoImplicit"})
"""Options that steer only the signature of the declaration they prefix."""


SEARCH_OPTIONS: Final = frozenset({"simprocs", "push_neg.use_distrib"})
"""Options that only steer a tactic's search, each read where it picks a step, never a proof term unchecked:
``simprocs`` (leanprover/lean4 src/Lean/Meta/Tactic/Simp/Simproc.lean, ``userPreSimprocs`` and
``preSimproc?``: when off, ``simp`` skips its simplification procedures) and Mathlib's
``push_neg.use_distrib`` (Mathlib/Tactic/PushNeg.lean, ``transformNegationStep``: rewrite ``¬(p ∧ q)``
with ``not_and_or_eq`` instead of ``not_and_eq``). Only these: a library option may as well make its
tactic admit the goal or skip a check, so each is read before it is listed."""


def signature_option(name: str) -> bool:
    return normalize_name(name) in SIGNATURE_OPTIONS


def helper_option(name: str) -> bool:
    """Whether ``set_option name V in`` may stand before a helper and inside a proof."""
    return normalize_name(name) in SIGNATURE_OPTIONS | SEARCH_OPTIONS


def decided_sites(commands: Sequence[Command], expected: Statement) -> Counter[tuple[int, str]]:
    """The G3 findings (``(line, construct)``, as :func:`_forbidden.scan_forbidden` reports them) of every
    ``set_option <helper option> V in`` and ``attribute [local ...] x in`` inside a helper (``theorem``,
    ``lemma``, ``def``, ``abbrev``, ``irreducible_def``, type, ``example``) that is none of the challenge's
    declarations, or inside the benchmark theorem's proof."""
    found: Counter[tuple[int, str]] = Counter()
    helpers = {*POLICY.helper_keywords, "example"}
    for command in commands:
        if command.keyword not in helpers:
            continue
        tokens = command.tokens
        name = normalize_name(command.name) if command.name is not None else None
        start = 0
        if name == normalize_name(expected.theorem_name):
            assign = top_level_assign(tokens, last=False)
            if assign is None:
                continue
            start = assign + 1
        elif name in expected.declared_names:  # a pinned definition or answer: not the candidate's to change
            continue
        for i in range(start, len(tokens) - 3):
            if tokens[i].text == "set_option" and helper_option(tokens[i + 1].text) and tokens[i + 3].text == "in":
                found[(tokens[i].line, f"set_option {tokens[i + 1].text}")] += 1
                found[(tokens[i + 1].line, tokens[i + 1].text)] += signature_option(tokens[i + 1].text)
            elif (end := local_attribute_in_end(tokens, i)) is not None:
                found[(tokens[i].line, "attribute")] += 1
                found += Counter((t.line, t.text) for t in tokens[i:end] if t.text == "instance")
    return found
