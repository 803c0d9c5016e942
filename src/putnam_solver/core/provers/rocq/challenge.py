"""The Rocq challenge for each track, what the model is shown, the answers, and the trusted reference module.

PutnamBench Coq files define ``putnam_X_solution`` with the official answer inline. The two tracks:

``with-answer``
    The challenge is the pinned statement, byte for byte: the answer is given and may not change.

``no-answer``
    The body of the solution definition (everything after its top-level ``:=``) becomes the hole ``_``:
    ``Definition putnam_X_solution (n : nat) : nat := _.`` The candidate replaces ``_`` with its answer
    (a term; ``Definition ... : T. Proof. ... Defined.`` is not the accepted form); the name, binders and
    type stay as written. Coq cannot infer the hole, so an unfilled challenge does not compile. The
    model statement is this challenge, so the official answer is never shown; ``answers`` records the
    candidate's answer beside the official one. Problems without a solution definition are the same
    on both tracks.

The reference module (compiled by the harness for G5 and G6, never shown to the model) is the pinned
statement inside ``Section __PutnamReference`` (its leading ``Require`` sentences before it) with
``Proof using All. Admitted.``: closing the section turns the statement's top-level ``Variable``s and
the solution (declared as a ``Variable`` whose type is the official solution's; the official definition
is kept as ``__putnam_official_solution``, abstracted over every earlier assumption) into explicit
arguments of the theorem, in declaration order. The trusted check file instantiates those arguments
with the candidate's own declarations, so the statement is elaborated once, by the harness, from the
pinned text, before anything of the candidate is loaded.
"""

from __future__ import annotations

from typing import Any

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.provers.rocq.syntax import (
    GLOBAL_ASSUMPTIONS,
    ROLLED_BACK,
    LexError,
    Sentence,
    Statement,
    parse_statement,
    sentences,
    solution_body_start,
)
from putnam_solver.core.verify import Track

HOLE = "_"
REFERENCE_SECTION = "__PutnamReference"
OFFICIAL_SOLUTION = "__putnam_official_solution"
LOADS = frozenset({"Require", "From"})
"""Commands that load libraries, hoisted out of the reference's section (``_leading_loads``)."""


def statement_of(problem: Problem) -> Statement:
    """The parsed pinned statement (raises StatementError if it lacks the expected shape)."""
    return parse_statement(problem.formal_statement, problem.id, problem.format)


def challenge_text(statement: Statement, track: Track) -> str:
    """The exact file a candidate must complete on ``track``."""
    if track is Track.WITH_ANSWER or statement.solution is None:
        return statement.text
    start, end = _body_span(statement)
    return statement.text[:start] + HOLE + statement.text[end:]


def _body_span(statement: Statement) -> tuple[int, int]:
    """Character offsets of the official solution's body (from its first token to the final period)."""
    assert statement.solution is not None
    sentence = statement.sentences[statement.solution]
    first = sentence.tokens[solution_body_start(sentence)]
    return first.start, sentence.tokens[-1].start


def official_answer(statement: Statement) -> str | None:
    if statement.solution is None:
        return None
    start, end = _body_span(statement)
    return statement.text[start:end].strip()


def candidate_answer(statement: Statement, candidate: str) -> str | None:
    """The body the candidate gave its solution definition, or None if it has no such definition."""
    name = statement.solution_name
    try:
        sents = sentences(candidate)
    except LexError:
        return None
    for sentence in sents:
        if defines_solution(sentence, name) and sentence.ended:
            try:
                first = sentence.tokens[solution_body_start(sentence)]
            except ValueError:
                return None
            return candidate[first.start : sentence.tokens[-1].start].strip()
    return None


def defines_solution(sentence: Sentence, name: str | None) -> bool:
    """Whether ``sentence`` is a definition of the solution ``name`` that stays (``Fail Definition ...``
    in a proof also names it, but declares nothing: it is never taken for the candidate's answer)."""
    if sentence.command != "Definition" or sentence.declared_name != name:
        return False
    return not any(t.text in ROLLED_BACK for t in sentence.tokens[: sentence.command_index()])


