"""G3, a tactic's configuration given whole: ``(config := e)`` with ``e`` anything but a structure instance
that names its fields.

Red team 24: core's ``decide`` takes a ``DecideConfig`` whose second field is ``native`` (leanprover/lean4
src/Init/Tactics.lean, ``structure DecideConfig where kernel : Bool := false; native : Bool := false;
zetaReduce : Bool := true; revert : Bool := false``): "uses the native code compiler to evaluate the
``Decidable`` instance, admitting the result via the axiom ``Lean.ofReduceBool``". G3 refuses the word
``native`` (``decide +native``, ``(native := true)``, ``(config := { native := true })``), but the same file's
``valConfigItem`` (``" (" (ident <|> &"config") " := " term ")"``, "``(config := ...)`` sets the entire
configuration") takes any term of that type: ``decide (config := ⟨false, true, true, false⟩)``,
``(config := .mk false true true false)``, ``(config := id ⟨..⟩)`` or ``{ c with }`` switch ``native`` on
without naming it, and the text profile accepted them (G5 sees ``Lean.ofReduceBool`` on the full profile).

What G3 reads by field is a structure instance ``{ f := v, ... }``: each field it sets is named there, so a
forbidden field is a forbidden word. So a ``(config := e)`` item (``config`` written plainly or ``«config»``,
the same name to Lean) passes only when ``e`` is ``{ ... }``, closed right before the item's ``)``, with no
source (``{ s with ... }``: ``with`` at the braces' own level before any ``:=``). Published proofs write
``(config := { decide := true })``, ``(config := { failIfUnchanged := false })``: kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import DOC, IDENT, Token, name_parts

CONFIG_CONSTRUCT: Final = "(config := ...)"
CONFIG_REASON: Final = (
    "a tactic configuration given whole (`(config := ⟨false, true, true, false⟩)`, `.mk ...`, "
    "`{ c with ... }`) can switch on `decide`'s `native` field (the compiler, `Lean.ofReduceBool`) without "
    "naming it: set options by name (`+kernel`, `(kernel := true)`, `(config := { kernel := true })`)"
)
_OPEN: Final = frozenset({"(", "[", "{", "⦃", "⟨", "@[", "⁅"})
_CLOSE: Final = frozenset({")", "]", "}", "⦄", "⟩", "⁆"})


def whole_configs(tokens: Sequence[Token]) -> list[Token]:
    """The ``config`` token of every ``(config := e)`` item whose ``e`` G3 cannot read field by field (see
    the module's text). Linear: brackets are matched once, with a stack, before any item is judged."""
    code = [t for t in tokens if t.kind != DOC]
    items = [
        i
        for i, t in enumerate(code)
        if t.kind == IDENT
        and "config" in t.text
        and 0 < i < len(code) - 2
        and code[i - 1].text == "("
        and code[i + 1].text == ":="
        and name_parts(t.text) == ["config"]
    ]
    if not items:
        return []
    closer, sourced = _brackets(code)
    found = []
    for i in items:
        value = i + 2
        end = closer.get(value)
        named = (
            code[value].text == "{"
            and end is not None
            and code[end].text == "}"
            and end + 1 < len(code)
            and code[end + 1].text == ")"
            and value not in sourced
        )
        if not named:
            found.append(code[i])
    return found


def _brackets(code: Sequence[Token]) -> tuple[dict[int, int], set[int]]:
    """Where each opening bracket closes (absent when it never does, or is closed by a bracket of
    another kind), and the ``{`` whose own level holds ``with`` before any ``:=`` (a structure instance's
    source, ``{ s with f := v }``)."""
    closer: dict[int, int] = {}
    sourced: set[int] = set()
    stack: list[int] = []
    assigned: list[bool] = []  # per open bracket: a `:=` met at its own level
    pairs = {"(": ")", "[": "]", "{": "}", "⦃": "⦄", "⟨": "⟩", "@[": "]", "⁅": "⁆"}
    for j, token in enumerate(code):
        text = token.text
        if text in _OPEN:
            stack.append(j)
            assigned.append(False)
        elif text in _CLOSE:
            if stack:
                start = stack.pop()
                assigned.pop()
                if pairs[code[start].text] == text:
                    closer[start] = j
        elif stack and code[stack[-1]].text == "{":
            if text == ":=":
                assigned[-1] = True
            elif text == "with" and not assigned[-1]:
                sourced.add(stack[-1])
    return closer, sourced
