"""G2's model of Lean's ``section``/``namespace`` stack while it walks the candidate's commands.

Lean's ``end`` closes the innermost block, whoever opened it, and a scope command (``set_option``,
``local notation``, ``variable``) holds until the block it stands in ends. G2 must follow the same
stack, the challenge's own blocks included, or it judges another scope than the one Lean reads the
theorem in (red team 14: the challenge's ``noncomputable section`` put inside a ``section`` of the
candidate's, then one ``end``: Lean closed the challenge's block and kept the candidate's open, with its
section variable ``[zz : Nonempty False]`` in the theorem, while G2 had closed the candidate's; and the
challenge's own ``set_option`` or ``local notation`` wrapped in ``section ... end`` before the theorem is
no longer in force there, so the same text states something else). Both compiled with no error and no
axiom on Lean 4.35 and were accepted by the text profile.

A dotted name opens one scope per component, and ``end X.Y`` closes as many scopes as its name has
components, each checked against its own (leanprover/lean4 src/Lean/Elab/BuiltinCommand.lean: ``addScopes``
pushes a scope per ``.str`` part of a ``namespace`` or ``section`` name; ``elabEnd`` drops ``getNumParts``
scopes once ``nameOfScopes`` of those matches the name). So ``namespace Zy.Zz`` is closed by ``end Zy.Zz``
or by ``end Zz`` then ``end Zy``, and ``end Zz`` alone leaves ``Zy`` open: G2 stacks one :class:`Block` per
component, as Lean does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._helpers import needs_g6, show
from putnam_solver.core.provers.lean.syntax import Command, name_parts

SECTION_VARIABLES: Final = frozenset({"variable", "include", "omit"})
"""Commands that change the section variables of the block they stand in, and of nothing outside it."""


@dataclass(eq=False)
class Block:
    """One scope Lean pushes: a whole unnamed ``section`` or ``mutual``, or one component of a named
    ``namespace``/``section`` (compared by identity: the components of one opener are distinct scopes)."""

    opener: Command
    header: str
    """The component this scope closes with (``Zz`` of ``namespace Zy.Zz``), ``""`` for an unnamed one."""
    opens: list[Command] = field(default_factory=list)
    """The global ``open``s made in this scope."""


def scopes_of(opener: Command) -> list[Block]:
    """The scopes a block opener pushes, outermost first."""
    names = [t.text for t in opener.tokens[opener.head + 1 :]]
    return [Block(opener, header) for header in (name_parts(names[0]) if names else [""])]


@dataclass
class Walk:
    """State while walking the candidate's commands in order."""

    violations: list[Violation]
    blocks: list[Block]
    """Open ``namespace``/``section`` scopes, innermost last: the candidate's, and the challenge's own
    sections (:attr:`pinned_blocks`), as Lean stacks them."""
    opens: list[Command]
    """Global ``open`` commands made at top level (header ones included)."""
    defined: frozenset[str] = frozenset()
    """Every name part of every declaration the candidate adds (helpers, types)."""
    header_done: bool = False
    """A command other than ``import`` came: Lean accepts no ``import`` after it."""
    scoped: list[Block] = field(default_factory=list)
    """Blocks in which the candidate declared section variables (``variable``, ``include``, ``omit``) or a
    local attribute (``attribute [local instance] x``): both end with the block."""
    universes: list[Block] = field(default_factory=list)
    """Blocks in which the candidate declared a ``universe``: Lean adds it to the block's scope
    (``Scope.levelNames``, src/Lean/Elab/Command.lean ``elabUniverse``) and pops it at ``end``; one still
    open at a pinned declaration is left to G6, as a top-level ``universe`` is."""
    pinned_blocks: list[Command] = field(default_factory=list)
    """The challenge's own block openers (its ``noncomputable section``), once met."""
    pinned_scope: list[tuple[Command, Block]] = field(default_factory=list)
    """The challenge's own scope commands met inside a block, with the innermost block they stand in."""

    def in_force(self) -> list[Command]:
        """The global ``open``s in force here: top level, and those of blocks still open."""
        return [*self.opens, *(o for block in self.blocks for o in block.opens)]

    def pinned(self, block: Block) -> bool:
        return any(block.opener is b for b in self.pinned_blocks)


def plain_prefix(command: Command) -> int:
    """How many tokens may precede a block keyword: ``noncomputable section`` has one."""
    return 1 if command.keyword == "section" and command.prefix and command.prefix[0].text == "noncomputable" else 0


