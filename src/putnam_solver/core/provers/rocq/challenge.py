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
statement inside ``Section __PutnamReference`` (its leading ``Require`` and ``Module ... :=`` sentences
before it) with
``Proof using All. Admitted.``: closing the section turns the statement's top-level ``Variable``s and
the solution (declared as a ``Variable`` whose type is the official solution's; the official definition
is kept as ``__putnam_official_solution``, abstracted over every earlier assumption) into explicit
arguments of the theorem, in declaration order. The trusted check file instantiates those arguments
with the candidate's own declarations, so the statement is elaborated once, by the harness, from the
pinned text, before anything of the candidate is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from putnam_solver.core.benchmark import Problem
from putnam_solver.core.provers.rocq.statement_shape import Statement, parse_statement, solution_body_start
from putnam_solver.core.provers.rocq.syntax import GLOBAL_ASSUMPTIONS, ROLLED_BACK, LexError, Sentence, sentences
from putnam_solver.core.verify import Track

HOLE = "_"
REFERENCE_SECTION = "__PutnamReference"
OFFICIAL_SOLUTION = "__putnam_official_solution"
SIGNATURE = "__PutnamSignature_"
REFERENCE_FUNCTOR = "__PutnamReferenceF"
REFERENCE_INSTANCE = "__PutnamReferenceInstance"
BINDERS = "__putnam_binders_"
"""``BINDERS{i}``: the reference's constant abstracted over the theorem's first ``i + 1`` arguments (``binders``)."""
LOADS = frozenset({"Require", "From"})
"""Commands that load libraries, hoisted out of the reference's section (``_hoisted``)."""


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


def binders(names: list[str]) -> list[str]:
    """One constant per argument of the reference theorem, abstracted (when the section closes) over that
    argument and every earlier one, the same binders as the theorem's, with the value ``tt`` of type
    ``unit``. G5 compares the candidate's declarations with these binders, not with the theorem's: any
    comparison whose type holds the statement lets the kernel reduce it, and a statement that computes
    (``putnam_2007_b3``'s ``fix`` applied to 2007) then exhausts memory (``statement._same_types``)."""
    return [
        f"Definition {BINDERS}{index} : unit := {''.join(f'let _ := {n} in ' for n in names[: index + 1])}tt."
        for index in range(len(names))
    ]


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
    loads = _hoisted(statement)
    modules = dict(statement_modules(statement))
    parts = [
        modules[i].signature if i in modules else text[s.start : s.end]
        for i, s in enumerate(statement.sentences[:loads])
    ]
    if modules:
        parameters = " ".join(f"({m.name} : {SIGNATURE}{m.name})" for m in modules.values())
        parts += [f"Module {REFERENCE_FUNCTOR} {parameters}."] + [
            f"Import {m.name}." for m in modules.values() if m.imported
        ]
    parts.append(f"Section {REFERENCE_SECTION}.")
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
    parts += binders(instantiation(statement))
    parts.append(f"End {REFERENCE_SECTION}.")
    if modules:
        parts.append(f"End {REFERENCE_FUNCTOR}.")
    return "\n".join(parts) + "\n"


@dataclass(frozen=True)
class ModuleDefinition:
    """A module the statement defines in one sentence, ``Module [Import] NS := expr.``."""

    name: str
    expression: str
    imported: bool

    @property
    def signature(self) -> str:
        """A module type holding the expression's fields with their bodies (``Include`` keeps them): a
        module matches it only if each of its definitions is convertible to the expression's and each of
        its inductive types has the same shape, which the kernel decides when the functor is applied."""
        return f"Module Type {SIGNATURE}{self.name}. Include {self.expression}. End {SIGNATURE}{self.name}."


def statement_modules(statement: Statement) -> list[tuple[int, ModuleDefinition]]:
    """The modules the statement defines before its section (``_hoisted``), with their sentence index.

    Two files that each apply a functor get two distinct modules (their inductive types differ), so the
    candidate's ``Candidate.NS.t`` can never be the reference's ``Reference.NS.t``. The reference is
    therefore a functor over each such module, its parameter typed by the module's own fields, and the
    trusted file applies it to the candidate's module (``reference_instance``)."""
    found = []
    for index, sentence in enumerate(statement.sentences[: _hoisted(statement)]):
        if sentence.command == "Module":
            words = sentence.words[sentence.command_at + 1 :]
            imported = words[0] in ("Import", "Export")
            name = words[1] if imported else words[0]
            body = sentence.tokens[sentence.words.index(":=") + 1]
            expression = statement.text[body.start : sentence.tokens[-1].start].strip()
            found.append((index, ModuleDefinition(name, expression, imported)))
    return found


def reference_instance(statement: Statement, reference: str, candidate: str) -> tuple[list[str], str]:
    """The sentences a trusted file adds after its ``Require``s, and the path by which it names the
    reference's constants: the reference module itself, or its functor applied to the candidate's
    modules (``statement_modules``)."""
    modules = [m for _, m in statement_modules(statement)]
    if not modules:
        return [], reference
    arguments = " ".join(f"{candidate}.{m.name}" for m in modules)
    return [f"Module {REFERENCE_INSTANCE} := {reference}.{REFERENCE_FUNCTOR} {arguments}."], REFERENCE_INSTANCE


def _hoisted(statement: Statement) -> int:
    """How many of the statement's first sentences go before the reference's section: those that load
    libraries (``Require``, ``From ... Require``) and one-sentence module definitions
    (``Module NS := FSetWeakList.Make(Nat_as_OT).``, miniF2F's ``amc12a_2003_p23``).

    Coq allows no module inside a section, and sentences before the first assumption read the same
    outside it: closing a section abstracts only what was declared in it. Loads go there too because a
    ``Require`` inside a section costs coqc about a quarter of a second more."""
    count = 0
    for sentence in statement.sentences:
        if sentence.command_at != 0 or not (sentence.command in LOADS or _defines_module(sentence)):
            break
        count += 1
    return count


def _defines_module(sentence: Sentence) -> bool:
    """``Module [Import|Export] M := expr.``: a module defined by one sentence, with neither binders nor a
    module type (an interactive ``Module M.`` opens a block and is not one)."""
    if sentence.command != "Module":
        return False
    words = sentence.words[sentence.command_at + 1 :]
    if words[:1] in (("Import",), ("Export",)):
        words = words[1:]
    return len(words) > 2 and words[1] == ":="
