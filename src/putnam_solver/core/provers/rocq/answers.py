"""The Rocq answer check (see ``answer_check``): does the candidate's solution equal the official one?

Runs after the candidate compiled, on the ``.vo`` files the compiled gates kept: a harness-written file
``Require``s (never ``Import``s) the reference and the candidate and states
``@Candidate.sol = @Reference.__putnam_official_solution <assumptions>``, unfolds both and tries
``reflexivity``, then, pointwise for functions (``functional_extensionality``), ``ring``, ``lia``,
``lra``, ``nia``, ``nra`` (also after ``simpl``, which unfolds ``n ^ 2`` on ``nat`` for ``ring``), and
for a tuple each part so (a yes/no part by logic and propositional extensionality: ``SAME_TRUTH``).
If that file does not compile, a second one tries the negation (``discriminate``, ``lia``, ``lra``,
``congruence``; for yes/no answers, logic on the two propositions: ``TRUTH_VALUES``; for a tuple, on its
parts: ``PARTS``), and where the standard library's reals are loaded and the answers' type is one they can
read (asked of Coq in the second file, and again in the third itself: ``loaded_reals``) a third one tries it
with true facts about the answers' transcendental atoms in hand (``REAL_FACTS``, ``EXP_FACTS``), and a fourth
first computes the two answers and uses the library's known values (``answer_values``). For a function answer
a fifth compares the two functions at sample points (``POINTS``): ``differs`` only when they are apart at
every one of them. For a set or predicate answer a sixth applies the two at points where Coq decides one
membership and refutes the other, where the statement asks every point (``answer_sets``). Last, where the
reals are loaded, a seventh proves two reals equal by refuting both strict inequalities as the fourth refutes
an equation (:data:`EQUAL_COMPUTED`, round 52). The status comes
from coqc's exit code alone, each attempt under a ``Timeout``, the whole run under the sandbox's caps.

The negation matters as much as the equality: on a statement whose hypotheses are contradictory (the
vacuous ``putnam_2013_b2``, a PutnamBench erratum) every answer has a sound proof, and only ``differs``
keeps a wrong one from being ``accepted`` (it is then ``disputed``). A wrong answer that no attempt
separates from the official one stays ``unknown`` (red team 18: ``sqrt 10`` and ``PI`` for ``3`` were
``accepted``, ``lra`` knowing nothing of ``sqrt`` or ``PI``).
"""

from __future__ import annotations

import itertools

from putnam_solver.core.answer_check import AnswerCheck, AnswerStatus, non_closed_form, unknown
from putnam_solver.core.provers.rocq.answer_bounds import z_term
from putnam_solver.core.provers.rocq.answer_sets import DIFFERENT_MEMBER, asked_everywhere, member_ltac, member_points
from putnam_solver.core.provers.rocq.answer_values import CASES, COMPUTED, INVERSES, VALUE_LEMMAS
from putnam_solver.core.provers.rocq.build import CANDIDATE, REFERENCE, ROOT, build
from putnam_solver.core.provers.rocq.challenge import (
    OFFICIAL_SOLUTION,
    candidate_answer,
    official_answer,
    reference_instance,
    solution_arguments,
)
from putnam_solver.core.provers.rocq.loaded_reals import GUARD, answered_no, query, stopped_at_guard, type_guard
from putnam_solver.core.provers.rocq.products import CANDIDATE_VO, REFERENCE_VO
from putnam_solver.core.provers.rocq.restated import predicate_answer
from putnam_solver.core.provers.rocq.statement_shape import Statement, solution_body_start
from putnam_solver.core.provers.rocq.syntax import LexError, tokenize
from putnam_solver.core.sandbox import SandboxUnavailable
from putnam_solver.core.verify import Submission

