"""No-answer: the candidate's answer must elaborate in the challenge's environment alone (a G4 check).

G2 refuses an answer that names a helper the candidate declares, as text. But Coq also declares constants
the text never names: ``abstract`` in a helper's proof adds ``<helper>_subproof`` (opaque), ``Program``
its obligations. An answer naming one (``proj1_sig zz_witness_subproof``) hides the answer behind an
opaque constant of the candidate's own: the verdict's answer record shows nothing, and no answer check can
ever compare it with the official one, so a wrong answer would never be ``disputed``.

So the rule is decided by coqc, by meaning: the harness compiles the candidate's text up to and including
its solution definition with every sentence dropped except the challenge's own header sentences and the
candidate's reading commands (``Require``/``Import``/``Export``, ``Open``/``Close Scope``: the environment
the answer may use, G2's class 2). If the answer does not elaborate there, it uses something the candidate
defined, however it was named.

Elaborating there is not enough: the same words can name something else in the candidate's file. A
constant the candidate makes Coq declare under a library's name (``transparent_abstract (exact 6) using
Z0`` declares ``Candidate.Z0 := 6``) shadows the library's there, so the answer ``Z0`` elaborates in the
environment (as ``0``) and in the candidate (as its own ``6``). So the same harness file, once the answer
is elaborated, ``Require``s the compiled candidate (never ``Import``: loading it after the answer, so it
cannot change how the answer reads) and prints its solution's kernel term raw (``Set Printing All``):
every constant of the candidate's module it names must be one the pinned statement declares before the
solution (its header definitions and assumptions), never one of the candidate's own.

Nor may the answer pick "some value with the property" by choice (``epsilon``, ``constructive_indefinite_description``,
mathcomp's ``xchoose`` or ``get``, ``ex_minn``: ``policy.answer_choice_operators``) instead of stating it, as
Lean's G2 refuses ``Classical.choose``, nor, unless it is a set or predicate, take a branch by deciding any
proposition classically (``policy.answer_decision_operators``: ``excluded_middle_informative``,
``pselect``, ``asbool``, ``LPO``): a search testing the question's own property so is ``ex_minn`` written
out. The same print decides, by meaning: before it, a module of the
harness's own declares a constant under each operator's bare name and is imported, so that in the print a
library operator always shows qualified (``Epsilon.epsilon``: the shortest name that still reaches it) and
a bound variable never does; a qualified name that ends a listed operator's full name is refused, however
the answer wrote it (a notation, a ``let``, an alias).

A yes/no answer (a solution of type ``Prop``, no arguments: ``putnam_1996_a3``'s ``... <-> solution``) must
be a truth value: the question restated as the answer (``Definition putnam_1996_a3_solution : Prop :=
forall choices ..., exists ...``) makes the theorem ``P <-> P``. Every official one is ``True`` or
``False``; the same file asks Coq to prove the answer equivalent to ``True`` or to ``False`` by itself
(``tauto``, ``easy``: ``~ False`` or ``0 = 1`` pass), and refuses it when neither is proved. It asks this
before the candidate is loaded, of the answer as elaborated there: ``tauto`` and ``easy`` are Ltac, and a
candidate's ``Ltac tauto ::= exact_no_check I.`` (even inside a helper's proof) replaces them in every file
that merely ``Require``s it, so the restated question was "decided" again. Once the candidate is loaded,
its compiled solution must be convertible with that answer (``exact (@Coq.Init.Logic.eq_refl Prop _)``:
no Ltac involved; mathcomp's ``eq_refl`` is another lemma).
"""

from __future__ import annotations

import re
from collections import Counter

from putnam_solver.core.provers.rocq.answer_opaque import OPAQUE_STEPS
from putnam_solver.core.provers.rocq.answer_reals import SHADOWED
from putnam_solver.core.provers.rocq.build import CANDIDATE, ROOT
from putnam_solver.core.provers.rocq.challenge import defines_solution, solution_arguments
from putnam_solver.core.provers.rocq.decision_names import CLASSICAL_DECISIONS, REFLECTIONS, locate_sentences
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.provers.rocq.print_words import BRACKETS, one_group
from putnam_solver.core.provers.rocq.recursion import CANDIDATE_NAME, PRINTING
from putnam_solver.core.provers.rocq.restated import (
    ANSWER_ENV,
    NOT_RESTATED,
    RESTATED,
    RESTATING,
    STATED,
    STATING,
    restating_tactic,
    statement_sentences,
)
from putnam_solver.core.provers.rocq.scan import reads
from putnam_solver.core.provers.rocq.statement_shape import Statement, solution_body_start
from putnam_solver.core.provers.rocq.syntax import LexError, sentences

