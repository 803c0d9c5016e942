"""The ``open``s in force at a pinned declaration, and how a candidate's command is matched to the
challenge's (split from ``_preservation``); and the part of the file where G6 reads nothing (red team 23).

On the no-answer track G6 (comparator) takes each ``*_solution`` definition as a hole: it compares the
theorem's type and lets the value be anything. An addition that can act only through elaboration (an
``instance`` for a helper type, a global ``open``, a ``local notation``, an elaboration option: class 2,
left to G6 at the theorem) placed before a solution's value steers how that value elaborates, and no gate
compares what it became: ``abbrev Zz := Set ℕ`` and an ``instance : Inhabited Zz`` whose value is a
``Classical.choose`` of the statement, then the answer ``(default : Set ℕ)``, hides a choice operator from
G2's reading of the answer (``Zz`` is reducible, so the instance answers ``Inhabited (Set ℕ)``, and a later
instance is tried first), and the theorem holds by ``Classical.choose_spec``. So G2 judges everything up
to the last solution declaration as if no G6 ran (:func:`answers_at`), on every profile.

Global ``open``s are the exception: what they change at a value is which name a word resolves to, and the
answer rules resolve every word through the opens in force there (``_answer_value.answer_violations``: a choice
operator reached through ``open Classical``, a name part of a helper in the opened namespace), so on a
profile with G6 they stay accepted where the rules can read them (:func:`answer_reads`), as sound
published proofs have them (``open MeasureTheory`` above the solution: 12 files of the conformance corpus).
What they change beyond names is read too: an ``open`` that activates ``Classical``'s scoped instance makes
every proposition decidable with no name to read, so a value that decides one there is refused
(``_answer_decisions``, red team 37).
"""

from __future__ import annotations

from collections.abc import Sequence

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._helpers import ELABORATION_MARK, needs_g6
from putnam_solver.core.provers.lean.syntax import IDENT, Command, Statement, normalize_name
from putnam_solver.core.verify import Track

BEFORE_ANSWER = (
    "stands before a no-answer value, which no gate compares once elaborated (G6 takes the value as a hole): "
    "there an addition that acts through elaboration is refused on every profile"
)


def answers_at(expected: Statement, track: Track, keys: Sequence[tuple[str, ...]]) -> int:
    """The index (among ``keys``, the challenge's non-``open`` commands) of its last solution declaration on
    the no-answer track, -1 on with-answer or without one: up to there G2 judges as if no G6 ran."""
    solutions = {command_key(s.command) for s in expected.solutions} if track is Track.NO_ANSWER else set()
    return max((i for i, key in enumerate(keys) if key in solutions), default=-1)


def answer_reads(in_force: Sequence[Command]) -> bool:
    """Whether the answer rules read the ``open``s in force at a value as Lean does: not when one renames
    (``open Classical renaming epsilon → pick`` makes ``pick`` a choice operator no rule knows)."""
    return not any(t.text == "renaming" for command in in_force for t in command.tokens)


def before_answer(violations: Sequence[Violation]) -> list[Violation]:
    """``violations`` of an acceptance that runs G6: a refusal for acting through elaboration can only have
    come from before a no-answer value (:func:`answers_at`), so it says so instead of asking for G6."""
    return [
        v._replace(rule=f"{v.rule.split(ELABORATION_MARK)[0].strip()}: {BEFORE_ANSWER}")
        if ELABORATION_MARK in v.rule
        else v
        for v in violations
    ]


def command_key(command: Command) -> tuple[str, ...]:
    """How a candidate's command is matched to the challenge's: declarations by name, others by text."""
    if command.name is not None:
        return ("decl", normalize_name(command.name))
    return tuple(t.text for t in command.tokens)


def open_names(commands: Sequence[Command]) -> list[str] | None:
    """The namespaces plain ``open A B`` commands open, in order; None if one has another form
    (``scoped``, ``hiding``, ``renaming``, ``(names)``)."""
    names: list[str] = []
    for command in commands:
        parts = command.tokens[command.head + 1 :]
        if not parts or any(t.kind != IDENT or t.text in ("scoped", "hiding", "renaming") for t in parts):
            return None
        names += [normalize_name(t.text) for t in parts]
    return names


def open_violations(
    expected: Statement, pinned: Command, in_force: Sequence[Command], line: int, semantic: bool, at: str
) -> list[Violation]:
    """The global ``open``s in force at a pinned declaration (``at``: the theorem, a definition or
    answer the challenge declares before it, whose meaning the theorem's depends on; an ``open`` in a
    ``section`` closed before the theorem is still in force there) against the header's. The same
    namespaces in the same order pass, however split over lines: ``open A B`` opens ``A`` then ``B``,
    exactly as ``open A`` then ``open B`` (Lean src/Lean/Elab/Open.lean, ``elabOpenDecl`` folds over the
    identifiers). Another order, a namespace dropped or added can change the statement only through
    elaboration: a later name may resolve inside an earlier opened namespace
    (src/Lean/ResolveName.lean ``resolveNamespaceUsingOpenDecls``), and opened names change what the
    statement's identifiers resolve to; G6 decides. What is compared is the challenge's own ``open``s
    before ``pinned``, not all of them: one the challenge makes after a definition is not in force at it
    (red team 11: a statement ``open Real`` / ``def foo`` / ``open Nat`` / ``theorem`` refused its own text
    and accepted ``open Nat`` moved above ``foo``)."""
    header = opens_before(expected, pinned)
    if [command_key(c) for c in in_force] == [command_key(c) for c in header]:
        return []
    want, got = open_names(header), open_names(in_force)
    if want is not None and want == got:
        return []
    if semantic:
        return []
    shown = "; ".join(
        " ".join(t.text for t in c.tokens) for c in in_force if command_key(c) not in map(command_key, header)
    )
    return [Violation(line, f"`{shown or 'open'}`", needs_g6(f"a global `open` in force at {at}"))]


def opens_before(expected: Statement, pinned: Command) -> list[Command]:
    """The challenge's global ``open`` commands that come before its declaration ``pinned``."""
    before = next(i for i, c in enumerate(expected.commands) if c is pinned)
    return [c for c in expected.commands[:before] if c.keyword == "open"]