NON_CLOSED_FORMS: dict[str, str] = {
    "Lim_seq": "a limit",
    "Lim": "a limit",
    "lim": "a limit",
    "limn": "a limit",
    "RInt": "an integral",
    "Series": "a series",
    "Derive": "a derivative",
    "Sup_seq": "a supremum",
    "Inf_seq": "an infimum",
    "Lub_Rbar": "a least upper bound",
    "Glb_Rbar": "a greatest lower bound",
    "sup": "a supremum",
    "inf": "an infimum",
    "epsilon": "a choice",
    "constructive_indefinite_description": "a choice",
    "proj1_sig": "a choice",
    "\\int": "an integral",
}
TACTIC_SECONDS = 20
SETUP = (
    "Set Guard Checking.\nSet Positivity Checking.\nSet Universe Checking.\n"
    "From Coq Require Import Lia Lra Psatz Ring FunctionalExtensionality.\nRequire Coq.Logic.PropExtensionality.\n"
)
PAIRS = "Coq.Init.Datatypes.pair"
SAME_TRUTH = (
    "(apply Coq.Logic.PropExtensionality.propositional_extensionality; "
    "first [ tauto | intuition congruence | (intuition idtac; first [ lia | lra | nia | nra ]) ])"
)
r"""Two yes/no answers that logic proves equivalent (``~ False`` for the official ``True``) are the same
answer: equal by propositional extensionality, as two functions equal at every point are by functional
extensionality (an axiom of the harness's own file, never the candidate's). Logic over arithmetic facts
(``20 <= n <= 24 \/ 0 < n < 5`` for ``(1 <= n /\ n <= 4) \/ (20 <= n /\ n <= 24)``) counts too."""
SAME_SET = (
    "((repeat (apply functional_extensionality; intro)); "
    "(repeat match goal with __putnam_x : Coq.Init.Datatypes.prod _ _ |- _ => destruct __putnam_x end); "
    f"cbv beta iota; cbn [Coq.Init.Datatypes.fst Coq.Init.Datatypes.snd]; {SAME_TRUTH})"
)
"""A set or predicate answer (``Ensemble Z``, ``nat -> Prop``, ``R * R -> Prop``) is the same answer as the
official one when, at every point (a pair taken apart, so ``fun '(b, c) => ..`` meets ``fun p => .. snd p``),
the two conditions are equivalent by :data:`SAME_TRUTH`: before, only a condition convertible to the
official one was ``confirmed``, and every other spelling ``unknown``. Where logic and arithmetic do not
prove the equivalence (an ``exists``), the answer stays ``unknown``."""
EQUAL_PARTS = (
    f"repeat match goal with |- @Coq.Init.Logic.eq _ ({PAIRS} _ _) ({PAIRS} _ _) => "
    f"apply (Coq.Init.Logic.f_equal2 {PAIRS}) end"
)
"""A tuple answer (``(True, -1, True, 0)``) compared part by part: each component a goal of its own."""
EQUAL = (
    "first [ reflexivity | (repeat (apply functional_extensionality; intro)); cbv beta; "
    f"first [ reflexivity | ring | lia | lra | nia | nra | (simpl; first [ ring | lia | nia ]) ] | {SAME_SET} "
    f"| {EQUAL_PARTS}; first [ reflexivity | ring | lia | lra | nia | nra | {SAME_TRUTH} | {SAME_SET} ] ]"
)
TRUTH_VALUES = (
    "match goal with __putnam_e : @Coq.Init.Logic.eq Prop ?a ?b |- _ => "
    "pose proof (fun x : a => Coq.Init.Logic.eq_ind a (fun p : Prop => p) x b __putnam_e); "
    "pose proof (fun x : b => Coq.Init.Logic.eq_ind b (fun p : Prop => p) x a (Coq.Init.Logic.eq_sym __putnam_e)); "
    "clear __putnam_e; first [ tauto | intuition congruence ] end"
)
"""Two yes/no answers apart (``False`` for the official ``True``, ``~ False`` for ``False``): equal
propositions imply each other (``eq_ind`` read both ways), which logic then refutes. Without it a wrong
yes/no answer on a statement it also satisfies was ``unknown`` (no arithmetic tells two propositions
apart), and its verdict ``accepted`` instead of ``disputed`` (the selftest's no-answer canaries found it).
Any hypothesis equating two propositions is tried (``match goal`` backtracks), so a component of a tuple
answer is too (:data:`PARTS`)."""
PARTS = (
    f"repeat match goal with __putnam_p : @Coq.Init.Logic.eq _ ({PAIRS} _ _) ({PAIRS} _ _) |- _ => "
    "injection __putnam_p; clear __putnam_p; intros end"
)
"""A tuple answer's equation split into one equation per component (``injection``): a yes/no part that
differs (``(False, True)`` for ``(True, True)``) was passed over, and the answer ``unknown`` (red team 29)."""
DIFFERENT = (
    "intro __putnam_h; first [ discriminate __putnam_h | lia | lra | nra | congruence | "
    f"({TRUTH_VALUES}) | ({PARTS}; first [ lia | lra | nra | congruence | ({TRUTH_VALUES}) ]) ]"
)
_R = "Coq.Reals.Rdefinitions"
_FACTS = (
    ("Coq.Reals.R_sqrt.sqrt", f"{_R}.Rle _ (Coq.Reals.R_sqrt.sqrt x)", "Coq.Reals.R_sqrt.sqrt_pos x",
     f"try (assert (Coq.Init.Logic.eq ({_R}.Rmult (Coq.Reals.R_sqrt.sqrt x) (Coq.Reals.R_sqrt.sqrt x)) x) "
     "by (apply Coq.Reals.R_sqrt.sqrt_sqrt; first [ lra | apply Coq.Reals.R_sqrt.sqrt_pos ]))"),
    ("Coq.Reals.Rtrigo_def.exp", f"{_R}.Rlt _ (Coq.Reals.Rtrigo_def.exp x)", "Coq.Reals.Exp_prop.exp_pos x",
     f"pose proof (Coq.Reals.Rpower.exp_ineq1_le x); try (assert ({_R}.Rlt ({_R}.Rplus ({_R}.IZR "
     "(Coq.Numbers.BinNums.Zpos Coq.Numbers.BinNums.xH)) x) (Coq.Reals.Rtrigo_def.exp x)) "
     "by (apply Coq.Reals.Rpower.exp_ineq1; lra))"),
    ("Coq.Reals.Rtrigo_def.sin", f"Coq.Init.Logic.and _ ({_R}.Rle (Coq.Reals.Rtrigo_def.sin x) _)",
     "Coq.Reals.Rtrigo1.SIN_bound x", "idtac"),
    ("Coq.Reals.Rtrigo_def.cos", f"Coq.Init.Logic.and _ ({_R}.Rle (Coq.Reals.Rtrigo_def.cos x) _)",
     "Coq.Reals.Rtrigo1.COS_bound x", "idtac"),
)  # fmt: skip
REAL_FACTS = (
    "pose proof Coq.Reals.Ratan.PI2_3_2; pose proof Coq.Reals.Rtrigo1.PI_4; pose proof Coq.Reals.Rpower.exp_le_3; "
    "repeat match goal with "
    + " ".join(
        f"| __putnam_a : context [{atom} ?x] |- _ => assert_fails (idtac; match goal with _ : {marker} |- _ => "
        f"idtac end); pose proof ({fact}); {more}"
        for atom, marker, fact, more in _FACTS
    )
    + " end; "
)
"""True facts about the reals' transcendental atoms: ``3 < PI <= 4`` (``PI2_3_2``, ``PI_4``), ``exp 1 <= 3``,
and for each ``sqrt x``, ``exp x``, ``sin x``, ``cos x`` of the hypothesis its sign or bounds (``sqrt x *
sqrt x = x`` where ``0 <= x``, ``1 + x <= exp x``, strict where ``x <> 0``), each added once (its first
fact marks it). With them ``lra`` and ``nra`` separate ``sqrt 10``, ``PI``, ``exp 2`` or ``Rabs (-4)`` from
``3``, ``sin 1 + 3`` from ``5`` (``exp 1`` and ``ln 5`` from ``3`` with ``EXP_FACTS``). Full names: the
candidate's module, loaded before, cannot shadow one."""
REAL_FORMS = (
    "rewrite ?Coq.Reals.RIneq.INR_IZR_INZ in __putnam_h; cbn [Coq.ZArith.BinIntDef.Z.of_nat "
    "Coq.PArith.BinPosDef.Pos.of_succ_nat Coq.PArith.BinPosDef.Pos.succ] in __putnam_h; "
    "cbv beta delta [Coq.Reals.Rbasic_fun.Rabs Coq.Reals.Rbasic_fun.Rmax Coq.Reals.Rbasic_fun.Rmin] in __putnam_h; "
    "repeat match goal with __putnam_a : context [match ?c with Coq.Init.Specif.left _ => _ "
    "| Coq.Init.Specif.right _ => _ end] |- _ => destruct c end; "
)
"""The hypothesis in forms ``lra`` reads: ``INR 4`` as the numeral ``4``, and ``Rabs``, ``Rmax``, ``Rmin``
unfolded to their case analyses, each case then a goal of its own."""
EXP = "__PutnamExp"
EXP_LEMMAS = (
    f"Module {EXP}.\nImport Coq.Reals.Reals.\nLocal Open Scope R_scope.\n"
    "Lemma exp_1_lt_3 : exp 1 < 3.\n"
    "Proof.\n  assert (d : forall x, exp (x + x) = exp x * exp x) by (intro; apply exp_plus).\n"
    "  pose proof (exp_ineq1 (-(1/8)) ltac:(lra)). pose proof (exp_plus (1/8) (-(1/8))) as p.\n"
    "  replace (1/8 + -(1/8)) with 0 in p by ring. rewrite exp_0 in p.\n"
    "  pose proof (exp_pos (1/8)). pose proof (exp_pos (-(1/8))). assert (exp (1/8) < 8/7) by nra.\n"
    "  pose proof (d (1/8)) as b. replace (1/8 + 1/8) with (1/4) in b by field.\n"
    "  pose proof (d (1/4)) as c. replace (1/4 + 1/4) with (1/2) in c by field.\n"
    "  pose proof (d (1/2)) as e. replace (1/2 + 1/2) with 1 in e by field.\n"
    "  pose proof (exp_pos (1/4)). pose proof (exp_pos (1/2)).\n"
    "  assert (exp (1/4) < 64/49) by nra. assert (exp (1/2) < 4096/2401) by nra. nra.\nQed.\n"
    "Lemma exp_half : forall x, exp x = exp (x/2) * exp (x/2).\n"
    "Proof. intro x. rewrite <- exp_plus. f_equal. field. Qed.\n"
    f"End {EXP}.\n"
)
"""Two facts the library lacks in this form, proved in the harness's file from its lemmas (``exp_ineq1``,
``exp_plus``): ``exp 1 < 3`` (``exp_le_3`` is not strict: ``exp (1/8) < 8/7`` from ``1 - 1/8 < exp (-1/8)``,
squared three times, gives ``exp 1 < 2.92``), and ``exp x = exp (x/2) * exp (x/2)``, which with ``1 + x/2 <=
exp (x/2)`` bounds ``exp x`` below by a square (``exp 3 >= 6.25``). Each is a ``Qed`` the kernel checks."""
_EXP = "Coq.Reals.Rtrigo_def.exp"
EXP_FACTS = (
    f"pose proof {EXP}.exp_1_lt_3; pose proof Coq.Reals.Rpower.ln_lt_2; "
    f"repeat match type of __putnam_h with context [{_EXP} ?x] => assert_fails (idtac; match goal with "
    f"_ : Coq.Init.Logic.eq ({_EXP} x) _ |- _ => idtac end); pose proof ({EXP}.exp_half x); "
    f"pose proof (Coq.Reals.Rpower.exp_ineq1_le ({_R}.Rdiv x ({_R}.IZR (Coq.Numbers.BinNums.Zpos "
    "(Coq.Numbers.BinNums.xO Coq.Numbers.BinNums.xH))))) end; "
)
"""``exp 1 < 3``, ``1/2 < ln 2``, and for each ``exp x`` of the hypothesis its square bound (``EXP_LEMMAS``),
once (the halving equation marks it; only the hypothesis is searched, so the halves bring no new rounds)."""
EXP_OF_LN = (
    "apply (Coq.Init.Logic.f_equal Coq.Reals.Rtrigo_def.exp) in __putnam_h; "
    "rewrite ?Coq.Reals.Rpower.exp_ln in __putnam_h by lra; "
)
"""An equation between a logarithm and a number read through ``exp`` (increasing, so injective): ``ln 5 = 3``
is ``5 = exp 3`` (``exp_ln``, where the argument is positive), which the bounds of ``exp`` refute."""
DIFFERENT_REALS = (
    f"intro __putnam_h; {REAL_FORMS}{REAL_FACTS}{EXP_FACTS}"
    f"first [ lra | nra | ({EXP_OF_LN}{EXP_FACTS}first [ lra | nra ]) ]"
)
DIFFERENT_COMPUTED = (
    f"intro __putnam_h; {COMPUTED}{CASES}{REAL_FORMS}{REAL_FACTS}{INVERSES}{EXP_FACTS}first [ lra | nra ]"
)
"""The third attempt on the hypothesis computed first (``answer_values``: ``Rsqr 2``, ``cos 0 + 3``...)."""
EQUAL_COMPUTED = "apply Coq.Reals.RIneq.Rle_antisym; apply Coq.Reals.RIneq.Rnot_lt_le; " + DIFFERENT_COMPUTED
"""Round 52: the equality of two reals as two refuted strict inequalities, each refuted as the fourth attempt
refutes an equation. The first attempt reads no real decision (``let b := Rlt_dec 1 0 in if b then 5 else
1``) and no value outside a domain (``5 / 0 + 1``, Coq's reals' ``Rinv_0``): honest answers so written were
``unknown``; they are now ``confirmed``. Run last, so it costs a run only where every other attempt failed;
on answers of another type ``Rle_antisym`` does not apply and the file fails (``unknown``, as before)."""
REALS_ATTEMPTS = (DIFFERENT_REALS, DIFFERENT_COMPUTED, EQUAL_COMPUTED)
"""The attempts that apply only where the reference loads the standard library's reals; each file first asks
(``loaded_reals.GUARD``), and where the first says no, the others are skipped."""


