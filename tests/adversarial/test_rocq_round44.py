"""Round 44 on the Rocq no-answer answer checks: libraries by what is loaded, honest decisions, eta copies.

Measured with coqc 8.16.1, mathcomp 1.15, mathcomp-analysis 0.6.0 (before: this file against the sources of
the round's start; after: with the fixes).

**1. Two answer checks switched by the statement's text (soundness).** Round 43 made the restatement
check's unfoldings follow what the check's file has loaded (``loaded_unfold.py``); two switches still read
the statement's text:

- ``restated.mathcomp_facts`` loaded MathComp's numbers (``Require mathcomp.algebra.ssrnum``) for
  ``FACT_TACTIC`` only where the text said ``mathcomp``. ``putnam_2019_a1`` loads MathComp's ``ssreflect``
  through Coquelicot without the word; its question copied beside ``0 <= (Posz (Z.to_nat n) + Negz 0) ^+ 2``
  (the candidate ``Require``-ing ``ssrnum`` itself, a permitted addition) passed G4: the fact was never
  decided, so the copy never showed. Now the lemmas are looked up by Ltac2's ``Env.get`` when the tactic
  runs (``loaded_facts.py``), the same definition for every statement. Before: the attack passed G4; after:
  refused ("restates the question"). Its honest twin (the official set beside the same fact) passes before
  and after; a statement naming MathComp only in a comment no longer loads it, and its honest answer passes
  (before and after; before, the check's file loaded ``ssrnum`` for nothing).
- ``answer_sets.member_points`` unfolded MathComp's and Ensembles' membership wrappers (``mkset``, ``In``...)
  before deciding a point only where the text spelled ``classical_sets``/``Ensembles``: where neither was
  spelled but one was loaded (``Rstruct`` loads ``classical_sets``), a set answer apart from the official one
  at a point was never refuted (``unknown``: a wrong answer proved unsoundly stays ``accepted``); where one
  was spelled in a comment and not loaded, the attempt's ``Ltac`` named a missing constant and the file
  stopped (an ``unknown`` for every answer). Now the attempt reads membership by the loaded tactics
  (``loaded_unfold``'s ``membership``). Before: 0 of 2 refuted (one not decided, one a stopped file); after:
  2 of 2; two sets equal at every point are not refuted after (before, the same stopped file).

**2. Honest decisions refused (false rejections).** ``in_dec``, ``list_eq_dec`` (``Lists/List.v`` 329-338,
1020-1021), ``Zdivide_dec``, ``rel_prime_dec`` (``ZArith/Znumtheory.v`` 112-121, 887-893) are ``Defined``
and compute (``vm_compute`` asked below); a consumer mapped over a written list of computable decisions
(``map is_left [Nat.eq_dec n 4; ..]``) applies it to each. Listed now (``decision_names.py``, split from
``answer_tests.py``), and ``map`` (``List.map``, ``seq.map``) located as the decisions are. Before: 5 of 5
honest searches refused by G4; after: 5 of 5 pass. ``Znumtheory.prime_dec`` is ``Defined`` but stops at
``Wf_Z.natlike_rec`` (a ``Qed``): it does not compute, is not listed, and a search by it stays refused.
Attacks (the same consumers around ``Req_EM_T``/``Rlt_dec``, ``prime_dec``): 4 of 4 refused before and
after. Prints read by the rule (a written list of a located decision: refused before, computes after; a list
variable, an unlocated ``map``, a bound decision in the list: refused before and after).

**3. A copy up to eta (soundness).** ``unfolded.py``'s lazy conversion had no eta rule: ``fun n => Nat.pow 2
n`` for the question ``Nat.pow 2`` (``Nat.pow`` unfolds to a ``fix``, which the check never runs, so the two
met as a ``fun`` against an application) passed G4 with a real proof. Now a side that is a ``fun`` whose
body applies a term not naming the bound variable to it is read as that term (eta), and the equation is
closed by ``reflexivity`` on sides identical up to eta. Before: 2 of 2 eta copies passed; after: 2 of 2
refused; an honest value (``fun n => Nat.shiftl 1 n``) passes before and after. A predicate answer up to
eta, or a copy of a theorem's function variable up to eta, was already refused (extensionality, logic).
A copy wrapped in a non-recursive ``fix`` is not convertible without case analysis; on Coq 8.16 every
candidate ``fix`` is refused by the kernel-bug rule (G3, G5), checked below.

**Left.** ``answers.check_source``'s choice of Coq's reals (``R`` points, the third attempt) still reads the
words ``Reals``/``Coquelicot``; a ``fix``-wrapped copy passes G4 where recursion is allowed
(``--allow-recursion``); a mapped consumer over a list that is not written out (``map is_left l``) stays a
consumer of what it is applied to.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq.answer_tests import searched_tests
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.decision_names import DECISIONS, ELEMENT_DECISIONS
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, VerifyOptions
from tests.adversarial.test_rocq_falserej31 import point_run
from tests.adversarial.test_rocq_falserej43 import CLASSICAL, _candidate, _verdict
from tests.adversarial.test_rocq_redteam38_tests import MARKER
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4
from tests.helpers import failures, needs_coq, one_record_benchmark, rocq_full_verdict, rocq_submission, sampled

# 1. MathComp's facts by what is loaded

MATHCOMP = "From mathcomp Require Import ssreflect ssrbool ssralg ssrnum ssrint.\n"
"""The candidate's own ``Require`` of MathComp's numbers (the statement loads only its ``ssreflect``)."""
SQUARE = "is_true (Num.le (Posz 0) (GRing.exp (GRing.add (Posz (Z.to_nat n)) (Negz 0)) 2))"
"""A true fact on the answer's variable that only MathComp's ``sqr_ge0`` decides (no computation, no
``auto``)."""
COPY_2019 = "exists (A B C: Z), A >= 0 /\\ B >= 0 /\\ C >= 0 /\\ A ^ 3 + B ^ 3 + C ^ 3 - 3 * A * B * C = n"
FACTS = {
    "the copy beside a MathComp square": (f"fun n => {SQUARE} /\\ {COPY_2019}", True),
    "the official set beside it": (f"fun n => {SQUARE} /\\ Z.ge n 0 /\\ n mod 9 <> 3 /\\ n mod 9 <> 6", False),
}


def _judged(result: GateResult, copy: bool) -> None:
    """A copy refused as restating the question, an honest answer passed."""
    if copy:
        assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail
    else:
        assert result.status is GateStatus.PASSED, result.detail


@needs_coq
@pytest.mark.parametrize(("answer", "copy"), sampled(FACTS, set(FACTS)))
def test_mathcomp_facts_are_those_the_file_loads(answer: str, copy: bool) -> None:
    pid = "putnam_2019_a1"
    text = answered(pid, answer).replace(f"Definition {pid}_solution", f"{MATHCOMP}Definition {pid}_solution", 1)
    _judged(g4(pid, text), copy)


NAMED = (
    "Require Import ZArith.\n(* mathcomp, classical_sets and Ensembles are named here, not loaded *)\n"
    "Open Scope Z_scope.\nDefinition t_solution : Z -> Prop := {answer}.\n"
    "Theorem t : forall n : Z, (exists k, n = 3 * k + 1) <-> t_solution n.\n"
)


def _custom_g4(statement: str, official: str, answer: str, proof: str = "Proof. Admitted.\n") -> GateResult:
    """G4 on the custom ``statement`` (its official answer ``official``) answered with ``answer``."""
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "t", statement.format(answer=official) + "Proof. Admitted.\n"
    )
    candidate = statement.format(answer=answer) + proof
    options = VerifyOptions(profile=Profile.FAST)
    return compile_gate(rocq_submission(bench, "t", candidate, Track.NO_ANSWER, options=options))


@needs_coq
@pytest.mark.slow
def test_a_library_named_in_a_comment_leaves_an_honest_set_answer_alone() -> None:
    result = _custom_g4(NAMED, "fun n => n mod 3 = 1", "fun n => Z.modulo n 3 = 1")
    assert result.status is GateStatus.PASSED, result.detail


# 1b. The answer check's points by what is loaded

MEMBERS = {
    "classical_sets loaded through Rstruct, unspelled": (
        "Require Import Reals.\nFrom mathcomp Require Rstruct.\n",
        "R -> Prop",
        "fun x => (x < 1)%R",
        "mathcomp.classical.classical_sets.mkset (fun x => (x < 1 / 2)%R)",
        True,
    ),
    "classical_sets and Ensembles named in a comment, not loaded": (
        "Require Import Arith.\n(* classical_sets and Ensembles are named here, not loaded *)\n",
        "nat -> Prop",
        "fun n => n = 1 \\/ n = 7",
        "fun n => n = 1",
        True,
    ),
    "equal sets, a library named in a comment": (
        "Require Import Arith.\n(* classical_sets is named here *)\n",
        "nat -> Prop",
        "fun n => n = 1 \\/ n = 7",
        "fun n => n = 7 \\/ n = 1",
        False,
    ),
}
"""(libraries, declared type, official answer, candidate's answer, whether a point refutes their equality)."""


@needs_coq
@pytest.mark.parametrize(
    ("libraries", "declared", "theirs", "ours", "apart"),
    sampled(MEMBERS, {"classical_sets and Ensembles named in a comment, not loaded"}),
)
def test_the_points_read_membership_by_what_the_file_loads(
    tmp_path: Path, libraries: str, declared: str, theirs: str, ours: str, apart: bool
) -> None:
    run = point_run(tmp_path, libraries, declared, theirs, ours)
    assert (run.returncode == 0) is apart and (apart or "No applicable tactic" in run.stderr), run.stderr[-2000:]


# 2. Honest decisions

SEARCHES = {
    "is_left of in_dec": ("is_left (in_dec Nat.eq_dec n (3%nat :: 5%nat :: nil))", 3, ""),
    "a match on in_dec": ("if in_dec Nat.eq_dec n (6%nat :: nil) then true else false", 6, ""),
    "is_left of list_eq_dec": ("is_left (list_eq_dec Nat.eq_dec (n :: nil) (4%nat :: nil))", 4, ""),
    "Zdivide_dec": ("if Zdivide_dec 3 (Z.of_nat n + 1) then true else false", 2, "Require Import Znumtheory.\n"),
    "map is_left over a written list": (
        "existsb (fun b => b) (map is_left (Nat.eq_dec n 4 :: Nat.eq_dec n 4 :: nil))",
        4,
        "",
    ),
}
"""(test, the least ``n`` below 10 passing it, the candidate's own ``Require``): searches by a decision that
computes."""


@needs_coq
@pytest.mark.parametrize(("test", "value", "extra"), sampled(SEARCHES, {"is_left of in_dec"}))
def test_a_search_by_a_computable_list_decision_passes(tmp_path: Path, test: str, value: int, extra: str) -> None:
    """(A ``Require Import`` of the candidate's before the theorem is G2's on the fast profile: G4 alone here.)"""
    found = failures(_verdict(tmp_path, value, _candidate(test, value, extra)))
    assert "G4" not in found and (extra or not found), found


NEAR_MISSES = {
    "in_dec of Req_EM_T": ("is_left (in_dec Req_EM_T (INR n) (4 :: nil))", "Req_EM_T", ""),
    "list_eq_dec of Req_EM_T": ("is_left (list_eq_dec Req_EM_T (INR n :: nil) (4 :: nil))", "Req_EM_T", ""),
    "map is_left over Rlt_dec": (
        "existsb (fun b => b) (map is_left (Rlt_dec (INR n) 4 :: nil))",
        "is_left",
        "",
    ),
    "is_left of prime_dec": ("is_left (prime_dec (Z.of_nat n))", "is_left", "Require Import Znumtheory.\n"),
}
"""(test, the name G4 gives, the candidate's own ``Require``): the same consumers around a decision no
computation evaluates."""


@needs_coq
@pytest.mark.parametrize(("test", "name", "extra"), sampled(NEAR_MISSES, {"in_dec of Req_EM_T"}))
def test_the_same_consumers_around_an_undecided_decision_are_refused(
    tmp_path: Path, test: str, name: str, extra: str
) -> None:
    found = failures(_verdict(tmp_path, 4, _candidate(test, 4, extra + (CLASSICAL if "_EM" in test else ""))))
    assert "G4" in found and name in found["G4"], found


SHORTER = "\n  (shorter name to refer to it in current context is {})\n"
LOCATED = (
    f"{MARKER}{DECISIONS}\nConstant Coq.Arith.PeanoNat.Nat.eq_dec{SHORTER.format('Nat.eq_dec')}"
    f"Constant Coq.ssr.ssrbool.is_left{SHORTER.format('is_left')}"
    f"Constant Coq.Lists.List.map{SHORTER.format('map')}"
)
EQ = "(@eq nat n O) (not (@eq nat n O))"
MAPPED = f"@map (sumbool {EQ}) bool (@is_left {EQ}) {{list}}"
PRINTS = {
    "a written list of a located decision": (
        LOCATED,
        f"(@cons (sumbool {EQ}) (Nat.eq_dec n O) (@nil (sumbool {EQ})))",
        [],
    ),
    "a list variable": (LOCATED, "l", ["is_left"]),
    "map not located": (
        LOCATED.replace("Coq.Lists.List.map", "Coq.Lists.List.other"),
        "(@nil (sumbool X Y))",
        ["is_left"],
    ),
    "a written list of a bound decision": (
        LOCATED,
        f"(@cons (sumbool {EQ}) (d n O) (@nil (sumbool {EQ})))",
        ["is_left"],
    ),
}
"""(what ``Locate`` said, the mapped list in a print of a search, the names G4 reads as searches)."""


@pytest.mark.parametrize(("located", "mapped", "names"), list(PRINTS.values()), ids=list(PRINTS))
def test_a_consumer_mapped_over_a_written_list_computes(located: str, mapped: str, names: list[str]) -> None:
    test = f"@existsb bool (fun b : bool => b) ({MAPPED.format(list=mapped)})"
    body = f"@find nat (fun n : nat => {test}) l"
    output = f"{located}{MARKER}\nzz_rt43_solution = {body}\n     : nat\n"
    assert searched_tests(output, MARKER) == names


@needs_coq
@pytest.mark.slow
def test_the_list_decisions_compute(tmp_path: Path) -> None:
    """Each listed list decision reduces by ``vm_compute``, and ``prime_dec`` does not (so it is not listed)."""
    lines = ["Require Import Arith ZArith List Znumtheory."]
    lines += [
        f"Eval vm_compute in (if {test} then 1 else 0)."
        for test in ("in_dec Nat.eq_dec 3%nat (3%nat :: nil)", "list_eq_dec Nat.eq_dec (3%nat :: nil) (3%nat :: nil)")
    ]
    lines += ["Eval vm_compute in (if prime_dec 7 then true else false)."]
    (tmp_path / "d.v").write_text("\n".join(lines) + "\n")
    out = subprocess.run(["coqc", "d.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert out.returncode == 0 and out.stdout.count("= 1\n") == len(ELEMENT_DECISIONS), out.stdout[-2000:]
    assert "natlike_rec" in out.stdout, out.stdout[-2000:]


# 3. Copies up to eta

POW = "Require Import Arith.\nDefinition t_solution : nat -> nat := {answer}.\nTheorem t : Nat.pow 2 = t_solution.\n"
REFL = "Proof. unfold t_solution; reflexivity. Qed.\n"
ETA = {
    "eta-expanded": ("fun n => Nat.pow 2 n", True),
    "eta-expanded through a beta-redex": ("fun n => (fun m => Nat.pow 2 m) n", True),
    "an honest value": ("fun n => Nat.shiftl 1 n", False),
}


@needs_coq
@pytest.mark.parametrize(("answer", "copy"), sampled(ETA, {"eta-expanded", "an honest value"}))
def test_a_copy_up_to_eta_is_refused(answer: str, copy: bool) -> None:
    _judged(_custom_g4(POW, "fun n => 2 ^ n", answer, REFL if copy else "Proof. Admitted.\n"), copy)


FIXQ = (
    "Require Coq.Logic.FunctionalExtensionality.\nRequire Import Arith.\nDefinition t_solution : nat -> nat := "
    "{answer}.\nTheorem t (g : nat -> nat := fun n => 3 * n + 1) : (fun n => g n) = t_solution.\n"
)
FIX_PROOF = (
    "Proof. unfold t_solution. assert (forall n, 3 * n + 1 = (fix h (n : nat) : nat := 3 * n + 1) n) as E "
    "by (intros [|n]; reflexivity). exact (Coq.Logic.FunctionalExtensionality.functional_extensionality _ _ E). Qed.\n"
)


@needs_coq
@pytest.mark.slow
def test_a_copy_in_a_non_recursive_fix_is_refused_as_recursion() -> None:
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "t", FIXQ.format(answer="fun n => 3 * n + 1") + "Proof. Admitted.\n"
    )
    verdict = rocq_full_verdict(
        bench, "t", FIXQ.format(answer="fix h (n : nat) : nat := 3 * n + 1") + FIX_PROOF, Track.NO_ANSWER
    )
    assert not verdict.accepted and {"G3", "G5"} <= failures(verdict).keys(), failures(verdict)
