"""G2 on no-answer values: auxiliary declarations a value makes under the solution's own name.

A ``where`` clause or a ``let rec`` in ``abbrev putnam_X_solution : T := v`` declares a global constant
``putnam_X_solution.<name>`` before the theorem is elaborated, and an identifier of the statement
``putnam_X_solution.<name>`` then resolves to that constant instead of the field it was written for:
``putnam_2015_a2_solution.Prime`` is ``Nat.Prime putnam_2015_a2_solution`` in the pinned statement and
``True`` after ``where Prime : Prop := True`` (red team 11, checked on Lean 4.35 with the toy toolchain;
five PutnamBench statements use such a field of their solution). Helpers cannot do this (a dotted or
namespaced helper name the statement uses is refused), and the theorem's own auxiliary declarations come
after its type. A value may still use ``where`` and ``let rec`` under any other name.
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean.syntax import IDENT, Statement, Token, name_parts, normalize_name

RULE = (
    "declares `{}` under the solution's name (a `where` or `let rec` in the value), which is what the "
    "statement's `{}` would then resolve to instead of the field it names; rename it"
)


def solution_fields(expected: Statement, solution: str) -> dict[str, str]:
    """The names the statement reaches under ``solution`` (``putnam_X_solution.Prime``: ``Prime``), each
    with the identifier it appears in."""
    root = normalize_name(solution)
    fields: dict[str, str] = {}
    for token in expected.tokens:
        parts = name_parts(token.text) if token.kind == IDENT else []
        if len(parts) > 1 and parts[0] == root:
            fields.setdefault(parts[1], token.text)
    return fields


def auxiliary_names(value: Sequence[Token]) -> list[Token]:
    """Names the value may declare: the one after ``let rec``, and after a ``where``, every identifier
    that begins a line or follows ``where`` or ``;`` (a declaration's name; over-approximated)."""
    found: list[Token] = []
    after_where = False
    for i, token in enumerate(value):
        before = value[i - 1] if i else None
        if token.text == "where":
            after_where = True
        if token.kind != IDENT or before is None:
            continue
        if before.text == "rec" or (after_where and (before.text in ("where", ";") or before.line != token.line)):
            found.append(token)
    return found


def auxiliary_violations(value: Sequence[Token], label: str, expected: Statement, solution: str) -> list[Violation]:
    fields = solution_fields(expected, solution)
    if not fields:
        return []
    violations = []
    for token in auxiliary_names(value):
        hit = next((p for p in name_parts(normalize_name(token.text)) if p in fields), None)
        if hit is not None:
            violations.append(Violation(token.line, f"{label}: `{token.text}`", RULE.format(token.text, fields[hit])))
    return violations