POINTS = (
    ("Coq.Init.Datatypes.nat", tuple(f"{n}%nat" for n in (2, 3, 4, 5))),
    ("Coq.Numbers.BinNums.Z", tuple(z_term(n) for n in (2, 3, 4, 5))),
    (f"{_R}.R", (f"({_R}.Rinv ({_R}.IZR {z_term(2)}))", f"({_R}.IZR {z_term(2)})", f"({_R}.IZR {z_term(3)})")),
)
"""The points at which two function answers are compared, by the type of their argument. A function answer
is asked only where the question defines it (``n >= 2``, ``0 < x < 1``), and two answers that agree there
are the same answer: so ``differs`` needs them apart at EVERY point of the list (at every combination, for
several arguments), which only an answer agreeing nowhere near the small values the question ranges over
could meet by chance. Answers of other argument types (MathComp's ordered fields) are not compared."""
APART = "__putnam_apart"
CLOSE = "first [ discriminate h | lia | lra | nra | congruence | (vm_compute in h; discriminate h) ]"


def apart_tactic(reals: bool) -> str:
    """The Ltac that proves ``False`` from ``h : f = g`` when ``f`` and ``g`` are apart at every point of
    ``POINTS`` (numbers at the end: ``CLOSE``, with the reals' facts where ``reals``); it fails on a function
    of any other argument type. (An Ltac names a hypothesis by its parameter, never by a fixed name.)"""
    facts = f"{REAL_FORMS}{REAL_FACTS}{EXP_FACTS}".replace("__putnam_h", "h")
    computed = f"{COMPUTED}{CASES}{REAL_FORMS}{REAL_FACTS}{INVERSES}{EXP_FACTS}".replace("__putnam_h", "h")
    close = f"first [ {CLOSE} | ({facts}first [ lra | nra ]) | ({computed}first [ lra | nra ]) ]" if reals else CLOSE
    at = (
        "let q := fresh in pose proof (Coq.Init.Logic.f_equal (fun f => f p) h) as q; cbv beta zeta in q; "
        f"clear h; {APART} q"
    )
    branches = " ".join(
        f"| @Coq.Init.Logic.eq (forall _ : {domain}, _) _ _ => "
        + "".join(f"assert_succeeds ({APART}_at h {p}); " for p in points[1:])
        + f"{APART}_at h {points[0]}"
        for domain, points in POINTS
        if reals or domain != f"{_R}.R"
    )
    return (
        f"Ltac {APART} h := lazymatch type of h with {branches} "
        f"| @Coq.Init.Logic.eq (forall _ : _, _) _ _ => fail | _ => {close} end "
        f"with {APART}_at h p := {at}."
    )


