"""G2 helpers: how the candidate's additions are shown and judged one by one (helper names, prefixes,
``deriving`` clauses, and layout that would make Lean split commands otherwise; a no-answer value's names
are ``_answer_value``'s)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._alternative_shapes import ALTERNATIVE_RULE, unshaped_alternatives
from putnam_solver.core.provers.lean._continuation import _CLOSERS, _OPENERS, IN_RULE, command_ins
from putnam_solver.core.provers.lean._member_shapes import MEMBER_RULE, unshaped_members
from putnam_solver.core.provers.lean._members import signature_binder
from putnam_solver.core.provers.lean._policy import DERIVING_HANDLERS, TYPE_KEYWORDS
from putnam_solver.core.provers.lean.syntax import (
    COMBINATORS,
    COMMAND_ONLY_KEYWORDS,
    DOC,
    IDENT,
    NUMBER,
    Command,
    Statement,
    Token,
    body_keywords,
    name_parts,
    normalize_name,
)


def show(command: Command, limit: int = 60) -> str:
    text = " ".join(t.text for t in command.tokens[command.head : command.head + 12] if t.kind != DOC)
    text = text or " ".join(t.text for t in command.tokens[:12])
    return f"`{text[:limit]}{'…' if len(text) > limit else ''}`"


def deriving_clause(command: Command) -> int | None:
    """Where a type's trailing ``deriving A, B`` clause starts (Lean's ``optDeriving`` after the
    constructors or fields), or None: it belongs to the declaration, unlike ``deriving instance``."""
    if command.keyword not in TYPE_KEYWORDS:
        return None
    tokens = command.tokens
    start = next((i for i in range(command.head + 1, len(tokens)) if tokens[i].text == "deriving"), None)
    if start is None:
        return None
    handlers = tokens[start + 1 :]
    shape = all(t.kind == IDENT if k % 2 == 0 else t.text == "," for k, t in enumerate(handlers))
    return start if handlers and shape and handlers[0].text != "instance" else None


def deriving_violations(command: Command) -> list[Violation]:
    start = deriving_clause(command)
    if start is None:
        return []
    handlers = [t for t in command.tokens[start + 1 :] if t.kind == IDENT]
    return [
        Violation(t.line, f"`deriving {t.text}`", f"derive only {', '.join(DERIVING_HANDLERS)}")
        for t in handlers
        if normalize_name(t.text) not in DERIVING_HANDLERS
    ]


def class_violations(command: Command) -> list[Violation]:
    """A ``class`` is a helper type (a structure marked as a class) only where it declares no instance. Lean
    makes a class's parent projections (``extends``) instances (measured on Lean 4.35: ``ZzB.toZzA`` serves
    ``ZzA Nat`` from an instance of ``ZzB Nat``), Mathlib's ``class abbrev`` declares one and ``class
    inductive`` is an inductive class; all are refused. So are instance-implicit fields (``[inst : C α]``):
    not instances on Lean 4.35, unmeasured on the pinned releases (fail closed; a ``[`` at the top of the
    fields, a list literal too), but for a binder of a field's own signature (``f [C α] : T``, round 35:
    ``_members.signature_binder``). A plain class declares no instance: an instance of it would need an
    ``instance`` command, which G2 judges."""
    if command.keyword != "class":
        return []
    tokens, head = command.tokens, command.head
    kind = tokens[head + 1].text if head + 1 < len(tokens) else ""
    if kind in ("inductive", "abbrev"):
        return [Violation(command.line, f"`class {kind}`", "declares an inductive class or an instance")]
    rule = "a class's parents become instances (and `[...]` fields may); declare a `structure` or a plain class"
    depth, fields = 0, False
    found: list[Violation] = []
    for i in range(head + 1, len(tokens)):
        token = tokens[i]
        if token.text == "extends" or (fields and depth <= 0 and token.text == "[" and not signature_binder(tokens, i)):
            found.append(Violation(token.line, f"`{token.text}`", rule))
        fields = fields or (depth <= 0 and token.text == "where")
        depth += (token.text in _OPENERS) - (token.text in _CLOSERS)
    return found


NOTATION_KEYWORDS: Final = frozenset({"notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix"})


def local_notation(command: Command) -> bool:
    """``local notation ...`` (or ``local infix``...): a notation whose scope ends with its block."""
    tokens = command.tokens
    return command.keyword == "local" and len(tokens) > 1 and tokens[command.head + 1].text in NOTATION_KEYWORDS


def local_instance(command: Command) -> bool:
    """``local instance ...``: a definition whose instance attribute ends with its block."""
    tokens = command.tokens
    return command.keyword == "local" and command.head + 1 < len(tokens) and tokens[command.head + 1].text == "instance"


LOCAL_ATTRIBUTES: Final = frozenset({"instance", "simp", "reducible", "semireducible", "irreducible"})
"""Attributes a candidate may make ``local`` inside a block of its own: they steer instance search,
``simp`` and how far the elaborator unfolds a constant (``Lean/ReducibilityAttrs.lean`` keeps a ``local``
reducibility in a scoped extension, like a local instance), nothing the kernel trusts, and end with the
block (checked on Lean 4.35 with the toy toolchain: ``rfl`` for ``zzc = 3`` fails inside the block that
makes ``zzc`` irreducible and passes after its ``end``)."""


def local_attribute(command: Command) -> bool:
    """``attribute [local instance 100, local simp] a b``: every item ``local``, of
    :data:`LOCAL_ATTRIBUTES`, with an optional priority, then plain names (nothing before the keyword)."""
    tokens = command.tokens
    return command.keyword == "attribute" and command.head == 0 and _local_names_end(tokens, 0) == len(tokens)


def local_attribute_in_end(tokens: Sequence[Token], i: int) -> int | None:
    """For ``attribute [local simp] a b in`` at ``i`` (a :func:`local_attribute` before ``in``): the index
    after ``in``, else None. Lean expands ``c in d`` to ``section c d end`` (leanprover/lean4
    src/Lean/Elab/BuiltinCommand.lean, ``expandInCmd``), so its local entries end with ``d``."""
    end = _local_names_end(tokens, i)
    return end + 1 if end is not None and end < len(tokens) and tokens[end].text == "in" else None


def _local_names_end(tokens: Sequence[Token], i: int) -> int | None:
    """For ``attribute [<local items>] a b`` at ``i``: the index after the last name, else None."""
    if tokens[i].text != "attribute" or i + 1 >= len(tokens) or tokens[i + 1].text != "[":
        return None
    close = next((j for j in range(i + 2, len(tokens)) if tokens[j].text == "]"), None)
    if close is None:
        return None
    items: list[list[Token]] = [[]]
    for token in tokens[i + 2 : close]:
        if token.text == ",":
            items.append([])
        else:
            items[-1].append(token)
    end = close + 1
    while end < len(tokens) and tokens[end].kind == IDENT and tokens[end].text not in (*COMMAND_ONLY_KEYWORDS, "in"):
        end += 1
    return end if end > close + 1 and all(_local_item(item) for item in items) else None


def _local_item(item: Sequence[Token]) -> bool:
    if len(item) not in (2, 3) or item[0].text != "local" or item[1].text not in LOCAL_ATTRIBUTES:
        return False
    return len(item) == 2 or (item[1].text == "instance" and item[2].kind == NUMBER)


def local_attribute_tokens(command: Command) -> list[Token]:
    """The ``local`` and attribute words of a :func:`local_attribute` command (inside its brackets)."""
    if not local_attribute(command):
        return []
    close = next(i for i, t in enumerate(command.tokens) if t.text == "]")
    return [t for t in command.tokens[2:close] if t.kind == IDENT]


def layout_violations(command: Command) -> Iterator[Violation]:
    """Text whose command structure Lean would read differently from our column-0 split."""
    clause = deriving_clause(command)
    own = command.tokens[clause] if clause is not None else None
    if local_notation(command) or local_instance(command):  # one command: `attrKind`, then the declaration
        own = command.tokens[command.head + 1]
    inside = local_attribute_tokens(command)  # `attribute [local instance] x`: Lean's `attrKind`, then its name
    for token in body_keywords(command):
        if token is own or any(token is t for t in inside):
            continue
        rule = "starts a new command here; begin commands at column 0"
        if token.text in COMBINATORS:
            rule = f"without `... in` this starts a new command (a new `{token.text}` for what follows)"
        yield Violation(token.line, f"`{token.text}`", rule)
    for token in command_ins(command.tokens, command.head):
        yield Violation(token.line, "`in`", IN_RULE)
    for token in unshaped_members(command.tokens, command.keyword, command.head):
        yield Violation(token.line, f"`{token.text}`", MEMBER_RULE)
    for token in unshaped_alternatives(command.tokens, command.keyword, command.head):
        yield Violation(token.line, f"`{token.text}`", ALTERNATIVE_RULE)
    last = command.tokens[-1]
    if last.text == "in" and command.keyword not in ("omit", "include"):  # those G2 judges by their block
        yield Violation(last.line, show(command), "a trailing `... in` would apply to the next command")
    if not command.keyword:
        yield Violation(command.line, show(command), "not a complete command")


def candidate_name_parts(commands: Sequence[Command], expected: Statement) -> frozenset[str]:
    """Every name part of every declaration the candidate makes that the challenge does not (helpers)."""
    challenge_names = {normalize_name(n) for n in expected.declared_names}
    return frozenset(
        part
        for c in commands
        if c.name is not None and normalize_name(c.name) not in challenge_names
        for name in declared_names(c)
        for part in name_parts(normalize_name(name))
    )


def declared_names(command: Command) -> list[str]:
    """The names a named declaration adds that a statement could reach: its own and, for Mathlib's
    ``irreducible_def n``, the equation ``n_def`` (Mathlib/Tactic/IrreducibleDef.lean: ``appendAfter
    "_def"``); the ``definition`` and ``wrapped`` it declares as well come from a syntax quotation, so
    their names carry macro scopes that no text can write."""
    if command.name is None:
        return []
    return [command.name, f"{command.name}_def"] if command.keyword == "irreducible_def" else [command.name]


def helper_name_violations(
    command: Command, name: str, expected: Statement, namespace: Sequence[str], after: bool = False
) -> list[Violation]:
    """A helper may not become what a name of the statement resolves to. At top level: not a challenge
    declaration, nor a name the statement uses free. With ``autoImplicit`` off a name the theorem binds
    anywhere is harmless: an occurrence is the local or, outside every scope of its name, a declaration,
    which a root helper could only make ambiguous. Under ``autoImplicit`` such an occurrence may be an
    auto-bound variable that a root helper so named replaces (red team 25): there a name counts as free
    where any occurrence is outside its binders' scopes (``Statement.names_used_free``). In a namespace
    ``N``: not a part of a name in the statement (``x.h`` finds ``N.h`` for ``x : N``). ``after`` the
    theorem only the first rule holds."""
    full = ".".join([*namespace, name])
    if full in expected.declared_names:
        return [Violation(command.line, f"`{full}`", "collides with a challenge declaration")]
    if after:  # red team 25: the statement was elaborated before the helper existed
        return []
    if namespace and name in expected.name_parts_used:
        rule = "inside a namespace, a helper named like a part of a statement name could be what dot notation finds"
        return [Violation(command.line, f"`{full}`", rule)]
    free = expected.names_used_free if expected.auto_bound else expected.referenced_names - expected.bound_names
    if not namespace and name in free:
        rule = "is a name the challenge uses: the statement could come to mean this helper"
        return [Violation(command.line, f"`{name}`", rule)]
    return []


ELABORATION_MARK: Final = "can change the statement only through elaboration"
"""What every reason :func:`needs_g6` writes says: how a verdict tells such refusals from the others."""


def needs_g6(what: str) -> str:
    """Why an addition that can act only through elaboration is refused where G6 does not run."""
    return (
        f"{what} {ELABORATION_MARK}: accepted only by a profile that "
        "runs G6 (comparator), such as `full`; this profile has no semantic statement check"
    )