ONE_LINE = "Set Printing Width 1000000."
"""The answer's print keeps a deep term on one line (its readers are patterns over the text): at width
1000 each nested box is indented further, and ``putnam_2018_a1``'s official answer (``a = 673%nat /\\
...``, unary under ``Printing All``) printed 3.6 MB, over the output cap, so the honest answer was an
``error``; 17 KB at this width."""
SHADOW = "__PutnamChoiceNames"
"""The harness's module whose constants take the choice operators' bare names before the print."""
QUALIFIED = re.compile(r"(?<![\w'.])[^\W\d][\w']*(?:\.[^\W\d][\w']*)+")
"""A qualified name (at least one dot) in Coq's print: never a bound variable."""


def answer_env_source(statement: Statement, candidate: str) -> str | None:
    """The candidate up to its solution, with its own declarations dropped (see the module docstring);
    None where there is nothing to check (no solution hole, or no solution definition G2 would accept)."""
    if statement.solution is None or statement.solution_name is None:
        return None
    try:
        sents = sentences(candidate)
    except LexError:
        return None
    header = Counter(s.key for s in statement.sentences[: statement.solution])
    kept: list[str] = []
    for sentence in sents:
        if defines_solution(sentence, statement.solution_name):
            if not sentence.ended:
                return None
            kept.append(candidate[sentence.start : sentence.end])
            return "\n".join(kept) + "\n"
        if header[sentence.key] > 0:
            header[sentence.key] -= 1
            kept.append(candidate[sentence.start : sentence.end])
        elif reads(sentence) or sentence.command in ("Section", "End"):
            # a section ends the scopes opened in it, as it does in the candidate's file
            kept.append(candidate[sentence.start : sentence.end])
    return None


def names_source(statement: Statement, marker: str) -> str:
    """The end of the environment file: the compiled candidate's solution printed raw, after ``marker``."""
    assert statement.solution_name is not None
    operators = (*POLICY.answer_choice_operators, *POLICY.answer_decision_operators, *POLICY.answer_limit_operators)
    operators = (*operators, *REFLECTIONS, *CLASSICAL_DECISIONS, *OPAQUE_STEPS)
    bare = sorted({name.rsplit(".", 1)[1] for name in operators} | SHADOWED)
    yes_no = yes_no_answer(statement)
    return (
        "\n".join(
            [
                *(_decide_sentences(statement, marker) if yes_no else []),
                *(_restated_sentences(statement, marker) if not yes_no else []),
                f"Require {ROOT}.{CANDIDATE}.",
                f"Module {SHADOW}.",
                *(f"Definition {name} := {TT}." for name in bare),
                f"End {SHADOW}.",
                f"Import {SHADOW}.",
                *PRINTING,
                ONE_LINE,
                *locate_sentences(marker),
                f'Goal {TRUE}. idtac "{marker}". Abort.',
                f"Print {ROOT}.{CANDIDATE}.{statement.solution_name}.",
                f'Goal {TRUE}. idtac "{marker}{ENV_PRINT}". Abort.',
                f"Print {ROOT}.{ANSWER_ENV}.{statement.solution_name}.",
                *(_same_sentences(statement, marker) if yes_no else []),
            ]
        )
        + "\n"
    )