DIFFERENT_AT = f"intro __putnam_h; {APART} __putnam_h"


def function_answer(statement: Statement) -> bool:
    """Whether the official answer is a function of numbers (its body a ``fun``, or its declared type an arrow),
    a set or predicate aside (no point tells two conditions apart by arithmetic)."""
    if statement.solution is None or predicate_answer(statement):
        return False
    sentence = statement.sentences[statement.solution]
    words = [t.text for t in sentence.tokens[sentence.command_index() + 2 : solution_body_start(sentence)]]
    body = official_answer(statement) or ""
    return "->" in words or body.startswith(("fun ", "fun(", "(fun "))


ATTEMPTS = (
    ("eq", EQUAL, AnswerStatus.CONFIRMED, "candidate = official"),
    ("ne", DIFFERENT, AnswerStatus.DIFFERS, "candidate <> official"),
    ("ne_reals", DIFFERENT_REALS, AnswerStatus.DIFFERS, "candidate <> official (with facts about the reals)"),
    ("ne_computed", DIFFERENT_COMPUTED, AnswerStatus.DIFFERS, "candidate <> official (computed, known values)"),
    ("ne_at", DIFFERENT_AT, AnswerStatus.DIFFERS, "candidate <> official (apart at every sample point)"),
    ("ne_member", DIFFERENT_MEMBER, AnswerStatus.DIFFERS, "candidate <> official (a point in one set, not the other)"),
    ("eq_computed", EQUAL_COMPUTED, AnswerStatus.CONFIRMED, "candidate = official (computed, known values)"),
)


