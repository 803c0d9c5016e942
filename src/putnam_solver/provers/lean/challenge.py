"""Derive the challenge (the file a candidate must complete) from a pinned Lean statement, per track.

``with-answer``: every ``*_solution`` declaration gets the official answer from the ``-- <answer>`` line that
follows it in the PutnamBench file; the candidate may not change it. ``no-answer``: the ``sorry`` stays, the
candidate fills it. On both tracks the answer comment is removed: the challenge is hashed, shown and
compiled, and on no-answer it must not leak the answer. What the model sees is the challenge itself.

Edits are made on the text at token positions, so everything else (docstrings, notes, layout) is kept byte
for byte.
"""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.provers.lean.syntax import (
    Command,
    Solution,
    Statement,
    StatementError,
    code_tokens,
    lex,
    parse_statement,
    split_commands,
    top_level_assign,
)
from putnam_solver.verify import Track


def _line_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Widen a comment's span to its whole line (with the newline) when nothing else is on that line."""
    line_start = text.rfind("\n", 0, start) + 1
    if text[line_start:start].strip():
        return start, end
    return line_start, end + 1 if text.startswith("\n", end) else end


def _solution_edits(text: str, solution: Solution, track: Track) -> list[tuple[int, int, str]]:
    name = solution.command.name
    if solution.value.text != "sorry":
        raise StatementError(f"{name}: the solution's value is not `sorry`")
    edits: list[tuple[int, int, str]] = []
    if track is Track.WITH_ANSWER:
        if solution.answer is None:
            raise StatementError(f"{name}: no official answer comment after the declaration")
        edits.append((solution.value.offset, solution.value.end, solution.answer))
    if solution.answer_comment is not None:
        start, end = _line_span(text, solution.answer_comment.offset, solution.answer_comment.end)
        edits.append((start, end, ""))
    return edits


def challenge(statement: str, track: Track) -> str:
    """The challenge text for ``track``. Raises StatementError/LexError for a malformed statement."""
    parsed = parse_statement(statement)
    edits = [e for s in parsed.solutions for e in _solution_edits(statement, s, track)]
    result = statement
    for start, end, replacement in sorted(edits, reverse=True):
        result = result[:start] + replacement + result[end:]
    return result


def model_statement(statement: str, track: Track) -> str:
    """What the model is shown: the challenge, which already carries no answer comment on either track."""
    return challenge(statement, track)


def official_answers(statement: str) -> dict[str, str]:
    """Solution name -> official answer expression, from the statement's answer comments."""
    return {
        s.command.name: s.answer
        for s in parse_statement(statement).solutions
        if s.command.name is not None and s.answer is not None
    }


@dataclass(frozen=True)
class FilledValue:
    """The value a candidate gave a no-answer solution hole: its source text and where it starts."""

    name: str
    text: str
    line: int


def solution_values(statement: Statement, candidate: str) -> dict[str, FilledValue]:
    """The candidate's value for each ``*_solution`` of ``statement``, by name; solutions the candidate
    does not declare (or declares without ``:=``) are left out. Raises LexError on unlexable text."""
    wanted = {s.command.name for s in statement.solutions}
    found: dict[str, FilledValue] = {}
    for command in split_commands(code_tokens(lex(candidate))):
        name = command.name
        if name is not None and name in wanted and name not in found:
            value = _value(command, candidate)
            if value is not None:
                found[name] = value
    return found


def _value(command: Command, text: str) -> FilledValue | None:
    assert command.name is not None
    assign = top_level_assign(command.tokens[command.head :], last=False)
    if assign is None or command.head + assign + 1 >= len(command.tokens):
        return None
    first = command.tokens[command.head + assign + 1]
    last = command.tokens[-1]
    return FilledValue(command.name, text[first.offset : last.end].strip(), first.line)