TRUE, FALSE, PROOF_OF_TRUE, EQ, TT, PROD, FST, SND = (
    "Coq.Init.Logic.True",
    "Coq.Init.Logic.False",
    "Coq.Init.Logic.I",
    "Coq.Init.Logic.eq",
    "Coq.Init.Datatypes.tt",
    "Coq.Init.Datatypes.prod",
    "Coq.Init.Datatypes.fst",
    "Coq.Init.Datatypes.snd",
)
"""Every global the harness's sentences name after the candidate's answer, by its full name. Elaborating
the answer can declare constants under any name (``ltac:(... transparent_abstract (exact Q) using True
...)`` declares ``AnswerEnv.True := Q``), and a short name written after it would mean that constant: the
question restated as its answer was "decided" equivalent to ``True``. No candidate can declare a module
path, so a full name always means the library's constant. (Notations such as ``<->`` and tactics such as
``tauto`` name their constants by kernel name, and a constant never shadows a tactic.)"""
DECIDED, UNDECIDED = "-decided", "-undecided"
"""What the environment file prints after its marker once it tried to decide a yes/no answer."""
SAME, DIFFERENT = "-same", "-different"
"""What it prints once it compared the compiled solution with the answer it decided."""
DECIDING, COMPARING = "-deciding", "-comparing"
"""What it prints as each of those two steps starts (``_timed``)."""
STEP_SECONDS = 20
"""Each step's time, after which the file stops with an error (read as ``unfinished``, an ``error``)."""


TRUTH_WORDS = frozenset({"True", "False"})
"""What an official yes/no answer is written with when its definition gives no type (``Definition
putnam_2012_b4_solution := True.``, ``:= (True, -1, True, 0)``): Coq infers ``Prop`` (or a product with
``Prop`` factors) from it."""
FUNCTION_WORDS = frozenset({"->", "forall", "fun"})


def yes_no_answer(statement: Statement) -> bool:
    """Whether the pinned solution is, or holds as a factor of a product, a yes/no answer: a solution without
    arguments whose type is ``Prop`` or names ``Prop`` outside any function type (``Prop * Prop``), or,
    when the definition gives no type, whose official body is written with ``True``/``False`` (Coq infers
    the type from it). Which factors are ``Prop`` is then decided by Coq, from the answer's type
    (``_decide_sentences``); a predicate (``R -> Prop``) is not a truth value and is not decided."""
    if statement.solution is None:
        return False
    sentence = statement.sentences[statement.solution]
    at = sentence.command_index() + 2
    words = [t.text for t in sentence.tokens[at : solution_body_start(sentence)]]
    if words == [":="]:
        body = sentence.tokens[solution_body_start(sentence) : -1]
        return any(t.text in TRUTH_WORDS for t in body)
    if words[:1] != [":"]:
        return False  # binders: a function of its arguments
    return "Prop" in words and not FUNCTION_WORDS & set(words)


TRUTH_TACTIC = "__putnam_truth"
"""The environment file's Ltac that decides every ``Prop`` factor of the answer (defined there, before the
candidate is loaded, so no candidate tactic can stand in for it)."""


def _decide_sentences(statement: Statement, marker: str) -> list[str]:
    """A goal proving the answer, as elaborated in the environment (the file's own solution, before the
    candidate is loaded), equivalent to True or to False, printing which way it went. Which parts are
    yes/no answers is read from the answer's type by Coq: the answer itself when its type is ``Prop``, and
    each ``Prop`` factor of a pair (``fst``/``snd``, recursively: ``(True, -1, True, 0)``); each must be
    decided."""
    sol = f"{ROOT}.{ANSWER_ENV}.{statement.solution_name}"
    true = f"left; split; intro; first [ exact {PROOF_OF_TRUE} | easy | tauto ]"
    false = "right; split; intro; first [ contradiction | easy | tauto ]"
    decide = (
        f"assert ((t <-> {TRUE}) \\/ (t <-> {FALSE})) by (unfold {sol}; cbn [{FST} {SND}]; first [ {true} | {false} ])"
    )
    truth = [
        f"Ltac {TRUTH_TACTIC} t := let T := type of t in let T := eval hnf in T in lazymatch T with",
        f"  | Prop => {decide}",
        f"  | {PROD} _ _ => {TRUTH_TACTIC} ({FST} t); {TRUTH_TACTIC} ({SND} t)",
        "  | _ => idtac",
        "  end.",
    ]
    props = "".join(f"{PROP_TACTIC} ({path}); " for path in truth_paths(statement, sol))
    check = [
        f"Ltac {PROP_TACTIC} t := let T := type of t in let T := eval hnf in T in lazymatch T with Prop => idtac end."
    ]
    outcome = f'idtac "{marker}{DECIDED}" | idtac "{marker}{UNDECIDED}"'
    return truth + check + _timed(marker, DECIDING, f"first [ {props}{TRUTH_TACTIC} {sol}; {outcome} ]")