def _words(text: str) -> list[str]:
    """Token texts and their last segments, and ``\\int`` (lexed as ``\\`` glued to ``int``)."""
    try:
        tokens = tokenize(text)
    except LexError:
        return []
    words = [w for t in tokens for w in (t.text, t.last_segment)]
    words += ["\\int" for a, b in itertools.pairwise(tokens) if a.text.endswith("\\") and b.text == "int"]
    return words


def official_not_closed(official: str) -> AnswerCheck | None:
    """``unknown`` (settled) when the official answer is no closed form (a limit, an integral, a choice).

    Only the official answer's words count. The candidate's are its own to choose: a bound variable named
    ``inf`` (``let inf := 4 in inf``) made a wrong answer ``unknown`` by its spelling alone, and the verdict
    on the vacuous ``putnam_2013_b2`` ``accepted`` instead of ``disputed`` (red team 23). What the
    candidate's answer names is read by meaning: G4 refuses a limit or choice operator in its kernel term
    (``answer_env``), and the tactics below decide the rest."""
    return non_closed_form(_words(official), NON_CLOSED_FORMS)


def check_source(statement: Statement, claim: str, tactic: str, answer: str = "", reals: bool = False) -> str:
    """The harness's file stating ``claim`` about the two solutions and proving it with ``tactic`` (for a set
    answer's points, ``answer`` is the candidate's answer, whose numerals are points to try; ``reals``: the
    reference loads the standard reals, so function and set answers are tried at real points too). A reals
    attempt's file asks that on its fourth line (``loaded_reals.GUARD``), and on its fifth whether the
    answers' type is one the attempts can read (``loaded_reals.type_guard``), once both modules are loaded."""
    instance, reference = reference_instance(statement, f"{ROOT}.{REFERENCE}", f"{ROOT}.{CANDIDATE}")
    ours = f"{ROOT}.{CANDIDATE}.{statement.solution_name}"
    theirs = f"{reference}.{OFFICIAL_SOLUTION}"
    args = "".join(f" {ROOT}.{CANDIDATE}.{n}" for n in solution_arguments(statement))
    lhs, rhs = f"@{ours}", f"@{theirs}{args}"
    prop = f"{lhs} = {rhs}" if claim.startswith("eq") else f"{lhs} <> {rhs}"
    with_reals = tactic in REALS_ATTEMPTS or (reals and tactic == DIFFERENT_AT)
    loads = "Require Coq.Reals.Reals.\n" if with_reals else ""
    loads += EXP_LEMMAS + (VALUE_LEMMAS if tactic != DIFFERENT_REALS else "") if loads else ""
    loads += f"{apart_tactic(with_reals)}\n" if tactic == DIFFERENT_AT else ""
    if tactic == DIFFERENT_MEMBER:
        loads += f"{member_ltac(statement, answer, official_answer(statement) or '', reals)}\n"
    guards = f"{GUARD}\n{type_guard(rhs)}" if tactic in REALS_ATTEMPTS else "\n"
    guards = f"{query(rhs)}\n" if tactic == DIFFERENT else guards
    return (
        f"Require {ROOT}.{REFERENCE}.\nRequire {ROOT}.{CANDIDATE}.\n{' '.join(instance)}\n{guards}\n{SETUP}{loads}"
        # a `Strategy opaque` of the candidate's, replayed by `Require`, made `unfold` fail (G3 refuses it too)
        + f"Transparent {ours}.\n"
        + f"Lemma __putnam_answer_{claim} : {prop}.\n"
        f"Proof. unfold {ours}, {theirs}. Timeout {TACTIC_SECONDS} ({tactic}). Qed.\n"
    )


