"""G2 on two kinds of addition published proofs make that G3 no longer refuses on sight: an ``instance``
for something the candidate defines itself, and a ``local notation``.

Why G6 can decide them: comparator compares the theorem's elaborated type in the candidate's environment
with the challenge's, and the kernel re-checks every declaration (an instance is an ordinary definition
with an attribute; a notation only changes how text parses). Either can change what the statement
elaborates to, never what the kernel accepts, and a changed statement is a different type, which G6
refuses. So both are the ``elaboration`` class: left to G6 where it runs, refused with that reason
elsewhere. (A ``local notation`` inside a ``namespace`` block could even be harmless, since Lean drops
``local`` entries when the block ends and the candidate's namespace blocks close before the theorem;
it stays in the elaboration class so that the published corpus keeps its verdicts until that argument
is checked against Lean's ``ScopedEnvExtension``.) Everything else stays refused:
an instance for a class and type the candidate does not define (``Fact (Nat.Prime 2017)``: it can
decide which instance the statement gets), global ``notation``, ``attribute [instance]``, ``@[instance]``.

A third kind is harmless on every profile: ``attribute [local instance] foo`` (or ``local simp``, or a local
reducibility: ``_helpers.LOCAL_ATTRIBUTES``) inside
a ``section`` or ``namespace`` block of the candidate's that ends before the theorem. Lean keeps local
attribute entries in the scope they were made in and drops them at its ``end`` (checked on Lean 4.35 with
the toy toolchain: ``0 : Foo`` elaborates inside the block and fails after it), so only the candidate's
helpers see it, which the kernel checks whatever instance they used. G2 judges the block
(:func:`local_attribute`, ``_blocks.variables_in_scope``); at top level, in the challenge's own open
``noncomputable section`` or around a pinned declaration it would be in force there, and is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._blocks import Walk
from putnam_solver.core.provers.lean._helpers import (
    helper_name_violations,
    local_attribute,
    local_attribute_tokens,
    local_instance,
    local_notation,
    needs_g6,
    show,
)
from putnam_solver.core.provers.lean.syntax import IDENT, Command, Statement, Token, name_parts, top_level_assign


def scoped_violations(command: Command, walk: Walk) -> list[Violation]:
    """``attribute [local instance] x`` or ``local instance`` in a block of the candidate's own: it ends with
    the block, which must close before any pinned declaration (``_blocks.variables_in_scope``); at top level
    or in the challenge's own section it would be in force at the theorem."""
    block = walk.blocks[-1] if walk.blocks else None
    if block is None or walk.pinned(block) or block.opener.keyword == "mutual":
        owner = "the challenge's own " if block is not None and walk.pinned(block) else ""
        where = "at top level" if block is None else f"in {owner}{show(block.opener)}"
        rule = f"a local attribute {where} is in force at the theorem; put it in a `section` closed before it"
        return [Violation(command.line, show(command), rule)]
    walk.scoped.append(block)
    return []


def local_instance_violations(
    command: Command, walk: Walk, expected: Statement, namespace: Sequence[str]
) -> list[Violation]:
    """``local instance`` before the theorem: its instance attribute is a local attribute like
    ``attribute [local instance] x``'s (Lean's ``instance`` command adds it with the command's
    ``attrKind``, and a ``local`` entry of a ``ScopedEnvExtension`` is dropped when its scope is popped at
    ``end``: src/Lean/ScopedEnvExtension.lean, ``popScope``), so the same block rule holds
    (:func:`scoped_violations`). The definition itself stays in the environment, so its name follows the
    helpers' rules; an anonymous one is named ``inst...`` by Lean (src/Lean/Elab/DeclUtil.lean and
    DeclNameGen.lean, ``mkInstanceName``: ``"inst"`` and the type's constants, made unused), so it is
    refused only where a name the statement uses begins with ``inst``."""
    found = scoped_violations(command, walk)
    name = _instance_name(command)
    if name is None:
        if any(part.startswith("inst") for part in expected.name_parts_used):
            rule = "an anonymous instance is named `inst...` by Lean, like a name the statement uses"
            found.append(Violation(command.line, show(command), rule))
        return found
    parts = name_parts(name)
    if parts[0] == "_root_":
        return [*found, Violation(command.line, f"`{name}`", "helper names may not escape to `_root_`")]
    return found + helper_name_violations(command, parts[-1], expected, [*namespace, *parts[:-1]])


