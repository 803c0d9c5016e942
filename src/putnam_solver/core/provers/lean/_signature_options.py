"""``set_option autoImplicit V in`` (or ``relaxedAutoImplicit``) where it cannot reach the statement.

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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._policy import POLICY
from putnam_solver.core.provers.lean.syntax import Command, Statement, normalize_name, top_level_assign

SIGNATURE_OPTIONS: Final = frozenset({"autoImplicit", "relaxedAutoImplicit"})
"""Options that steer only the signature of the declaration they prefix."""


def signature_option(name: str) -> bool:
    return normalize_name(name) in SIGNATURE_OPTIONS


def decided_sites(commands: Sequence[Command], expected: Statement) -> Counter[tuple[int, str]]:
    """The G3 findings (``(line, construct)``, as :func:`_forbidden.scan_forbidden` reports them) of every
    ``set_option <signature option> V in`` inside a helper (``theorem``/``lemma``/``def``/``abbrev``/type,
    ``example``) that is none of the challenge's declarations, or inside the benchmark theorem's proof."""
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
            if tokens[i].text == "set_option" and signature_option(tokens[i + 1].text) and tokens[i + 3].text == "in":
                found[(tokens[i].line, f"set_option {tokens[i + 1].text}")] += 1
                found[(tokens[i + 1].line, tokens[i + 1].text)] += 1
    return found