PROP_TACTIC = "__putnam_prop"
"""The environment file's Ltac that fails unless its argument's type is ``Prop`` (red team 27)."""


def truth_paths(statement: Statement, sol: str) -> list[str]:
    """The parts of the answer ``sol`` that must be of type ``Prop``: each factor the official answer writes
    as ``True`` or ``False`` (``fst``/``snd`` paths into a tuple, ``(True, -1, True, 0)`` is ``(((True, -1),
    True), 0)``), or the answer itself when the official is no tuple (red team 27).

    ``__putnam_truth`` decides only the factors whose type is ``Prop``; a factor of another type was passed
    over unread, so where the official answer has no declared type (Coq infers ``Prop`` from ``False``) the
    question restated as a boolean (``asbool Q``, ``if excluded_middle_informative Q then true else false``:
    the theorem then reads ``Q <-> is_true (...)``) passed as a "decided" answer. The full profile refuses it
    at G5 (the reference's solution is a ``Prop``); this makes ``fast`` agree, by the answer's type as Coq
    elaborates it, whatever its spelling. A factor that is not a tuple component (``fst`` of a non-pair)
    does not typecheck, and the step prints ``undecided``: fail closed."""
    sentence = statement.sentences[statement.solution or 0]
    words = [t.text for t in sentence.tokens[solution_body_start(sentence) : -1]]
    while len(words) >= 2 and words[0] == "(" and words[-1] == ")" and one_group(words):
        words = words[1:-1]
    parts: list[list[str]] = [[]]
    depth = 0
    for word in words:
        depth += BRACKETS.get(word, 0)
        if word == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(word)
    if len(parts) == 1:
        return [sol]
    n = len(parts)
    paths = []
    for i, part in enumerate(parts):
        if [w for w in part if w not in "()"] not in (["True"], ["False"]):
            continue
        inner = sol
        for _ in range(n - 1 - max(i, 1)):
            inner = f"{FST} ({inner})"
        paths.append(f"{FST} ({inner})" if i == 0 else f"{SND} ({inner})")
    return paths


def _restated_sentences(statement: Statement, marker: str) -> list[str]:
    """The pinned theorem stated with the answer as elaborated here, and the harness's attempt to prove it
    by logic alone (``restated``), before the candidate is loaded."""
    solution = f"{ROOT}.{ANSWER_ENV}.{statement.solution_name}"
    tactic = restating_tactic(statement, marker, solution)
    return [*statement_sentences(statement, marker), *_timed(marker, RESTATING, tactic)]


def _timed(marker: str, step: str, tactic: str) -> list[str]:
    """A goal running ``tactic`` (which prints its outcome) under a command-level ``Timeout``, after a line
    saying the step started. The tactic ``timeout`` fails like any tactic, so ``first`` caught it and an
    exhausted time read as a refusal; the command ``Timeout`` is not caught by ``first`` and stops the
    file, so a started step with no outcome is an exhausted resource (``unfinished``), never a refusal."""
    return [f"Goal {TRUE}.", f'idtac "{marker}{step}".', f"Timeout {STEP_SECONDS} {tactic}.", "Abort."]


def _same_sentences(statement: Statement, marker: str) -> list[str]:
    """A goal proving the compiled candidate's solution equal to the decided one by conversion alone."""
    mine, theirs = (f"{ROOT}.{module}.{statement.solution_name}" for module in (ANSWER_ENV, CANDIDATE))
    same = f"assert (@{EQ} _ {theirs} {mine}) by exact (@{EQ}_refl _ {mine})"
    return _timed(marker, COMPARING, f'first [ {same}; idtac "{marker}{SAME}" | idtac "{marker}{DIFFERENT}" ]')