def answers(statement: Statement, candidate: str, track: Track) -> dict[str, Any]:
    """On the no-answer track: the candidate's answer beside the official one, keyed by the solution's
    name as Lean's are (``{name: {"candidate": ..., "official": ...}}``); empty otherwise."""
    if track is not Track.NO_ANSWER or statement.solution is None or not statement.solution_name:
        return {}
    return {
        statement.solution_name: {
            "candidate": candidate_answer(statement, candidate),
            "official": official_answer(statement),
        }
    }


def instantiation(statement: Statement) -> list[str]:
    """The names the reference theorem is abstracted over, in order: assumptions and the solution."""
    names = list(statement.assumptions)
    if statement.solution is not None and statement.solution_name:
        names.append((statement.solution, statement.solution_name))
    return [name for _, name in sorted(names, key=lambda pair: pair[0])]


def solution_arguments(statement: Statement) -> list[str]:
    """The assumptions declared before the solution: the official copy is abstracted over exactly these."""
    end = statement.solution if statement.solution is not None else 0
    return [name for index, name in statement.assumptions if index < end]


def _official_copy(statement: Statement) -> str:
    """The official solution renamed, its body prefixed by ``let`` of every earlier assumption so that
    closing the section abstracts it over exactly ``solution_arguments`` (not only those it uses)."""
    assert statement.solution is not None
    sentence = statement.sentences[statement.solution]
    text = statement.text
    name = sentence.tokens[sentence.command_index() + 1]
    body_start, _ = _body_span(statement)
    used = solution_arguments(statement)
    prefix = f"let __putnam_vars := ({', '.join(used)}) in " if used else ""
    return (
        text[sentence.start : name.start]
        + OFFICIAL_SOLUTION
        + text[name.start + len(name.text) : body_start]
        + prefix
        + text[body_start : sentence.end]
    )


def _as_variable(statement: Statement, index: int) -> str:
    """An assumption sentence as the reference declares it: a statement's own ``Parameter``/``Axiom``
    (``syntax.GLOBAL_ASSUMPTIONS``) becomes a ``Variable`` (its locality prefix dropped), so that closing
    the section abstracts the theorem over it, like over the statement's ``Variable``s; in a section an
    ``Axiom`` stays a global constant of the reference, which the candidate's own could never match."""
    sentence = statement.sentences[index]
    command = sentence.tokens[sentence.command_index()]
    variable = GLOBAL_ASSUMPTIONS.get(command.text)
    if variable is None:
        return statement.text[sentence.start : sentence.end]
    return variable + statement.text[command.start + len(command.text) : sentence.end]


def reference_source(statement: Statement) -> str:
    """The harness's reference module for G5/G6, built from the pinned statement only."""
    text = statement.text
    assumed = {index for index, _ in statement.assumptions}
    loads = _leading_loads(statement)
    parts = [text[s.start : s.end] for s in statement.sentences[:loads]] + [f"Section {REFERENCE_SECTION}."]
    for index, sentence in enumerate(statement.sentences[loads:], start=loads):
        if index == statement.solution:
            parts.append(_official_copy(statement))
            parts.append(
                f"Variable {statement.solution_name} : ltac:(let t := type of (@{OFFICIAL_SOLUTION}) in exact t)."
            )
        elif index in assumed:
            parts.append(_as_variable(statement, index))
        elif index == statement.theorem + 1:
            parts.append("Proof using All." + ("\nAdmitted." if statement.open_proof else ""))
        else:
            parts.append(text[sentence.start : sentence.end])
    parts.append(f"End {REFERENCE_SECTION}.")
    return "\n".join(parts) + "\n"


def _leading_loads(statement: Statement) -> int:
    """How many of the statement's first sentences load libraries (``Require``, ``From ... Require``).

    They go before the reference's section: what they load and import is the same there for every
    sentence after them, and a ``Require`` inside a section costs coqc about a quarter of a second more."""
    count = 0
    for sentence in statement.sentences:
        if sentence.command not in LOADS or sentence.command_at != 0:
            break
        count += 1
    return count