def _instance_name(command: Command) -> str | None:
    """The declared name of ``[local] instance (priority := p)? name? ...``, or None when anonymous."""
    tokens, i = command.tokens, command.head + 2
    if i + 1 < len(tokens) and tokens[i].text == "(" and tokens[i + 1].text == "priority":
        while i < len(tokens) and tokens[i].text != ")":
            i += 1
        i += 1
    return tokens[i].text if i < len(tokens) and tokens[i].kind == IDENT else None


def notation_violations(command: Command, semantic: bool) -> list[Violation]:
    """A ``local notation``: left to G6 (see the module's docstring for why even one inside a namespace
    block, which Lean drops at its ``end``, is not yet accepted on the text profile)."""
    if command.head != 0:
        return [Violation(command.line, show(command), "nothing may precede `local notation`")]
    return [] if semantic else [Violation(command.line, show(command), needs_g6("a `local notation`"))]


def instance_violations(command: Command, defined: frozenset[str], semantic: bool) -> list[Violation]:
    """An ``instance`` whose type names something the candidate defines: left to G6; others refused."""
    if not _names_candidate_type(command, defined):
        rule = (
            "an `instance` for a class and type the candidate does not define can decide which instance the "
            "statement elaborates with; only instances for the candidate's own types are left to G6"
        )
        return [Violation(command.line, show(command), rule)]
    return [] if semantic else [Violation(command.line, show(command), needs_g6("an `instance` for a helper type"))]


def _names_candidate_type(command: Command, defined: frozenset[str]) -> bool:
    """Whether the instance's type (after its last top-level ``:``) mentions a name the candidate declares."""
    tokens = command.tokens
    end = top_level_assign(tokens, last=False) or len(tokens)
    signature = tokens[command.head + 1 : end]
    colon = _last_top_level_colon(signature)
    kind = signature[colon + 1 :] if colon is not None else []
    return any(t.kind == IDENT and not defined.isdisjoint(name_parts(t.text)) for t in kind)


_OPENERS: Final = frozenset({"(", "[", "{", "⦃", "⟨"})
_CLOSERS: Final = frozenset({")", "]", "}", "⦄", "⟩"})


def _last_top_level_colon(tokens: Sequence[Token]) -> int | None:
    """The last ``:`` outside every bracket (a ``:`` inside a binder is not the type's), in one pass: red
    team 21 found a depth recount per colon, quadratic, so that 8,000 binders ran the text gates out of time."""
    depth, found = 0, None
    for i, token in enumerate(tokens):
        if token.text in _OPENERS:
            depth += 1
        elif token.text in _CLOSERS:
            depth -= 1
        elif token.text == ":" and depth == 0:
            found = i
    return found


def g2_decides(commands: Sequence[Command]) -> Counter[tuple[int, str]]:
    """The ``instance``, ``notation`` and ``attribute`` keywords G2 judges (a top-level ``instance``
    command, the ``notation`` of ``local notation``, the ``instance`` of ``local instance``, accepted only
    after the theorem, a :func:`local_attribute` inside a block), by line
    and text, for G3 to leave to it. A local attribute at top level is left to G3, which refuses it."""
    found: Counter[tuple[int, str]] = Counter()
    depth = 0
    for command in commands:
        if command.keyword in ("section", "namespace") and command.head <= 1:
            depth += 1
        elif command.keyword == "end":
            depth = max(depth - 1, 0)
        if command.keyword == "instance":
            found[(command.tokens[command.head].line, "instance")] += 1
        elif local_notation(command) or local_instance(command):  # G2 judges a local instance wherever it stands
            keyword = command.tokens[command.head + 1]
            found[(keyword.line, keyword.text)] += 1
        elif depth and local_attribute(command):
            found[(command.line, "attribute")] += 1
            for token in local_attribute_tokens(command):
                found[(token.line, token.text)] += token.text == "instance"
    return found
