"""False refusals (round 43) of the Rocq no-answer answer check (G4): a computable decision taken apart by a
nested pattern or handed to a consumer, measured with coqc 8.16.1, mathcomp 1.15, mathcomp-analysis 0.6.0.

**The refusal.** Red team 39 let a ``match`` on a decision of the standard library whose proof is transparent
(``answer_tests.COMPUTABLE_DECISIONS``, located by the print's own spelling) test a variable the answer
binds, since it evaluates. Two spellings of the same computation stayed refused as searches no computation
evaluates:

- a three-way decision's nested pattern, ``match lt_eq_lt_dec n 4 with inleft (left _) => ... | inleft
  (right _) => ... | inright _ => ... end``: Coq prints it as a ``match s`` inside the ``inleft s`` branch,
  a ``match`` on a pattern variable, which read as a bound decision (``s``); and ``lt_eq_lt_dec``,
  ``gt_eq_gt_dec``, ``Z_dec``, ``Z_dec'``, ``Z_gt_le_dec``, ``Z_ge_lt_dec``, ``Qeq_dec``, ``Qlt_le_dec``
  (``Defined`` all: ``Compare_dec.v`` 23-36, ``ZArith_dec.v`` 81-90, 158-187, ``QArith_base.v`` 172-175,
  1082-1086) were not listed at all;
- a decision handed to the library's consumers: ``is_left (Nat.eq_dec n 4)`` (ssrbool's coercion,
  ``ssrbool.v`` 590, inserted by MathComp itself where a decision stands for a ``bool``: ``find (fun n =>
  Nat.eq_dec n 16) (iota 0 20)``), ``sumbool_rec``/``sumbool_rect`` (``Specif.v``), ``bool_of_sumbool``
  (``Sumbool.v`` 69-73): the consumers are listed with the real decisions (a consumer of ``Rle_dec`` is a
  real decision), so any consumer of a bound variable was refused.

**The fix, by meaning** (``answer_tests``). A consumer (``CONSUMERS``: the recursors, ``is_left``,
``is_inleft``, ``bool_of_sumbool``, located as the decisions are, so a lookalike is no consumer) applied to
exactly its arguments, the last a computable decision applied, is that decision's ``match``: not a search;
its decision's arguments are read apart as before (``is_left (Nat.eq_dec (up ..) 4)`` names ``up``). A
pattern variable of a ``match`` on a computable decision (or on such a variable) holds part of its value,
so a ``match`` or consumer on it computes too, unless another binder binds the same name (shadowing fails
closed). Nothing else changed: a decision not located as a computable one (a real comparison, a classical
decision, a bound variable under a decision's name) is still a search, consumed or nested.

**Measured.** Honest twins on 12 pinned statements (MathComp and Coq/Coquelicot ones; each answer the
official value, found by a bounded search with the decision or written piecewise with it): before, 12 of
12 refused by G4 ("tests a range by a decision no computation evaluates": ``is_left``, ``sumbool_rec``,
``sumbool_rect``, ``lt_eq_lt_dec``/``gt_eq_gt_dec`` with ``s``, ``Z_dec``); after, 12 of 12 pass G4. Six
searches on a custom question: 5 of 6 refused before (``is_inleft``, which no list named, passed), 6 of 6
pass after; two of them proved, on the full profile, were refused before and are ``accepted`` after with
the answer check ``confirmed`` (the answer computes the official value). Attacks (the same shapes around a
decision no computation evaluates: ``Rlt_dec``, ``Rle_dec``, ``total_order_T`` nested and under
``is_inleft``, ``Req_EM_T``, ``excluded_middle_informative`` under ``is_left`` and ``sumor_rec``, an
undecided index ``up`` inside a consumed computable decision, a nested pattern's variable shadowed by a
``let`` of ``Rlt_dec``, ``bool_of_sumbool`` of ``Rle_dec``): 10 of 10 refused by G4 before and after. Red
teams 38 and 39 unchanged; ``is_inleft`` is now read as the other consumers are.

**Left.** A transparent decision the list does not name (``Znumtheory.prime_dec``, ``Defined`` at 923-934;
``list_eq_dec``, ``in_dec``, which take a decision as an argument) stays refused over a bound variable; a
consumer over-applied or partially applied (``map is_left``) is read as a consumer of what it is applied
to; ``bool_of_sumbool``'s ``sig`` taken apart (``proj1_sig``, ``let (b, _) :=``) is refused by G4's choice
rule, whatever the decision (``exist``, ``proj1_sig``: a value picked from a ``sig``).

**Also: the restatement check's libraries by what the file loads (``loaded_unfold.py``).** It unfolded the
identity functions and read MathComp's and Ensembles' set membership as application only where the
statement's text spelled the library (``"classical_sets" in statement.text``, ``"Reals"``, ``"mathcomp"``).
``putnam_1977_a2`` loads ``classical_sets`` through ``reals`` without spelling it: its question's condition
written ``fun a b c d => a \\in [set a' : R | a' + b + c = d /\\ ...]`` (the candidate importing
``classical_sets``) passed G4 before and is refused as restating the question after; the official
condition so written is read as the official answer (same status). A statement that names ``Reals``,
``mathcomp`` and ``classical_sets`` in a comment without loading them had every answer (``42``, ``id 42``)
stopped by an ``error`` before ("The reference Coq.Reals.Ranalysis1.id was not found"): 2 of 2 errors
before, 2 of 2 pass after. Each name is now looked up by Ltac2's ``Env.get`` when the tactic runs. Left:
the answer check's own membership unfolding (``answer_sets.member_points``) still reads the text (it only
ever adds a ``differs``), and ``restated.mathcomp_facts`` still loads MathComp's facts by the word
``mathcomp``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq.answer_tests import searched_tests
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.decision_names import DECISIONS
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_rocq_redteam38_tests import MARKER
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4, official
from tests.helpers import failures, needs_coq, one_record_benchmark, rocq_submission, sampled

FIND = "match List.find (fun n => {test}) (List.seq 0 {upto}) with Some n => n | None => 0%nat end"
PINNED = {
    "1974_a6 is_left of Nat.eq_dec": ("putnam_1974_a6", "find (fun n => is_left (Nat.eq_dec n 25)) (iota 0 30)"),
    "2017_b2 MathComp's coercion": ("putnam_2017_b2", "find (fun n => Nat.eq_dec n 16) (iota 0 20)"),
    "2015_b5 lt_eq_lt_dec nested": (
        "putnam_2015_b5",
        "find (fun n => match lt_eq_lt_dec n 4 with inleft (left _) => false | inleft (right _) => true "
        "| inright _ => false end) (iota 0 10)",
    ),
    "1967_a3 sumbool_rec of le_lt_dec": (
        "putnam_1967_a3",
        "find (fun n => sumbool_rec (fun _ => bool) (fun _ => true) (fun _ => false) (le_lt_dec 5 n)) (iota 0 10)",
    ),
    "1974_a1 gt_eq_gt_dec nested": (
        "putnam_1974_a1",
        "find (fun n => match gt_eq_gt_dec n 11 with inleft (right _) => true | _ => false end) (iota 0 20)",
    ),
    "2023_a1 sumbool_rect": (
        "putnam_2023_a1",
        "find (fun n => sumbool_rect (fun _ => bool) (fun _ => true) (fun _ => false) (Nat.eq_dec (n * 2) 36)) "
        "(iota 0 30)",
    ),
    "1967_a6 is_left of le_dec": ("putnam_1967_a6", "find (fun n => is_left (le_dec 8 n)) (iota 0 20)"),
    "2015_a2 Z_dec": (
        "putnam_2015_a2",
        FIND.format(test="match Z_dec (Z.of_nat n) 181 with inleft _ => false | inright _ => true end", upto=200),
    ),
    "2003_a1 piecewise by lt_eq_lt_dec": (
        "putnam_2003_a1",
        "fun n : nat => match lt_eq_lt_dec n 0 with inleft (left _) => 0 | inleft (right _) => 0 | inright _ => n end",
    ),
    "1965_a5 is_left in an exponent": (
        "putnam_1965_a5",
        "fun n => 2 ^ (match List.find (fun k => is_left (Nat.eq_dec (S k) n)) (List.seq 0 n) "
        "with Some k => k | None => 0 end)",
    ),
    "1998_b5 lt_eq_lt_dec nested": (
        "putnam_1998_b5",
        FIND.format(test="match lt_eq_lt_dec n 1 with inleft (right _) => true | _ => false end", upto=5),
    ),
    "1995_b4 is_left of Z_lt_dec": (
        "putnam_1995_b4",
        "(3%Z, 1%Z, 5%Z, Z.of_nat (" + FIND.format(test="is_left (Z_lt_dec 1 (Z.of_nat n))", upto=5) + "))",
    ),
}
"""(problem, answer): each the official value, by a computable decision nested or consumed."""
LIBRARIES = {"putnam_2015_a2": "ZArith", "putnam_1965_a5": "ssrbool", "putnam_1995_b4": "ZArith ssrbool"}
"""What the candidate ``Require``s besides ``Arith``, where the statement does not load it."""


def _pinned(problem_id: str, answer: str) -> str:
    own = f"From Coq Require Import Arith {LIBRARIES.get(problem_id, '')}.\n".replace(" .", ".")
    return answered(problem_id, answer).replace(
        f"Definition {problem_id}_solution", f"{own}Definition {problem_id}_solution", 1
    )


@needs_coq
@pytest.mark.parametrize(
    ("problem_id", "answer"),
    sampled(PINNED, {"2017_b2 MathComp's coercion", "2015_b5 lt_eq_lt_dec nested"}),
)
def test_a_computable_decision_nested_or_consumed_is_an_answer(problem_id: str, answer: str) -> None:
    result = g4(problem_id, _pinned(problem_id, answer))
    assert result.status is GateStatus.PASSED, result.detail


PROBLEM = "zz_rt43"
HEADER = "Require Import Reals List Arith ZArith Bool Sumbool.\nFrom Coq Require Import ssrbool.\nOpen Scope R_scope.\n"
"""Coq's reals with the standard library's decisions and their consumers."""


def _statement(value: int) -> str:
    theorem = f"Theorem {PROBLEM} : {PROBLEM}_solution = ({PROBLEM}_solution + 0)%nat.\n"
    return f"{HEADER}Definition {PROBLEM}_solution : nat := {value}.\n{theorem}"


def _candidate(test: str, value: int, extra: str = "", proof: str = "rewrite Nat.add_0_r. reflexivity. Qed.") -> str:
    answer = FIND.format(test=test, upto=10)
    statement = _statement(value).replace(
        f"Definition {PROBLEM}_solution : nat := {value}.", f"{extra}Definition {PROBLEM}_solution : nat := {answer}."
    )
    return f"{statement}Proof. {proof}\n"


def _verdict(tmp_path: Path, value: int, candidate: str, profile: Profile = Profile.FAST) -> Verdict:
    bench = one_record_benchmark(tmp_path, PROBLEM, f"{_statement(value)}Proof. Admitted.\n")
    options = VerifyOptions(profile=profile, keep_going=True)
    return run_gates(get_prover("rocq"), bench, bench.problems[PROBLEM], candidate.encode(), Track.NO_ANSWER, options)


CUSTOM = {
    "is_left of Nat.eq_dec": ("is_left (Nat.eq_dec n 4)", 4),
    "sumbool_rec of Nat.eq_dec": ("sumbool_rec (fun _ => bool) (fun _ => true) (fun _ => false) (Nat.eq_dec n 4)", 4),
    "is_inleft of lt_eq_lt_dec": ("is_inleft (lt_eq_lt_dec 6 n)", 6),
    "lt_eq_lt_dec nested": (
        "match lt_eq_lt_dec n 4 with inleft (left _) => false | inleft (right _) => true | inright _ => false end",
        4,
    ),
    "is_left of a nested pattern's variable": (
        "match Z_dec (Z.of_nat n) 3 with inleft s => is_left s | inright _ => false end",
        0,
    ),
    "sumor_rec of lt_eq_lt_dec": (
        "sumor_rec (fun _ => bool) (fun s => negb (is_left s)) (fun _ => false) (lt_eq_lt_dec n 7)",
        7,
    ),
}
"""(test, the least ``n`` below 10 passing it): searches by a computable decision, nested or consumed."""


@needs_coq
@pytest.mark.parametrize(("test", "value"), sampled(CUSTOM, {"sumbool_rec of Nat.eq_dec"}))
def test_a_search_by_a_consumed_decision_passes(tmp_path: Path, test: str, value: int) -> None:
    verdict = _verdict(tmp_path, value, _candidate(test, value))
    assert not failures(verdict), failures(verdict)


PROVED = {k: CUSTOM[k] for k in ("is_left of Nat.eq_dec", "lt_eq_lt_dec nested")}


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize(("test", "value"), list(PROVED.values()), ids=list(PROVED))
def test_a_consumed_decision_computes_the_value_the_answer_check_compares(
    tmp_path: Path, test: str, value: int
) -> None:
    """Proved by computation, on the full profile: accepted, and the answer check finds the official value."""
    verdict = _verdict(tmp_path, value, _candidate(test, value), Profile.FULL)
    assert verdict.accepted, failures(verdict)
    assert verdict.answers[f"{PROBLEM}_solution"]["check"]["status"] == "confirmed", verdict.answers


CLASSICAL = "Require Import Coq.Logic.ClassicalEpsilon.\n"
"""What a classical decision needs loaded (the candidate's own ``Require``)."""
_EM = "excluded_middle_informative"
ATTACKS = {
    "is_left of Rlt_dec": ("is_left (Rlt_dec (INR n) 4)", "Rlt_dec"),
    "sumbool_rec of Rle_dec": (
        "sumbool_rec (fun _ => bool) (fun _ => true) (fun _ => false) (Rle_dec 4 (INR n))",
        "Rle_dec",
    ),
    "bool_of_sumbool of Rle_dec": ("let (b, _) := bool_of_sumbool (Rle_dec 4 (INR n)) in b", "exist"),
    "is_inleft of total_order_T": ("is_inleft (total_order_T (INR n) 4)", "total_order_T"),
    "total_order_T nested": (
        "match total_order_T (INR n) 4 with inleft (left _) => false | inleft (right _) => true "
        "| inright _ => false end",
        "total_order_T",
    ),
    "is_left of Req_EM_T": ("is_left (Req_EM_T (INR n) 4)", "Req_EM_T"),
    "an undecided index inside a consumed decision": ("is_left (Nat.eq_dec (Z.to_nat (up (INR n / 4))) 1)", "up"),
    "a nested variable shadowed by a let of a real decision": (
        "match lt_eq_lt_dec n 4 with inleft _ => (let s := Rlt_dec (INR n) 4 in match s with left _ => true "
        "| right _ => false end) | inright _ => false end",
        "s",
    ),
    "is_left of excluded_middle_informative": (f"is_left ({_EM} (exists k, (k * k)%nat = n))", _EM),
    "sumor_rec around a classical decision": (
        "sumor_rec (fun _ => bool) (fun s => is_left s) (fun _ => false) "
        f"(match {_EM} (n = 4%nat) with left _ => inleft (left I) | right _ => inright I end)",
        _EM,
    ),
}
"""(test, the name G4 gives): the shapes the fix reads, around a decision no computation evaluates (each over
a bound ``n``; a classical one with :data:`CLASSICAL` loaded by the candidate)."""


@needs_coq
@pytest.mark.parametrize(
    ("test", "name"), sampled(ATTACKS, {"is_left of Rlt_dec", "a nested variable shadowed by a let of a real decision"})
)
def test_the_same_shapes_around_an_undecided_decision_are_refused(tmp_path: Path, test: str, name: str) -> None:
    extra = CLASSICAL if _EM in test else ""
    found = failures(_verdict(tmp_path, 4, _candidate(test, 4, extra)))
    assert "G4" in found and name in found["G4"], found


SHORTER = "\n  (shorter name to refer to it in current context is {})\n"
LOCATED = (
    f"{MARKER}{DECISIONS}\nConstant Coq.Arith.PeanoNat.Nat.eq_dec{SHORTER.format('Nat.eq_dec')}"
    f"Constant Coq.Arith.Compare_dec.lt_eq_lt_dec{SHORTER.format('lt_eq_lt_dec')}"
    f"Constant Coq.ssr.ssrbool.is_left{SHORTER.format('is_left')}"
)
"""What ``Locate`` says of a computable decision, a three-way one and a consumer (by their shortest names)."""
NESTED = (
    "match lt_eq_lt_dec n O return bool with | inleft s => match s return bool with | left _ => true "
    "| right _ => false end | inright _ => false end"
)
PRINTS = {
    "a nested pattern": (LOCATED, NESTED, []),
    "a nested pattern, the decision not located": ("", NESTED, ["lt_eq_lt_dec", "s"]),
    "the variable bound again by a fun": (
        LOCATED,
        NESTED.replace("match s return", "(fun s : sumbool True True => match s return") + ") x",
        ["s"],
    ),
    "is_left of a computable decision": (LOCATED, "@is_left (@eq nat n O) (not (@eq nat n O)) (Nat.eq_dec n O)", []),
    "is_left, the consumer not located": (
        "",
        "@is_left (@eq nat n O) (not (@eq nat n O)) (Nat.eq_dec n O)",
        ["is_left"],
    ),
    "is_left of a bound decision": (LOCATED, "@is_left (@eq nat n O) (not (@eq nat n O)) (d n O)", ["is_left"]),
    "is_inleft of a bound decision": (LOCATED, "@is_inleft (lt n O) (@eq nat n O) (d n O)", ["is_inleft"]),
    "is_left over-applied": (LOCATED, "@is_left (@eq nat n O) (not (@eq nat n O)) (Nat.eq_dec n O) n", ["is_left"]),
    "a let-bound is_left": (
        LOCATED,
        "let is_left := fun _ : nat => true in @is_left (@eq nat n O) (not (@eq nat n O)) (Nat.eq_dec n O)",
        ["is_left"],
    ),
}
"""(what ``Locate`` said, the test in a print of a search, the names G4 reads as searches)."""


@pytest.mark.parametrize(("located", "test", "names"), list(PRINTS.values()), ids=list(PRINTS))
def test_a_consumed_or_nested_decision_computes_by_its_located_spelling(
    located: str, test: str, names: list[str]
) -> None:
    body = f"@find nat (fun n : nat => {test}) l"
    output = f"{located}{MARKER}\nzz_rt43_solution = {body}\n     : nat\n"
    assert searched_tests(output, MARKER) == names


MEMBER_ANSWER = "fun a b c d => a \\in [set a' : R | {condition}]"
COPIED = MEMBER_ANSWER.format(condition="a' + b + c = d /\\ 1 / a' + 1/b + 1/c = 1/d")
"""``putnam_1977_a2`` (a MathComp statement that loads ``reals``, so ``classical_sets``, without spelling it)
answered with its question's condition as a membership in a set-builder, the candidate importing
``classical_sets`` for its notation: before, it passed G4 (the membership never rewritten)."""
HONEST = MEMBER_ANSWER.format(condition="(c = -a' /\\ d = b) \\/ (c = -b /\\ d = a')")
"""The official condition so written: no copy."""
CLASSICAL_SETS = "From mathcomp Require Import classical_sets.\nLocal Open Scope classical_set_scope.\n"


def _member(answer: str) -> str:
    pid = "putnam_1977_a2"
    return answered(pid, answer).replace(f"Definition {pid}_solution", f"{CLASSICAL_SETS}Definition {pid}_solution", 1)


@needs_coq
@pytest.mark.slow
def test_a_copy_as_a_membership_is_read_by_what_the_file_loads() -> None:
    result = g4("putnam_1977_a2", _member(COPIED))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


@needs_coq
@pytest.mark.slow
def test_the_official_condition_as_a_membership_is_read_as_the_official_answer() -> None:
    """Rewritten, it is the official answer, whose step costs what the official's does (on a loaded host both
    can reach the step's 20 s, an ``error``): never refused as a copy."""
    result, official_result = g4("putnam_1977_a2", _member(HONEST)), g4("putnam_1977_a2", official("putnam_1977_a2"))
    assert result.status is official_result.status and result.status is not GateStatus.FAILED, result.detail


SPELLED = "Require Import Arith.\n(* Reals, mathcomp and classical_sets are named here, not loaded *)\n"
DOUBLE = "Definition t_solution : nat := {answer}.\nTheorem t : Nat.double 21 = t_solution.\nProof. Admitted.\n"


@needs_coq
@pytest.mark.parametrize("answer", ["42", "id 42"])
def test_a_library_the_statement_names_but_does_not_load_is_no_error(tmp_path: Path, answer: str) -> None:
    """Before, the check named ``Coq.Reals.Ranalysis1.id`` and ``ssrfun.idfun`` because the text said
    ``Reals`` and ``mathcomp``: Coq could not find them, and the step stopped (an ``error``)."""
    bench = one_record_benchmark(tmp_path, "t", SPELLED + DOUBLE.format(answer="42"))
    options = VerifyOptions(profile=Profile.FAST)
    candidate = (SPELLED + DOUBLE.format(answer=answer)).replace("Admitted.", "reflexivity. Qed.")
    result = compile_gate(rocq_submission(bench, "t", candidate, Track.NO_ANSWER, options=options))
    assert result.status is GateStatus.PASSED, result.detail
