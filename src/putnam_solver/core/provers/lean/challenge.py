"""Derive the challenge (the file a candidate must complete) from a pinned Lean statement, per track.

``with-answer`` has two forms (:class:`AnswerForm`). The leaderboard's, ``inlined``, is PutnamBench's own
with-answer text, made by its ``lean4/scripts/rewrite_solutions.py``: :func:`rewrite_solutions` derives it
byte for byte as that script would (quirks included), so that what the model sees, what G2 compares and
what G6/G7 check is the text every published with-answer proof was written against. The older ``abbrev``
form keeps the ``*_solution`` declaration with the official answer as its value; a candidate that keeps
the declaration is judged against it (:func:`answer_form` decides from the candidate's text).
``no-answer``: the ``sorry`` stays, the candidate fills it, and the answer comment is removed (it must not
leak the answer). What the model sees is the challenge itself.

Edits of the ``abbrev`` and no-answer forms are made on the text at token positions, so everything else
(docstrings, notes, layout) is kept byte for byte. Derived texts are cached per statement, track and form:
every verification of a problem reuses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache

from putnam_solver.core.provers.lean.syntax import (
    Command,
    LexError,
    Solution,
    Statement,
    StatementError,
    balanced,
    code_tokens,
    commands_of,
    lex,
    normalize_name,
    parse_statement,
    top_level_assign,
)
from putnam_solver.core.verify import Track


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
        if "noncomputable" not in (t.text for t in solution.command.prefix):
            keyword = solution.command.tokens[solution.command.head]
            edits.append((keyword.offset, keyword.offset, "noncomputable "))
    if solution.answer_comment is not None:
        start, end = _line_span(text, solution.answer_comment.offset, solution.answer_comment.end)
        edits.append((start, end, ""))
    return edits


class AnswerForm(StrEnum):
    """How a with-answer challenge carries the official answer (no-answer challenges have one form)."""

    INLINED = "inlined"
    """PutnamBench's with-answer text: the answer written into the theorem, the ``abbrev`` gone."""
    ABBREV = "abbrev"
    """The ``*_solution`` declaration kept, with the official answer as its value, marked
    ``noncomputable`` (some pinned answers use ``Real.exp`` without it and would not compile; the marker
    only turns off code generation, so it cannot change what the statement means)."""


def rewrite_solutions(statement: str) -> str:
    """PutnamBench's ``lean4/scripts/rewrite_solutions.py`` (at the pinned commit) applied to one file.

    Its rules, kept exactly because published with-answer proofs were written against its output: a line
    is a solution line when ``abbrev`` occurs in it *anywhere* (substring test); the solution's name is the
    word after the space-separated word ``abbrev``; its type is the text between the line's first and
    second ``:``, stripped; its answer is the text after the first ``--`` of the *next* line, stripped.
    Then, line by line, every line that contains the name as a substring and not ``abbrev`` gets each
    occurrence replaced by ``((<answer>) : <type>)``, where the answer's outer parentheses are first
    dropped when it starts with ``(`` and ends with ``)``; that stripping is stored back, so it happens
    again on every later line that uses the name. Lines containing ``abbrev`` are dropped; everything else
    (the ``-- answer`` line included) is kept. The script reads in text mode, so ``\r\n`` and ``\r``
    become ``\n``. Where the script would crash this raises StatementError.
    """
    lines = _script_lines(statement)
    answers: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        if "abbrev" in line:
            name, answer, type_ = _script_solution(lines, i)
            answers[name] = [answer, type_]
    out: list[str] = []
    for line in lines:
        for name, entry in answers.items():
            if name in line and "abbrev" not in line:
                if not entry[0]:
                    raise StatementError(f"{name}: empty official answer")
                if entry[0][0] == "(" and entry[0][-1] == ")":
                    entry[0] = entry[0][1:-1]
                line = line.replace(name, f"(({entry[0]}) : {entry[1]})")
        if "abbrev" not in line:
            out.append(line)
    return "".join(out)


