"""G2, attributes on the candidate's own declarations: which ``@[...]`` items a helper may carry.

An attribute written in ``@[...]`` before a declaration applies to that declaration only. On a helper the
candidate itself declares (G2 keeps the benchmark statement's text identical and lets no helper take a
name the statement mentions), an attribute that only changes how later proofs use the helper cannot
change what the statement means:

* ``simp`` adds the helper to the simp set, which only tactics read, and tactics in the statement only
  build proofs (proof-irrelevant);
* ``reducible`` / ``irreducible`` set the reducibility of the helper itself: Lean's
  ``Lean/ReducibilityAttrs.lean`` (``validate``) sets the status of the declaration the attribute is on,
  refuses it on theorems and, globally, on constants of other modules; the statement never mentions the
  helper, so no unification or instance search in it ever meets the constant;
* ``grind`` (and ``grind!``, ``grind?``, ``grind!?``) adds the helper to the theorems ``grind`` instantiates,
  read by that tactic only, like the simp set (``_grind_attribute``, red team 27);
* ``aesop`` with rule expressions that name no code (``@[aesop unsafe 50% apply]``, ``@[aesop norm simp]``;
  not the ``tactic`` builder: ``_aesop_clauses``, round 29) adds the helper to Aesop's rules, read by that
  tactic only;
* ``inline``, ``noinline`` and ``specialize`` are compiler hints (``Lean/Compiler/InlineAttrs.lean``,
  ``Lean/Compiler/Specialize.lean``): they shape compiled code, which neither the statement nor the
  kernel's check reads.

Each may be ``local``/``scoped`` and take its own arguments (``@[simp ←]``, ``@[simp 100]``,
``@[specialize f]``). Everything else stays refused (``_forbidden``): ``instance``, ``default_instance``,
``coe``, ``macro``, ``*_elab``, ``csimp``, ``implemented_by``, ``extern``, ``export``, ``init``,
``simproc``, ``norm_num``, ``app_unexpander``, ``to_additive``... An ``instance`` and the value of a pinned
answer keep only ``simp``: an instance's reducibility steers instance search, and an answer's auxiliary
definitions are unfolded when the statement elaborates. An attribute on a pinned declaration or the
theorem is a change to its text (G2), and ``attribute [...] c`` outside a block is not a helper.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._aesop_clauses import ATTRIBUTE, aesop_rule_arguments
from putnam_solver.core.provers.lean._attribute_items import attribute_items, attribute_word
from putnam_solver.core.provers.lean._grind_attribute import GRIND_ATTRIBUTES, grind_arguments
from putnam_solver.core.provers.lean._policy import LeanPolicy
from putnam_solver.core.provers.lean.syntax import DOC, IDENT, NUMBER, Token

ONLY_SIMP: Final = ("simp",)
"""What an ``instance`` and the auxiliary declarations of a pinned answer may carry."""
_KINDS: Final = frozenset({"local", "scoped"})
_SIMP_ARGUMENTS: Final = frozenset({"←", "<-", "↓", "↑", "default", "low", "mid", "high"})


def item_allowed(item: Sequence[Token], allowed: Sequence[str]) -> bool:
    """``[local|scoped] name args``: ``name`` among ``allowed``, with only the arguments it takes."""
    rest = list(item[1:]) if item and item[0].text in _KINDS else list(item)
    if not rest or rest[0].kind != IDENT or attribute_word(rest[0].text) not in allowed:
        return False
    name, arguments = attribute_word(rest[0].text), rest[1:]
    if name != rest[0].text:
        return not arguments  # `@[«simp»]`: read by `Attr.simple`, whose arguments are not `simp`'s syntax
    if name == "simp":
        return all(t.kind == NUMBER or t.text in _SIMP_ARGUMENTS for t in arguments)
    if name == "specialize":
        return all(t.kind in (IDENT, NUMBER) for t in arguments)
    if name in GRIND_ATTRIBUTES:
        return grind_arguments(arguments)
    if name == ATTRIBUTE:
        return aesop_rule_arguments(arguments)
    return not arguments


def attribute_violations(tokens: Sequence[Token], allowed: Sequence[str]) -> list[Violation]:
    """Every ``@[...]`` list among ``tokens`` with an item :func:`item_allowed` refuses."""
    violations, i = [], 0
    while i < len(tokens):
        if tokens[i].text != "@[":
            i += 1
            continue
        items, after = attribute_items(tokens, i)
        if not all(item_allowed(item, allowed) for item in items):
            names = " ".join(t.text for t in tokens[i + 1 : after - 1] if t.text != "," and t.kind != DOC)
            violations.append(Violation(tokens[i].line, f"`@[{names}]`", "attribute not permitted"))
        i = after
    return violations


def helper_prefix_violations(
    prefix: Sequence[Token], policy: LeanPolicy, allowed: Sequence[str] | None = None
) -> list[Violation]:
    """A helper may carry a docstring, the attributes ``allowed`` (by default ``policy.helper_attributes``)
    and the allowed modifiers; nothing else."""
    violations = attribute_violations(prefix, policy.helper_attributes if allowed is None else allowed)
    i = 0
    while i < len(prefix):
        token = prefix[i]
        if token.text == "@[":
            i = attribute_items(prefix, i)[1]
            continue
        if token.kind != DOC and token.text not in policy.helper_modifiers:
            violations.append(Violation(token.line, f"`{token.text}`", "not permitted before a helper"))
        i += 1
    return violations
