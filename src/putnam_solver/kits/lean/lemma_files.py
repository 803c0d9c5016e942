"""Lean's lemma files: the helper lemmas a file leaves as holes, the statement file of one of them, what of
a proved lemma file goes back into the file, and how it goes back (text only: nothing runs here).

A lemma is found by its declaration, never by its layout: the command (``commands_of``) whose keyword is
``theorem`` or ``lemma`` and whose name, as Lean reads it, is the lemma's. Its statement is the code
tokens between the name and the first ``:=`` outside brackets; its prefix (doc comment, attributes,
modifiers) belongs to the command, so it moves with it.
"""

from __future__ import annotations

from putnam_solver.core.provers.lean.syntax import (
    Command,
    LexError,
    StatementError,
    commands_of,
    normalize_name,
    parse_statement,
    top_level_assign,
)
from putnam_solver.core.verify import Track
from putnam_solver.kits.interactive import Hole, LemmaError

HOLE_WORDS = frozenset({"sorry", "admit"})
LEMMA_KEYWORDS = frozenset({"theorem", "lemma"})


def _commands(text: str) -> list[Command]:
    try:
        return list(commands_of(text))
    except LexError:
        return []


def find_holes(challenge: str, candidate: str) -> list[Hole]:
    try:
        main = parse_statement(challenge).theorem_name
    except (LexError, StatementError):
        return []
    return [
        Hole(c.name, c.line)
        for c in _commands(candidate)
        if c.keyword in LEMMA_KEYWORDS and c.name is not None and c.name != main and _has_hole(c)
    ]


def _has_hole(command: Command) -> bool:
    return any(t.text in HOLE_WORDS for t in command.body)


def lemma_statement(challenge: str, candidate: str, name: str, track: Track) -> str:
    """The challenge's commands before its theorem (without no-answer solution holes), then the lemma
    ``name`` of ``candidate`` as a ``theorem`` whose proof is ``sorry``."""
    try:
        statement = parse_statement(challenge)
    except (LexError, StatementError) as exc:
        raise LemmaError(f"the challenge cannot be read: {exc}") from exc
    if name == statement.theorem_name:
        raise LemmaError(f"{name} is the theorem itself; prove_lemma takes a helper lemma")
    found = [c for c in _commands(candidate) if c.keyword in LEMMA_KEYWORDS and c.name == name]
    if not found:
        raise LemmaError(f"no theorem or lemma named {name} in the file you checked last")
    lemma = found[0]
    assign = top_level_assign(lemma.tokens, last=False)  # a proof's own ``have h : p :=`` comes later
    if assign is None or assign <= lemma.head:
        raise LemmaError(f"lemma {name}: no `:=` before its proof")
    holes = {s.command.tokens[0].offset for s in statement.solutions} if track is Track.NO_ANSWER else set()
    kept = [
        challenge[c.tokens[0].offset : c.tokens[-1].end]
        for c in statement.commands[:-1]
        if c.tokens[0].offset not in holes
    ]
    head = candidate[lemma.tokens[lemma.head + 1].offset : lemma.tokens[assign].offset].rstrip()
    return "\n\n".join([*kept, f"theorem {head} :=\nsorry"]) + "\n"


def lemma_text(statement: str, proved: str) -> str:
    """What of a proved lemma file goes into the main file: the commands after the statement's own
    commands before its theorem (the header it was given)."""
    try:
        given = len(parse_statement(statement).commands) - 1
    except (LexError, StatementError):
        return proved
    commands = _commands(proved)
    if len(commands) <= given:
        return proved
    return proved[commands[given].tokens[0].offset :].strip() + "\n"


def paste_lemma(file: str, name: str, proved: str) -> str | None:
    """``file`` with the proof of its lemma ``name``, left as a hole, taken from ``proved`` (a proved lemma's
    text, ``lemma_text``), or None. The lemma is found in both by its declaration: ``file`` must declare
    ``name`` exactly once, as a lemma with a hole, and ``proved`` must declare ``name`` with the same
    statement (code tokens from the name to ``:=``). What ``file`` writes up to its ``:=`` stays (doc
    comment, attributes, modifiers, keyword, statement); only the proof after it is replaced, and the
    declarations ``proved`` makes before the lemma (its own helpers) go before the lemma's prefix."""
    hole, given = _declared(_commands(file), name), _declared(_commands(proved), name)
    if hole is None or given is None or not _has_hole(hole[0]) or hole[2] != given[2]:
        return None
    (command, assign, _), (lemma, proved_assign, _) = hole, given
    helpers = proved[: lemma.tokens[0].offset].strip()
    start = command.tokens[0].offset
    proof = proved[lemma.tokens[proved_assign].end : lemma.tokens[-1].end]
    text = file[start : command.tokens[assign].end] + proof
    return file[:start] + (f"{helpers}\n\n" if helpers else "") + text + file[command.tokens[-1].end :]


def _declared(commands: list[Command], name: str) -> tuple[Command, int, tuple[str, ...]] | None:
    """The one lemma of ``commands`` named ``name`` (no other command may bear the name), the index of its
    ``:=`` and its statement's token texts; None if there is no such single lemma."""
    wanted = normalize_name(name)
    named = [c for c in commands if c.name is not None and normalize_name(c.name) == wanted]
    if len(named) != 1 or named[0].keyword not in LEMMA_KEYWORDS:
        return None
    command = named[0]
    assign = top_level_assign(command.tokens, last=False)
    if assign is None or assign <= command.head + 1:
        return None
    statement = tuple(t.text for t in command.tokens[command.head + 2 : assign])
    return command, assign, statement