def _script_lines(text: str) -> list[str]:
    """Python's ``readlines()`` of the file in text mode: universal newlines, each line with its ``\n``."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    return [line + "\n" for line in normalized.split("\n")[:-1]] + (
        [normalized.rsplit("\n", 1)[-1]] if not normalized.endswith("\n") else []
    )


def _script_solution(lines: list[str], i: int) -> tuple[str, str, str]:
    """The script's reading of the solution line ``lines[i]``: (name, answer, type)."""
    words = lines[i].split(" ")
    names = [words[j + 1].strip() for j, word in enumerate(words[:-1]) if word == "abbrev"]
    readable = names and words[-1] != "abbrev" and ":" in lines[i]
    if not readable or i + 1 >= len(lines) or "--" not in lines[i + 1]:
        raise StatementError(f"line {i + 1}: `abbrev` line the answer script cannot read")
    answer = lines[i + 1].split("--")[1].strip().replace("\n", "")
    return names[-1], answer, lines[i].split(":")[1].strip()


def challenge(statement: str, track: Track, form: AnswerForm | None = None) -> str:
    """The challenge text for ``track`` and, on with-answer, ``form`` (default: the problem's first
    form, see :func:`answer_forms`). Cached: derived once per statement, track and form. Raises
    StatementError/LexError for a malformed statement."""
    if track is not Track.WITH_ANSWER:
        return _challenge(statement, track, AnswerForm.ABBREV)
    return _challenge(statement, track, form or answer_forms(statement)[0])


@lru_cache(maxsize=1024)
def answer_forms(statement: str) -> tuple[AnswerForm, ...]:
    """The with-answer forms a problem has: ``inlined`` first where the script's text is a Lean file
    (its type rule cuts a type containing ``:``, leaving unbalanced brackets in 3 of the 346 pinned
    problems: 2016_b5, 2022_b6, 2025_a5), then ``abbrev``. A problem without solutions has one text."""
    if not parse_statement(statement).solutions:
        return (AnswerForm.INLINED,)
    try:
        inlined = rewrite_solutions(statement)
        usable = balanced(code_tokens(lex(inlined))) and bool(parse_statement(inlined).theorem.name)
    except (StatementError, LexError):
        usable = False
    return (AnswerForm.INLINED, AnswerForm.ABBREV) if usable else (AnswerForm.ABBREV,)


@lru_cache(maxsize=4096)
def _challenge(statement: str, track: Track, form: AnswerForm) -> str:
    parsed = parse_statement(statement)
    if track is Track.WITH_ANSWER and form is AnswerForm.INLINED and parsed.solutions:
        return rewrite_solutions(statement)
    edits = [e for s in parsed.solutions for e in _solution_edits(statement, s, track)]
    result = statement
    for start, end, replacement in sorted(edits, reverse=True):
        result = result[:start] + replacement + result[end:]
    return result


def answer_form(statement: Statement, candidate_commands: Sequence[Command]) -> AnswerForm:
    """The with-answer form a candidate uses: ``abbrev`` when it declares a solution of the statement at
    top level (it then must be the official one), else ``inlined``. ``candidate_commands``: the
    candidate's commands (:func:`commands_of`, which G2 shares, so the file is split once)."""
    wanted = {normalize_name(s.command.name) for s in statement.solutions if s.command.name is not None}
    declared = {normalize_name(c.name) for c in candidate_commands if c.name is not None}
    if wanted & declared or AnswerForm.INLINED not in answer_forms(statement.text):
        return AnswerForm.ABBREV
    return AnswerForm.INLINED


def model_statement(statement: str, track: Track) -> str:
    """What the model is shown: the challenge, which already carries no answer comment on either track."""
    return challenge(statement, track)


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
    for command in commands_of(candidate):  # the split the gates make of the same text (cached)
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