def check_answer(sub: Submission, statement: Statement) -> AnswerCheck:
    """confirmed / differs / unknown for the candidate's solution of ``statement`` (see the module doc)."""
    ours, theirs = candidate_answer(statement, sub.candidate), official_answer(statement)
    if ours is None or theirs is None:
        return unknown("no solution definition to compare")
    flagged = official_not_closed(theirs)
    if flagged is not None:
        return flagged
    try:
        candidate, reference = sub.artifacts.get(CANDIDATE_VO, sub), sub.artifacts.get(REFERENCE_VO, sub)
        deps = [v for b in (candidate, reference) if (v := b.vo)]
        if len(deps) < 2:
            return unknown("the candidate or the reference did not compile")
        reals = True  # until a reals attempt's file says the reference does not load them (`loaded_reals`)
        for claim, tactic, status, proved in ATTEMPTS:
            if tactic in REALS_ATTEMPTS and not reals:
                continue
            if tactic == DIFFERENT_AT and not function_answer(statement):
                continue
            if tactic == DIFFERENT_MEMBER and not (
                predicate_answer(statement)
                and asked_everywhere(statement)
                and member_points(statement, ours, theirs, reals)
            ):
                continue
            built = build(sub, f"Answer_{claim}", check_source(statement, claim, tactic, ours, reals), deps)
            if built.vo is not None:
                return AnswerCheck(status, f"coqc proved {proved}")
            reals = reals and not (tactic in REALS_ATTEMPTS and stopped_at_guard(built))
            reals = reals and not (tactic == DIFFERENT and answered_no(built))
    except SandboxUnavailable as exc:
        return unknown(f"the sandbox is unavailable: {exc}")
    return unknown(
        "neither equality nor its negation was proved by reflexivity, ring, lia, lra, nia, nra "
        "(with bounds of PI, exp, ln, sqrt, sin, cos; the library's known values; functions and sets at sample "
        "points)"
    )