def opens_block(command: Command) -> bool:
    """A ``section`` (``noncomputable`` or not) or ``namespace`` opener with nothing else before it, or a
    bare ``mutual``, whose ``end`` closes it as an unnamed block's does (Lean allows only declarations
    inside, each judged as a helper)."""
    if command.keyword == "mutual":
        return len(command.tokens) == 1
    return command.keyword in ("namespace", "section") and command.head == plain_prefix(command)


def pinned_command(command: Command, walk: Walk) -> list[Violation]:
    """The candidate's copy of a challenge command that is no declaration: a section it opens joins the
    stack, its ``end`` closes the innermost block as Lean's does, and any other (``set_option``, ``local
    notation``) is remembered with the block it stands in, which must not end before the theorem."""
    if command.keyword == "section" and opens_block(command):
        walk.blocks += scopes_of(command)
        walk.pinned_blocks.append(command)
    elif command.keyword == "end":
        return close_block(command, walk, by_challenge=True)
    elif walk.blocks and command.keyword != "import":
        walk.pinned_scope.append((command, walk.blocks[-1]))
    return []


def close_block(
    command: Command, walk: Walk, *, by_challenge: bool = False, theorem_seen: bool = False
) -> list[Violation]:
    """``end [X]`` closes the innermost open scopes, one per component of its name (one if it has none),
    whose headers must spell that name. Before the theorem, neither side's ``end`` may close the other's
    block, and the candidate may not end a block of its own that holds one of the challenge's scope
    commands: either way the theorem would be read in another scope than the challenge's (``by_challenge``:
    this ``end`` is the challenge's own)."""
    names = [t.text for t in command.tokens[command.head + 1 :]]
    header = name_parts(names[0]) if names else [""]
    if not walk.blocks:
        return [] if by_challenge else [Violation(command.line, show(command), "closes no block the candidate opened")]
    closed = walk.blocks[-len(header) :]
    if len(names) > 1 or [block.header for block in closed] != header:
        return [Violation(command.line, show(command), f"does not close {show(walk.blocks[-1].opener)}")]
    del walk.blocks[-len(header) :]
    return (
        [] if theorem_seen else [v for block in reversed(closed) for v in _closing(command, block, walk, by_challenge)]
    )


def _closing(command: Command, block: Block, walk: Walk, by_challenge: bool) -> list[Violation]:
    """What is wrong, before the theorem, with ``command`` closing ``block``."""
    opener = show(block.opener)
    if by_challenge:
        own = walk.pinned(block)
        return [] if own else [Violation(command.line, show(command), f"the challenge's own `end` closes {opener}")]
    if walk.pinned(block):
        return [Violation(command.line, show(command), f"closes the challenge's own {opener} before the theorem")]
    return [
        Violation(command.line, show(command), f"ends the scope of the challenge's {show(inner)} before the theorem")
        for inner, holder in walk.pinned_scope
        if holder is block
    ]


def local_block(walk: Walk) -> bool:
    """Whether the innermost open block is the candidate's own ``section`` or ``namespace``: what is local
    to it ends at its ``end``, which must come before any pinned declaration (:func:`variables_in_scope`)."""
    return bool(walk.blocks) and walk.blocks[-1].opener.keyword != "mutual" and not walk.pinned(walk.blocks[-1])


def variables_in_scope(walk: Walk, line: int, at: str, semantic: bool) -> list[Violation]:
    """Section variables (or local attributes and instances) the candidate declared in a block still open at a pinned
    declaration: Lean would add them to its statement or definition, or elaborate it with them (closed
    blocks take theirs away, so helpers may use them);
    and a candidate ``mutual`` block around it, which Lean would elaborate together with its helpers."""
    open_blocks = walk.blocks
    mutual = [
        Violation(line, show(b.opener), f"is still open at {at}") for b in open_blocks if b.opener.keyword == "mutual"
    ]
    universes = {id(b): b for b in walk.universes if not semantic and any(b is o for o in open_blocks)}
    mutual += [
        Violation(line, show(b.opener), needs_g6(f"a `universe` in a block open at {at}")) for b in universes.values()
    ]
    still_open = f"declares section variables, local attributes or local instances and is still open at {at}"
    return mutual + [
        Violation(line, show(block.opener), f"{still_open}; close it with `end` before {at}")
        for i, block in enumerate(walk.scoped)
        if any(block is b for b in open_blocks) and not any(block is s for s in walk.scoped[:i])
    ]
