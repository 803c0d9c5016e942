"""No-answer: an answer may not restate the question (a G4 check, in ``answer_env``'s file).

On the no-answer track the candidate writes the answer. Copying the question's own condition into it
(``putnam_1971_a2``: ``P.[0] = 0 /\\ ... <-> P \\in solution`` answered with ``[set P | P.[0] = 0 /\\
...]``), or the expression it asks to evaluate (``putnam_2020_a2``: ``(fun k => sum_n ...) = solution``
answered with that same ``fun k => sum_n ...``), makes the theorem true by its shape alone: every gate
then accepts a proof that found nothing, and the answer check can only say ``unknown``. Names cannot tell
such an answer from an honest one (most official set answers are set-builders, many numeric ones are
sums), so Coq decides, by meaning: in the harness's environment file, with the answer as elaborated there
before the candidate is loaded, the pinned theorem is stated again and a fixed tactic of the harness's
own tries to prove it knowing no mathematics. It unfolds the answer (and ``fst``/``snd`` of a product
answer, and the identity functions); for a set or predicate answer it also reads set membership as
application (MathComp's ``in_setE`` and the sets' Boolean operations, Ensembles' ``In``: each wherever the
file has loaded it, looked up when the tactic runs, ``loaded_unfold.py``), compares two
equal sets pointwise (extensionality), takes the condition out from under a quantifier over equals (the
one-point rule: ``exists m, m = n /\\ P m`` is ``P n``) and then uses only propositional logic and equality
reasoning (``tauto``, ``intuition congruence``, a premise applied at the goal's point, and classically:
``NNPP`` then ``tauto``), reading inductive connectives as the logic they mean (``ensemble_logic.py``) and
any other inductive predicate around a condition by a bounded search (``inductive_search.py``); for
any answer it tries syntactic identity of an equation's two sides. When it proves the theorem, the answer
restates the question: refused. With every official answer the tactic fails
(``tests/adversarial/test_rocq_restated.py`` sweeps them), as it must: a theorem that logic alone proves
from the official answer would be no problem at all.

A copy beside a fact that logic alone does not prove (``(0 < 1 :> R) /\\ <the copy>``, ``0 < 1 -> <the
copy>``) is read by what that fact is: a proposition of the answer that names none of its variables (nor the
theorem's) is a constant, true or false; if true, the answer means what it says with that fact replaced by
``True``, and the tactic tries the theorem again with every such closed proposition so replaced
(``CLOSED_FACTS``). An honest answer has none, or is no copy either way.

A fact about the answer's own variables (``a <= a /\\ <the copy>``, ``0 <= a * a -> <the copy>``, ``a < a
\\/ <the copy>``) is read the same way, by what Coq proves: each atomic proposition of the answer that a
small fixed tactic (``FACT_TACTIC``: arithmetic, equality, logic, the libraries' core hints) proves for every
value of the variables in scope reads ``True``, each it refutes reads ``False`` (``PROVED_FACTS``), before
the one-point rewrites. Each replacement is proved where it stands, so the answer still means what it says:
an honest answer is no copy after it either (every official one passes, ``-m slow``).

It is a first line: an answer that restates the question up to algebra (``x * y`` for ``y * x``, ``e + 0``
for ``e``) still passes, and is then recorded with its answer check (``unknown`` unless a tactic proves it
differs).

Only a set or predicate answer (``predicate_answer``) meets logic and conversion: a numeric one cannot copy
a condition, and conversion on one can evaluate the statement's arithmetic (``putnam_1986_a2``'s ``10 ^
20000``), so other answers meet syntactic identity (``constr_eq``), then identity after every definition is
unfolded without running a recursion (``unfolded``). Yes/no
answers have their own, stricter rule (``answer_env``). The statement is elaborated as a separate sentence
after a start line: when it does not elaborate there, or the tactic runs out of its time, the step never
prints its outcome, which is an ``error``, never a pass or a refusal.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.build import REFERENCE, ROOT
from putnam_solver.core.provers.rocq.challenge import instantiation, reference_instance
from putnam_solver.core.provers.rocq.ensemble_logic import ENSEMBLES, inductive_rewrites
from putnam_solver.core.provers.rocq.inductive_search import search_tactics, wrapped
from putnam_solver.core.provers.rocq.loaded_facts import fact_sentences
from putnam_solver.core.provers.rocq.loaded_unfold import IDENTITY_TACTIC, MEMBERSHIP_TACTIC, loaded_sentences
from putnam_solver.core.provers.rocq.statement_shape import Statement, solution_body_start
from putnam_solver.core.provers.rocq.unfolded import (
    FIX_CASES,
    UNPROVED,
    split_tactic,
    unfolded_sentences,
    unfolded_tactic,
)

PREDICATE_WORDS = frozenset({"Prop", "set", "Ensemble", "pred"})
"""Words of a solution's declared type that make it a set or predicate (``set R``, ``R -> R -> Prop``,
``Ensemble Z``, ``nat -> set R``, ``(set nat) * (set nat)``)."""
CLASSICAL = "Coq.Logic.Classical_Prop"
"""Classical logic for the tactic: by Glivenko's theorem a propositional formula holds classically exactly
when its double negation holds intuitionistically, so ``apply NNPP; tauto`` proves a copy rewritten by
De Morgan's laws or double negation (``~ (n * n <> 4 \\/ ~ n > 0)`` for ``n * n = 4 /\\ n > 0``), which
``tauto`` alone does not."""
ARITHMETIC = ("Coq.micromega.Lia", "Coq.micromega.Lra")
"""The decision procedures of ``FACT_TACTIC`` (``Lra`` loads the standard reals), loaded never imported."""
FACTS_SECONDS = 20
"""The time of the step that decides the answer's sub-propositions: a command ``Timeout`` that stops the file
between the start line and the stated line, an ``error`` (``answer_env.unfinished``), never a pass."""
SETOID = "Coq.Setoids.Setoid"
"""Rewriting under binders (``setoid_rewrite``), required only once the theorem is stated."""
ONE_POINT_DEPTH = 4
"""How deep among an existential's conjuncts, or a universal's hypotheses, the one-point rule looks for the
equation that fixes its variable."""
LOGIC, PROP = "Coq.Init.Logic", "Coq.Init.Logic.iff"
_CLOSE = "first [ assumption | reflexivity ]"
ONE_POINT_PROOF = (
    f"intros; split; [ first [ (intros [m H]; decompose [{LOGIC}.and] H; subst; repeat split; {_CLOSE}) "
    f"| (intros H; intros; apply H; {_CLOSE}) ] "
    f"| first [ (intros H; decompose [{LOGIC}.and] H; exists n; repeat split; {_CLOSE}) "
    f"| (intros H m; intros; subst; apply H; {_CLOSE}) ] ]"
)
"""The proof of a one-point lemma, each direction by its few steps (``firstorder`` searched: 1.3 s of
processor time for the 21 lemmas against 0.1 s). It names no hint database, so nothing a library adds to
one can make a lemma fail, and the check with it."""
RESTATED_NAME = "__putnam_restated"
FACTS_NAME = "__putnam_restated_facts"
CLOSED_TRUE = "__putnam_closed_true"
CLOSED_FACTS = (
    f"Ltac {CLOSED_TRUE} b := match b with | context C [?F] => match type of F with | Prop => match F with "
    f"| {LOGIC}.True => fail 1 | _ => let b' := context C [{LOGIC}.True] in {CLOSED_TRUE} b' end end "
    "| _ => b end."
)
"""The answer with each closed proposition in it (one that names no variable bound in the answer: Ltac's
``context`` never matches a subterm with a bound variable) replaced by ``True``, one at a time until none
is left (each step removes one, so it ends). A copy padded with a true constant fact (``(0 < 1 :> R) /\\
copy``, red team 18) is the copy once the fact reads ``True``; logic then proves the theorem from it."""
PROVED_CONSTANT = "__putnam_proved_constant"
MATHCOMP_FACT = "__putnam_mathcomp_fact"
FACT_TACTIC = (
    "intros; first [ reflexivity | tauto | Coq.micromega.Lia.lia | Coq.micromega.Lra.lra "
    f"| Coq.micromega.Lra.nra | solve [ auto ] | {MATHCOMP_FACT} ]"
)
"""The small fixed tactic that decides a sub-proposition of the answer for every value of the variables in
scope (the answer's binders, and the premises an implication puts before it): linear and non-linear
arithmetic over ``nat``, ``Z`` and the standard reals, equality, propositional logic, and the libraries'
``core`` hints (MathComp's ``lexx``: ``e <= e``), and over MathComp's ordered rings its lemmas, wherever the
file has loaded them (``loaded_facts``). It
only ever adds to what the check knows, so a library's hint can make it prove more, never refuse an answer
that is no copy."""
CONNECTIVES = tuple(f"{LOGIC}.{c}" for c in ("and _ _", "or _ _", "iff _ _", "not _", "True", "False"))
"""The heads under which a proposition is walked into, never decided whole (with ``ex``): its atoms are
decided, and a connective of decided atoms is logic's business (``tauto`` after the rewrites); deciding each
compound as well doubled the step's time for nothing."""
PROVED_FACTS = (
    f"Ltac {PROVED_CONSTANT} t := let T := type of t in lazymatch T with "
    "| Prop => lazymatch t with "
    + "".join(f"| {c} => {PROVED_CONSTANT}_in t " for c in (*CONNECTIVES, f"@{LOGIC}.ex _ _"))
    + f"| forall _ : _, _ => {PROVED_CONSTANT}_in t | _ => {PROVED_CONSTANT}_atom t end "
    f"| _ => {PROVED_CONSTANT}_in t end "
    f"with {PROVED_CONSTANT}_atom t := match t with "
    f"| _ => let _ := constr:(ltac:({FACT_TACTIC}) : t) in constr:({LOGIC}.True) "
    f"| _ => let _ := constr:(ltac:({FACT_TACTIC}) : t -> {LOGIC}.False) in constr:({LOGIC}.False) "
    f"| _ => {PROVED_CONSTANT}_in t end "
    f"with {PROVED_CONSTANT}_in t := match t with "
    f"| (?A -> ?B) => let A' := {PROVED_CONSTANT} A in let F := constr:(fun _ : A => "
    f"ltac:(let B' := {PROVED_CONSTANT} B in exact B')) in lazymatch F with fun _ => ?B' => constr:(A' -> B') end "
    f"| (fun x : ?A => _) => constr:(fun x : A => ltac:(let b := eval cbv beta in (t x) in "
    f"let b' := {PROVED_CONSTANT} b in exact b')) "
    f"| (forall x : ?A, @?P x) => constr:(forall x : A, ltac:(let b := eval cbv beta in (P x) in "
    f"let b' := {PROVED_CONSTANT} b in exact b')) "
    f"| ?f ?a => let f' := {PROVED_CONSTANT}_in f in let a' := {PROVED_CONSTANT} a in constr:(f' a') "
    "| _ => t end."
)
"""The answer with each sub-proposition that ``FACT_TACTIC`` proves replaced by ``True``, and each it refutes
by ``False`` (red team 19: ``e <= e /\\ copy``, ``copy /\\ x = x``, ``0 <= x * x -> copy``, ``copy \\/ x < x``
passed, each naming the answer's own variables, which ``CLOSED_FACTS`` never replaces). It walks the term,
opening each binder (``fun``, ``forall``, and an implication's premise, in whose scope the conclusion is
decided) so that its variable is a variable of the context, where the tactic proves the proposition for
every value of it. A replaced proposition is proved equivalent to its replacement where it stands, so the
answer means what it meant: a copy it uncovers was a copy. A sub-term it cannot rebuild (a proposition a
type depends on) makes the step fail, which is no refusal."""
ONE_POINT_NAME = "__putnam_one_point"
EXTENSIONALITY = ("Coq.Logic.FunctionalExtensionality", "Coq.Logic.PropExtensionality")
EXTENSIONAL = (
    f"repeat (apply {EXTENSIONALITY[0]}.functional_extensionality_dep; intro); "
    f"try apply {EXTENSIONALITY[1]}.propositional_extensionality; cbv beta; "
)
"""Two sets or predicates equal (``A = putnam_2019_a1_solution``) as the same condition pointwise: without
it a copy only meets syntactic identity, and the condition copied from a premise (``hA : forall n, A n <->
..``) or rearranged passed, while the candidate proves the equality by the same extensionality."""
PREMISE = (
    "(match goal with H : _ |- _ => exact (H _) end) "
    "| solve [ split; intro; match goal with H : _ |- _ => solve [ apply H; assumption ] end ]"
)
"""The condition a premise states for every point (``hA : forall n, A n <-> ..``), copied: ``tauto`` never
instantiates a premise's quantifier, so the premise is applied at the goal's point, either way round."""
_LEFT, _RIGHT, _SUMBOOL = "Coq.Init.Specif.left", "Coq.Init.Specif.right", "Coq.Init.Specif.sumbool"
_NOT_BUILT = f"lazymatch c with {_LEFT} _ => fail | {_RIGHT} _ => fail | _ => destruct c end"
DECISIONS = (
    "do 4 try (match goal with |- context [?f ?P] => lazymatch type of f with Prop -> bool => "
    "let t := eval red in (f P) in change (f P) with t end end); "
    "do 4 try (match goal with |- context [?g ?c] => "
    f"lazymatch type of c with {_SUMBOOL} _ _ => {_NOT_BUILT} end end); "
    f"do 4 try (match goal with |- context [match ?c with {_LEFT} _ => _ | {_RIGHT} _ => _ end] => {_NOT_BUILT} end); "
    + "".join(
        f"do 4 try (match goal with |- context [?g (@{k} ?A ?B ?p)] => let t := eval red in (g (@{k} A B p)) in "
        f"change (g (@{k} A B p)) with t end); "
        for k in (_LEFT, _RIGHT)
    )
    + "cbv beta iota; "
)
"""A condition read back from a Boolean decision of it (red team 27): each function from ``Prop`` to
``bool`` (MathComp's ``asbool``) unfolded one step (``red``), each decision of a ``sumbool`` that is no
constructor (``pselect``, ``excluded_middle_informative``, ``Rle_dec``) taken case by case, and what the
cases leave (``is_left (left p)``, a match on a constructor) reduced. ``putnam_1980_b1``'s condition copied
as ``[set c | asbool (...)]`` made the theorem ``Q <-> is_true (asbool Q)``, which no propositional step
read and ``asboolP`` proves: accepted on the full profile with its answer ``unknown``. Case analysis on a
decided proposition is logic (excluded middle on it), so an honest answer stays no copy (every official one
passes, ``-m slow``). Functions are matched by type, so no library need be loaded; each round is bounded
(a constructor is a ``sumbool`` too: an unbounded ``repeat`` never ended), and a round that finds nothing
changes nothing."""
REVERT = "repeat match goal with H : _ |- _ => revert H end; "
"""The theorem's binders and premises put back into the goal (each ``revert`` shrinks the context, so it
ends), where the one-point rewrites reach a copy in a premise as well as in the conclusion."""
MEMBERSHIP_ROUNDS = 3
"""How many times membership is read as application, for a set-builder whose condition is a membership
(``[set c | c \\in [set d | P d]]``)."""
STATING, STATED, RESTATING, RESTATED, NOT_RESTATED = (
    "-stating",
    "-stated",
    "-restating",
    "-restated",
    "-not-restated",
)
"""What the environment file prints after its marker around this check's two steps."""


def membership_rounds() -> str:
    """Set membership read as application, ``MEMBERSHIP_ROUNDS`` times, in every hypothesis and the goal, by
    the libraries the file has loaded (``loaded_unfold``: Ensembles always, ``ENSEMBLES``)."""
    return f"do {MEMBERSHIP_ROUNDS} ({MEMBERSHIP_TACTIC}; idtac); "


def predicate_answer(statement: Statement) -> bool:
    """Whether the pinned solution's declared type is a set or predicate, alone or as a factor."""
    if statement.solution is None:
        return False
    sentence = statement.sentences[statement.solution]
    words = [t.text for t in sentence.tokens[sentence.command_index() + 2 : solution_body_start(sentence)]]
    return words[:1] == [":"] and bool(PREDICATE_WORDS & set(words))


ANSWER_ENV = "AnswerEnv"
"""The module name of the harness's environment file (``Putnam.AnswerEnv``), whose file this check is in."""
ENVIRONMENT = f"{ROOT}.{ANSWER_ENV}"
"""The environment file's own module in full, by which it names its answer."""


def statement_sentences(statement: Statement, marker: str) -> list[str]:
    """The pinned theorem as a definition of the harness's, read as the reference reads it and applied to
    the answer, between two lines that say the step started and ended. The libraries of the logic step
    are loaded only for a set or predicate answer, the one answer that meets it.

    The theorem is the reference's (``type of`` its theorem, applied to the file's assumptions and
    answer), never the pinned text elaborated again here: this file replays the candidate's reading
    commands before its answer, and the candidate's own theorem is read after sentences this file does not
    have. ``Open Scope C_scope.`` before the answer and ``Close Scope C_scope.`` after it read
    ``putnam_2022_a1``'s question over the complex numbers here and over the reals in the candidate, so its
    copy (written with ``%R``) met a question it did not restate, and was accepted (red team 14)."""
    assert statement.solution is not None
    logic = predicate_answer(statement)
    instance, reference = reference_instance(statement, f"{ROOT}.{REFERENCE}", ENVIRONMENT)
    args = "".join(f" {ENVIRONMENT}.{n}" for n in instantiation(statement))
    later = [index for index, _ in statement.assumptions if index > statement.solution]
    solution = f"{ENVIRONMENT}.{statement.solution_name}"
    replaced = "".join(
        " b'" if n == statement.solution_name else f" {ENVIRONMENT}.{n}" for n in instantiation(statement)
    )
    facts = [
        f"Require {' '.join(ARITHMETIC)}.",
        *fact_sentences(MATHCOMP_FACT),
        CLOSED_FACTS,
        PROVED_FACTS,
        # none replaced (an honest answer), or the theorem not stated with it: `False`, which logic never proves
        f"Timeout {FACTS_SECONDS} Definition {FACTS_NAME} := ltac:(first [ "
        f"let b := eval cbv delta [{solution}] in {solution} in "
        f"let c := {CLOSED_TRUE} b in let b' := {PROVED_CONSTANT} c in assert_fails (constr_eq b b'); "
        f"let t := type of (@{reference}.{statement.theorem_name}{replaced}) in exact t | exact {LOGIC}.False ]).",
    ]
    return [
        *(statement.text[statement.sentences[index].start : statement.sentences[index].end] for index in later),
        f"Require {ROOT}.{REFERENCE}.",
        *instance,
        # loaded, never imported: the statement reads the same (Ensembles' hints are in its own `sets` database)
        *([f"Require {CLASSICAL} {ENSEMBLES}."] if logic else []),
        f'Goal Coq.Init.Logic.True. idtac "{marker}{STATING}". Abort.',
        f"Definition {RESTATED_NAME} := ltac:(let t := type of (@{reference}.{statement.theorem_name}{args}) "
        "in exact t).",
        *loaded_sentences(),
        *([*facts, *search_tactics(membership_rounds())] if logic else unfolded_sentences()),
        f'Goal Coq.Init.Logic.True. idtac "{marker}{STATED}". Abort.',
        *([f"Require {SETOID} {' '.join(EXTENSIONALITY)}."] if logic else []),
    ]


def statement_definitions(statement: Statement) -> str:
    """The statement's own constants as both modules name them, to unfold with the answer: the theorem
    names the reference's, the answer this file's (those declared before the solution)."""
    assert statement.solution is not None
    _, reference = reference_instance(statement, f"{ROOT}.{REFERENCE}", ENVIRONMENT)
    before = {n for s in statement.sentences[: statement.solution] if (n := s.declared_name) is not None}
    ours = [f"{ENVIRONMENT}.{n}" for n in statement.definitions if n in before]
    return " ".join([*(f"{reference}.{n}" for n in statement.definitions), *ours])


def _one_point_lemmas() -> list[str]:
    """The one-point rule as lemmas (``(exists m, .. /\\ m = n /\\ P m) <-> .. /\\ P n``, ``(forall m, .. -> n
    = m -> P m) <-> (.. -> P n)``), the equation either way round, after up to ``ONE_POINT_DEPTH - 1``
    conjuncts or hypotheses, each proved in place by ``ONE_POINT_PROOF``. Only the evar ``n`` is outside
    ``m``'s binder, so the rewrite fires only where the equation fixes ``m``."""
    and_, eq, ex = (f"{LOGIC}.{w}" for w in ("and", "eq", "ex"))
    lemmas = []
    for position in range(ONE_POINT_DEPTH):
        before = [f"X{i}" for i in range(position)]
        for last in (False, True):
            for equation in (f"({eq} m n)", f"({eq} n m)"):
                parts = [*before, *([] if last else ["R"])]
                if not parts:
                    continue  # ``exists m, m = n`` alone: no condition to copy
                binders = f"(A : Type) (n : A){''.join(f' ({p} : A -> Prop)' for p in parts)}"
                body, rhs = equation, f"{parts[-1]} n"
                if not last:
                    body = f"{and_} {equation} (R m)"
                for p in reversed(before):
                    body = f"{and_} ({p} m) ({body})"
                for p in reversed(parts[:-1]):
                    rhs = f"{and_} ({p} n) ({rhs})"
                lemmas.append(f"forall {binders}, {PROP} ({ex} (fun m : A => {body})) ({rhs})")
                if last:
                    continue
                body, rhs = f"{equation} -> R m", "R n"
                for p in reversed(before):
                    body, rhs = f"{p} m -> {body}", f"{p} n -> {rhs}"
                lemmas.append(f"forall {binders}, {PROP} (forall m : A, {body}) ({rhs})")
    return lemmas


def _one_point() -> str:
    """The rewrites that take a copy out from under a quantifier over equals, on the goal with its binders
    (before ``intros``: a copy in a premise is rewritten too). The lemmas are proved once, as hypotheses
    cleared before the logic step. Each rewrite removes a quantifier or a ``True`` (``and_assoc`` and currying a
    conjunction out of a premise remove a left-nested ``and``), so ``repeat`` ends."""
    curry = f"forall A B C : Prop, {PROP} ({LOGIC}.and A B -> C) (A -> B -> C)"
    true = [  # a `True` conjunct or premise dropped: padding no longer pushes the equation past the lemmas' depth
        f"forall A : Prop, {PROP} ({LOGIC}.and {LOGIC}.True A) A",
        f"forall A : Prop, {PROP} ({LOGIC}.and A {LOGIC}.True) A",
        f"forall A : Prop, {PROP} ({LOGIC}.True -> A) A",
        f"forall A : Prop, {PROP} ({LOGIC}.or {LOGIC}.False A) A",
        f"forall A : Prop, {PROP} ({LOGIC}.or A {LOGIC}.False) A",
    ]
    lemmas = [(curry, "tauto"), *((t, "tauto") for t in true)]
    lemmas += [(lemma, ONE_POINT_PROOF) for lemma in _one_point_lemmas()]
    names = [f"{ONE_POINT_NAME}{i}" for i in range(len(lemmas))]
    proved = "".join(
        f"assert ({ONE_POINT_NAME}{i} : {lemma}) by ({proof}); " for i, (lemma, proof) in enumerate(lemmas)
    )
    rewrites = " | ".join(f"setoid_rewrite {r}" for r in [f"{LOGIC}.and_assoc", *names])
    return f"{proved}repeat first [ {rewrites} ]; clear {' '.join(names)}; "


def restating_tactic(statement: Statement, marker: str, solution: str) -> str:
    """The tactic that tries to prove the stated theorem by logic alone from the answer (``solution``: its
    full name in the environment file) and prints which way it went.

    For a set or predicate answer, the statement's own definitions (``putnam_1962_a2``'s measure ``mu``) are
    unfolded after the one-point rewrites, not before: a failing ``setoid_rewrite`` tries its lemma at every
    subterm, and ``mu`` unfolded is a large term of canonical structures. Measured on ``putnam_1962_a2``'s
    official answer (Coq 8.16.1, processor time of the step): 5.7-6.7 s before, 3.2-4.0 s after, where the
    step's 20 s limit is wall time (a loaded host reached it). Membership is read as application again after
    the late unfolding, so a definition that is a set still shows its condition to the logic."""
    restated = f"{ENVIRONMENT}.{RESTATED_NAME}"
    projections = "cbn [Coq.Init.Datatypes.fst Coq.Init.Datatypes.snd] in *; "
    definitions = statement_definitions(statement)
    unfold = f"intros; cbv beta delta [{solution} {definitions}] in *; {IDENTITY_TACTIC}; {projections}"
    identical = "lazymatch goal with |- ?a = ?b => constr_eq a b; reflexivity end"
    rounds = membership_rounds()
    early = f"intros; cbv beta delta [{solution}] in *; {IDENTITY_TACTIC}; {projections}"
    late = f"cbv beta delta [{definitions}] in *; {projections}{rounds}" if definitions else ""
    logic = (
        f"{early}{rounds}{EXTENSIONAL}{FIX_CASES}{REVERT}{inductive_rewrites()}{_one_point()}{late}intros; {DECISIONS}"
        "first [ tauto | intuition congruence | (split; intro; assumption) "
        f"| {identical} | (apply {CLASSICAL}.NNPP; tauto) | {PREMISE} | {wrapped()} ]"
        if predicate_answer(statement)
        else f"{unfold}first [ {identical} | {unfolded_tactic(marker)} | {split_tactic(marker)} ]"
    )
    facts = f"{ENVIRONMENT}.{FACTS_NAME}"
    replaced = (
        f'| assert {facts} by (cbv delta [{facts}]; {logic}); idtac "{marker}{RESTATED}" '
        if predicate_answer(statement)
        else ""
    )
    return (
        f"first [ assert {restated} by (cbv delta [{restated}]; {logic}); idtac "
        f'"{marker}{RESTATED}" {replaced}| idtac "{marker}{NOT_RESTATED}" ]'
    )


def restates(output: str, marker: str) -> bool | None:
    """Whether the harness's tactic proved the theorem from the answer, or found its two sides the same
    function read through a fixpoint that never recurses (``unfolded.UNPROVED``; None if the file never said)."""
    lines = output.splitlines()
    if f"{marker}{RESTATED}" in lines or f"{marker}{UNPROVED}" in lines:
        return True
    if f"{marker}{NOT_RESTATED}" in lines:
        return False
    return None