def decided(output: str, marker: str) -> bool | None:
    """Whether the yes/no answer was proved a truth value, and is the candidate's compiled solution
    (None if the file never said)."""
    lines = output.splitlines()
    if f"{marker}{UNDECIDED}" in lines or f"{marker}{DIFFERENT}" in lines:
        return False
    if f"{marker}{DECIDED}" in lines and f"{marker}{SAME}" in lines:
        return True
    return None


def unfinished(output: str, marker: str) -> str | None:
    """The harness's step that started and never printed its outcome (its ``Timeout`` expired, coqc ran
    out of stack or memory there, or the pinned theorem did not elaborate with the answer), or None. Only
    the harness prints these random-marker lines, and nothing runs between a step's start and its outcome
    but the step itself."""
    lines = set(output.splitlines())
    steps = (
        (DECIDING, (DECIDED, UNDECIDED), "deciding the yes/no answer"),
        (COMPARING, (SAME, DIFFERENT), "comparing the yes/no answer with the compiled solution"),
        (STATING, (STATED,), "stating the pinned theorem with the answer"),
        (RESTATING, (RESTATED, NOT_RESTATED), "checking whether the answer restates the question"),
    )
    for start, outcomes, name in steps:
        if f"{marker}{start}" in lines and not any(f"{marker}{o}" in lines for o in outcomes):
            return name
    return None


ENV_PRINT = "-environment"
"""What the environment file prints before it prints its own elaboration of the answer."""
_OWN_PREFIX = re.compile(rf"(?<![\w'.]){CANDIDATE}\.")


def same_answer(output: str, marker: str) -> bool | None:
    """Whether the compiled solution, printed raw, is this file's own elaboration of the answer's text,
    printed the same way, the candidate's module prefix aside (None if either print is missing).

    Every check of this file is about its own elaboration of the text, and only this comparison ties it to
    the solution the candidate proved the theorem with; the same text reads otherwise where the candidate's
    file differs from this one: a scope opened in a section of the candidate's (which this file once kept
    open) or a hint steering an ``ltac:`` answer read ``putnam_2022_a1``'s copied question as another
    proposition here, no restatement (red team 14). The terms are compared as printed, not by conversion:
    the statement's assumptions (``Variable R : realType``) are distinct axioms of each module."""
    lines = output.splitlines()
    start, env = marker, f"{marker}{ENV_PRINT}"
    if start not in lines or env not in lines or lines.index(env) < lines.index(start):
        return None
    ours = [_OWN_PREFIX.sub("", line) for line in lines[lines.index(start) + 1 : lines.index(env)]]
    theirs = lines[lines.index(env) + 1 :]
    body = _printed_definition(ours, marker)
    return None if body is None else body == _printed_definition(theirs, marker)


def _printed_definition(lines: list[str], marker: str) -> str | None:
    """A ``Print``'s ``name = body : type`` (its ``Arguments`` line and later output left out), its blanks
    collapsed: the printer's boxes lay the same term out otherwise under a longer name."""
    printed: list[str] = []
    for line in lines:
        if line.startswith(("Arguments ", marker)):
            break
        printed.append(line)
    text = " ".join(" ".join(printed).split())
    return text or None


def own_constants(output: str, marker: str, statement: Statement) -> list[str] | None:
    """The candidate's own constants the printed solution names (None if the print never appeared)."""
    lines = output.splitlines()
    if marker not in lines:
        return None
    printed = "\n".join(lines[lines.index(marker) + 1 :])
    if f"{CANDIDATE}.{statement.solution_name}" not in printed:
        return None
    before = statement.sentences[: statement.solution]
    allowed = {n for s in before if (n := s.declared_name) is not None} | set(solution_arguments(statement))
    allowed.add(statement.solution_name or "")
    return sorted(set(CANDIDATE_NAME.findall(printed)) - allowed)


def choice_operators(
    output: str, marker: str, full: tuple[str, ...] = POLICY.answer_choice_operators
) -> list[str] | None:
    """The operators of ``full`` (by default the choice operators) the printed solution names, as printed
    (None if the marker never appeared)."""
    lines = output.splitlines()
    if marker not in lines:
        return None
    printed = "\n".join(lines[lines.index(marker) + 1 :])
    names = set(QUALIFIED.findall(printed))
    return sorted(n for n in names if any(f == n or f.endswith(f".{n}") for f in full))
