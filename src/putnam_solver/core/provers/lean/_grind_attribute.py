"""G2 and G3, core's ``grind`` attribute on a declaration of the candidate's own (red team 27).

``@[grind]`` (leanprover/lean4 src/Init/Grind/Attr.lean, ``syntax (name := grind) "grind" (ppSpace
grindMod)? : attr``, and its kin ``grind!``, ``grind?``, ``grind!?``) adds the declaration to the theorems
the ``grind`` tactic instantiates, with a modifier that says how (``=``, ``=_``, ``_=_``, ``←``, ``→``,
``⇐``, ``⇒``, ``.``, ``cases``, ``cases eager``, ``intro``, ``ext``, ``inj``, ``funCC``, ``norm``, ``unfold``,
``usr``, ``gen``, ``symbol prio``). Like ``simp``, it is read by a tactic only, which builds proofs
(proof-irrelevant), and the statement names no helper: it cannot change what the statement means. Lean
4.27 proofs tag helper lemmas so (``@[grind =] theorem ...``); they were refused as an attribute not
permitted. An ``instance`` and a pinned answer's auxiliary definitions still keep only ``simp``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean.syntax import DOC, IDENT, NUMBER, Command, Token

GRIND_ATTRIBUTES: Final = ("grind", "grind!", "grind?", "grind!?")
_MODIFIERS: Final = frozenset(
    {"=", "_", "←", "<-", "→", "->", "⇐", "<=", "⇒", "=>", ".", "·", "↓", "↑", "gen", "usr", "cases", "eager",
     "intro", "ext", "inj", "funCC", "norm", "unfold", "symbol", "default", "low", "mid", "high"}
)  # fmt: skip
"""The tokens of ``grindMod`` (Attr.lean) and of a ``symbol``'s priority."""


def grind_arguments(arguments: Sequence[Token]) -> bool:
    """Whether ``arguments`` (after the attribute's name) are made of ``grind``'s modifiers only."""
    return all(t.kind == NUMBER or t.text in _MODIFIERS for t in arguments)


def grind_pattern_violations(command: Command) -> list[Violation]:
    """Core's ``grind_pattern NAME => p, ...`` command (leanprover/lean4 src/Lean/Meta/Tactic/Grind/Parser.lean,
    ``Term.attrKind >> "grind_pattern " >> optional ("[" >> ident >> "]") >> ident >> darrow >> sepBy1
    termParser "," >> optional grindPatternCnstrs``): it gives ``grind``'s E-matching the pattern by which to
    instantiate the theorem ``NAME``, what ``@[grind]`` does with a pattern it infers. Only ``grind`` reads it,
    and ``grind`` builds proofs the kernel checks: it cannot change what the statement means. Accepted with
    a docstring and its ``local``/``scoped`` at most before it (round 29: they only narrow where ``grind``
    sees the pattern), in that form; its terms are scanned by G3 like the rest of the file."""
    tokens = command.tokens
    code = [t for t in command.prefix if t.kind != DOC]
    kind = code[-1:] if code[-1:] and code[-1].text in ("local", "scoped") else []
    violations = [
        Violation(t.line, f"`{t.text}`", "not permitted before `grind_pattern`") for t in code[: len(code) - len(kind)]
    ]
    i = command.head + 1
    if i + 2 < len(tokens) and tokens[i].text == "[" and tokens[i + 2].text == "]" and tokens[i + 1].kind == IDENT:
        i += 3
    if not (i + 2 < len(tokens) and tokens[i].kind == IDENT and tokens[i + 1].text == "=>"):
        violations.append(Violation(command.line, "`grind_pattern`", "expected `grind_pattern NAME => pattern`"))
    return violations
