"""Round 47 on the Rocq no-answer answer checks: ``fix`` copies, opaque values, mapped lists, the reals' guard.

Measured with coqc 8.16.1, mathcomp 1.15, mathcomp-analysis 0.6.0 (before: this file against the sources of
the round's start; after: with the fixes).

**1. A copy inside a ``fix`` that never recurses (soundness, ``--allow-recursion``).** ``unfolded.py``'s
lazy conversion never runs a ``fix`` (nothing recursive may evaluate the statement's arithmetic), and a
``fix`` applied to a variable does not reduce: ``fix h (n : nat) : nat := 3 * n + 1`` for the question ``fun n
=> 3 * n + 1`` met the question as a different term, and so did a copy of ``putnam_1962_a5``'s sum, of
``putnam_2020_a2``'s, an identity ``fix`` inside the sum's bound, and (in the logic step) ``putnam_2019_a1``'s
condition inside a ``fix`` over ``Z``. On Coq 8.16 the kernel-bug rule refuses every candidate ``fix``; where
the user lifts it, each passed G4 with a real proof (one case analysis). Now a fixpoint whose body names none
of its own functions (asked of Coq, as eta's occurrence is) is read as its body, and the reading is proved
(pointwise, each fixpoint's variable taken case by case); where that proof fails (a fixpoint under a binder
of the answer) the check stopped with an ``error`` (round 50: a refusal, the reading being true on every
value). In the logic step each fixpoint applied to the point is
taken case by case. Before: 6 of 6 attacks passed G4; after: 5 refused ("restates the question"), 1 an
``error``. Honest twins (a recursive ``fix``, official answers inside a ``fix`` that never recurses): 4 of 4
pass before and after.

**2. Values no computation reaches (soundness, new classes).** On a vacuous statement (every answer
provable), a wrong ``4`` for ``3`` behind a ``match`` on a ``Qed`` proof (of an equation, of an ``iff``), a
transport along one (``eq_rect``), or ssreflect's ``locked`` was accepted with the answer check ``unknown``.
G4 now refuses a value answer that takes a proof of ``eq``/``and``/``True`` apart, and any answer naming a
transport, absurdity or ssreflect's lock (``answer_tests.OPAQUE_STEPS``). Before: 4 of 4 accepted; after: 4
of 4 rejected. Tried and already ``disputed`` before and after: ``let``, ``Basics.compose id id``, a wildcard
``match`` on proofs; ``proj1_sig (exist ..)`` already refused; the honest ``let x := 2 in x + 1`` accepted.

**3. A consumer mapped over a list that is not written out (false rejection).** ``map is_left l`` over a
``let``-bound list of computable decisions, or over a ``map`` of a computable decision, was read as a consumer
of unknown decisions and refused by G4. Before: 0 of 2 honest searches passed, prints 5 of 9 read as
expected; after: 2 of 2, 9 of 9; the near misses refused before and after.

**4. The reals' attempts (speed, and reals the candidate loads).** The guard now comes after both modules are
loaded (reals the candidate loads count), and a second guard stops the file where Coq shows the answers' type
free of Coq's ``R``, ``Z`` and ``nat``: 9 of the 14 pinned ``realType`` statements that load Coq's reals now
skip the attempts (the other 43: 41 load no reals, 2 do not compile here). Both questions are also asked,
without stopping, in the second attempt's file (``loaded_reals.query``), so where it says no the reals files
are not built at all. On a vacuous ``realType`` statement with ``Rstruct``, an undecided answer's check took
20.2 s and 14.2 s before, 5.0 s and 5.5 s after; without ``Rstruct`` the stopped file (2.4-3.0 s) is gone.
"""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest

from putnam_solver.core.provers.rocq import answers
from putnam_solver.core.provers.rocq.answer_tests import searched_tests
from putnam_solver.core.provers.rocq.build import Built
from putnam_solver.core.provers.rocq.compile import compile_gate
from putnam_solver.core.provers.rocq.loaded_reals import (
    NOT_LOADED,
    QUERY,
    QUERY_END,
    TYPE_LINE,
    UNREADABLE,
    answered_no,
    stopped_at_guard,
    type_guard,
)
from putnam_solver.core.sandbox import SandboxResult
from putnam_solver.core.verify import GateResult, GateStatus, Profile, Track, Verdict
from putnam_solver.verifier.options import GateFlags
from tests.adversarial.test_rocq_falserej43 import _candidate, _verdict
from tests.adversarial.test_rocq_redteam38_tests import MARKER
from tests.adversarial.test_rocq_restated import RESTATES, answered
from tests.adversarial.test_rocq_round44 import EQ, FIX_PROOF, FIXQ, LOCATED, MAPPED
from tests.helpers import (
    COQ_BENCH,
    failures,
    needs_coq,
    one_record_benchmark,
    pinned,
    rocq_full_verdict,
    rocq_submission,
    sampled,
    spied_answer_builds,
)

# 1. Copies inside a fix that never recurses

ALLOWED = GateFlags(profile=Profile.FAST, allow_recursion=True).options()
"""G4 where the user lifted the kernel-bug rule (the one setting in which a candidate ``fix`` compiles)."""


def _custom(answer: str, proof: str) -> GateResult:
    """G4 on round 44's custom question ``fun n => 3 * n + 1`` answered with ``answer``."""
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "t", FIXQ.format(answer="fun n => 3 * n + 1") + "Proof. Admitted.\n"
    )
    return compile_gate(
        rocq_submission(bench, "t", FIXQ.format(answer=answer) + proof, Track.NO_ANSWER, options=ALLOWED)
    )


def _pinned(problem_id: str, answer: str, proof: str) -> GateResult:
    text = answered(problem_id, answer, proof)
    return compile_gate(rocq_submission(pinned(COQ_BENCH), problem_id, text, Track.NO_ANSWER, options=ALLOWED))


CASES_PROOF = "Proof. intros n _. unfold putnam_1962_a5_solution. destruct n; reflexivity. Qed."
COPY_2019 = "exists (A B C: Z), A >= 0 /\\ B >= 0 /\\ C >= 0 /\\ A ^ 3 + B ^ 3 + C ^ 3 - 3 * A * B * C = m"
PROOF_2019 = (
    "Proof. apply Extensionality_Ensembles; split; intros n H; unfold In, putnam_2019_a1_solution in *; "
    "destruct n; apply hA; assumption. Qed."
)
FIXED = {
    "a custom question": (None, "fix h (n : nat) : nat := 3 * n + 1", FIX_PROOF, RESTATES),
    "1962_a5's sum": (
        "putnam_1962_a5",
        "fun n : nat => (fix h (m : nat) : nat := \\sum_(1 <= k < m.+1) (binomial m k * k ^ 2)) n",
        CASES_PROOF,
        RESTATES,
    ),
    "an identity fix inside 1962_a5's sum": (
        "putnam_1962_a5",
        "fun n : nat => \\sum_(1 <= k < ((fix h (m : nat) : nat := m) n).+1) (binomial n k * k ^ 2)",
        CASES_PROOF,
        RESTATES,
    ),
    "2020_a2's sum": (
        "putnam_2020_a2",
        "fix h (k : nat) : R := sum_n (fun j => 2 ^ (k - j) * Binomial.C (k + j) j) k",
        "Proof. unfold putnam_2020_a2_solution. apply Coq.Logic.FunctionalExtensionality.functional_extensionality; "
        "intros [|k]; reflexivity. Qed.",
        RESTATES,
    ),
    "2019_a1's condition over Z": (
        "putnam_2019_a1",
        f"fun n => (fix h (m : Z) : Prop := {COPY_2019}) n",
        PROOF_2019,
        RESTATES,
    ),
    "a fix under the answer's binder": (
        "putnam_2020_a2",
        "fun k => sum_n (fun j => (fix h (m : nat) : R := 2 ^ (k - m) * Binomial.C (k + m) m) j) k",
        "Proof. Admitted.",
        RESTATES,
    ),
}
"""(pinned problem or the custom question, answer, the attacker's proof, what G4 says): copies through a ``fix``
whose body never names it."""


@needs_coq
@pytest.mark.parametrize(
    ("problem", "answer", "proof", "said"), sampled(FIXED, {"a custom question", "2019_a1's condition over Z"})
)
def test_a_copy_inside_a_fix_that_never_recurses_is_refused(
    problem: str | None, answer: str, proof: str, said: str
) -> None:
    result = _custom(answer, proof) if problem is None else _pinned(problem, answer, proof)
    assert result.status is GateStatus.FAILED, result.detail
    assert said in result.detail, result.detail


HONEST_FIXES = {
    "a recursive fix": (None, "fix h (n : nat) : nat := match n with 0 => 1 | S m => h m + 3 end"),
    "1962_a5's official answer in a fix": ("putnam_1962_a5", "fix h (n : nat) : nat := n * (n + 1) * 2 ^ (n - 2)"),
    "2020_a2's official answer in a fix": ("putnam_2020_a2", "fix h (k : nat) : R := 4 ^ k"),
    "2019_a1's official condition in a fix": (
        "putnam_2019_a1",
        "fun n => (fix h (m : Z) : Prop := Z.ge m 0 /\\ m mod 9 <> 3 /\\ m mod 9 <> 6) n",
    ),
}


@needs_coq
@pytest.mark.parametrize(
    ("problem", "answer"), sampled(HONEST_FIXES, {"a recursive fix", "2019_a1's official condition in a fix"})
)
def test_an_honest_answer_inside_a_fix_passes(problem: str | None, answer: str) -> None:
    proof = "Proof. Admitted.\n"
    result = _custom(answer, proof) if problem is None else _pinned(problem, answer, proof)
    assert result.status is GateStatus.PASSED, result.detail


# 4. The reals' attempts where the answers' type is none they can read

REAL_TYPE = (
    "From mathcomp Require Import all_ssreflect ssralg ssrnum.\nFrom mathcomp Require Import reals Rstruct.\n"
    "Local Open Scope ring_scope.\nVariable R : realType.\n"
    "Definition putnam_zz_solution : R := 3%:R.\nTheorem putnam_zz (m : R) (h : m < m) : m = putnam_zz_solution.\n"
)
"""A vacuous statement over MathComp's abstract ``realType`` with Coq's reals loaded (``Rstruct``): the reals'
attempts (``lra``/``nra`` over Coq's ``R``) cannot read an equation over ``R`` here."""
REAL_TYPE_PROOF = "by rewrite Order.POrderTheory.ltxx in h."


def _full(statement: str, answer: str, proof: str) -> Verdict:
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "putnam_zz", f"{statement}Proof. Admitted.\n")
    candidate = statement.replace(":= 3%:R.", f":= {answer}.").replace(":= 3.", f":= {answer}.")
    return rocq_full_verdict(bench, "putnam_zz", f"{candidate}Proof. {proof} Qed.\n", Track.NO_ANSWER)


def _status(v: Verdict) -> str:
    return str(v.answers["putnam_zz_solution"]["check"]["status"])


@needs_coq
@pytest.mark.slow
def test_an_unreadable_type_builds_no_reals_attempt(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: ``Answer_ne_reals`` (4.8 s) and ``Answer_ne_computed`` (9.9 s) ran their tactics; after, the
    second attempt's file says no (``loaded_reals.query``) and neither is built."""
    built = spied_answer_builds(monkeypatch)
    v = _full(REAL_TYPE, "2%:R + 1", REAL_TYPE_PROOF)
    assert v.status == "accepted" and _status(v) == "unknown", (v.status, v.answers)
    assert answered_no(built["Answer_ne"]) and not {"Answer_ne_reals", "Answer_ne_computed"} & built.keys()


@needs_coq
@pytest.mark.slow
def test_where_nothing_was_asked_the_reals_attempt_stops_at_its_type_guard(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second attempt's tactic replaced (so its file asks nothing, as a cached one says nothing): the
    first reals attempt's own guard stops it on its fifth line, and the other is not built."""
    built = spied_answer_builds(monkeypatch)
    monkeypatch.setattr(
        answers, "ATTEMPTS", tuple((c, "fail" if c == "ne" else t, *r) for c, t, *r in answers.ATTEMPTS)
    )
    v = _full(REAL_TYPE, "2%:R + 1", REAL_TYPE_PROOF)
    assert v.status == "accepted" and _status(v) == "unknown", (v.status, v.answers)
    assert "Answer_ne_computed" not in built and stopped_at_guard(built["Answer_ne_reals"]), built.keys()
    errors = [m.line for m in built["Answer_ne_reals"].messages if m.level == "Error"]
    assert errors[:1] == [TYPE_LINE], built["Answer_ne_reals"].messages


ANSWERS_NO = {
    "not loaded": (f"{QUERY}\n{NOT_LOADED}\n{QUERY_END}\n", True),
    "unreadable": (f"{QUERY}\nNotation Coq.Reals.Rdefinitions.R\n{UNREADABLE}\n{QUERY_END}\n", True),
    "loaded and readable": (f"{QUERY}\nNotation Coq.Reals.Rdefinitions.R\n{QUERY_END}\n", False),
    "no query printed": (f"{NOT_LOADED}\n{UNREADABLE}\n", False),
    "the words before the query": (f"{UNREADABLE}\n{QUERY}\nNotation Coq.Reals.Rdefinitions.R\n{QUERY_END}\n", False),
    "the words after the query's end (a candidate's hint printing in the proof)": (
        f"{QUERY}\nNotation Coq.Reals.Rdefinitions.R\n{QUERY_END}\n{UNREADABLE}\n",
        False,
    ),
    "no end printed": (f"{QUERY}\n{NOT_LOADED}\n", False),
}
"""(what the second attempt's file printed, whether it says the reals' attempts cannot apply): only the words
between the query's own markers count."""


@pytest.mark.parametrize(("stdout", "no"), list(ANSWERS_NO.values()), ids=list(ANSWERS_NO))
def test_only_the_query_s_own_words_skip_the_reals_attempts(stdout: str, no: bool) -> None:
    run = SandboxResult(("coqc",), 1, False, stdout, "", len(stdout), 0, False, 0.1, 0, True, None, 0)
    assert answered_no(Built("Answer_ne", run, None)) is no


TYPES = {
    "an abstract realType": ("Variable R : realType.\nDefinition s : R := 3%:R.", True),
    "a polynomial over it": ("Variable R : realType.\nDefinition s : {poly R} := 3%:P.", True),
    "Coq's reals through Rstruct's realType": ("Definition s : real_realType := 3%:R.", False),
    "a polynomial over them": ("Definition s : {poly real_realType} := 3%:P.", False),
    "MathComp's nat": ("Definition s : nat := 3.", False),
    "a type whose computation times out": ("Definition s : 'I_(2 ^ 2 ^ 2 ^ 2 ^ 2).+1 := ord0.", False),
}
"""(declaration of ``s``, whether the type guard stops the file): only a type Coq shows free of Coq's reals,
``Z`` and ``nat`` stops it; a time-out continues."""


@needs_coq
@pytest.mark.parametrize(("declaration", "stops"), sampled(TYPES, {"an abstract realType", "a polynomial over them"}))
def test_the_type_guard_stops_only_where_coq_shows_the_type_unreadable(
    tmp_path: Path, declaration: str, stops: bool
) -> None:
    head = "From mathcomp Require Import all_ssreflect all_algebra.\nFrom mathcomp Require Import reals Rstruct.\n"
    (tmp_path / "t.v").write_text(f"{head}Local Open Scope ring_scope.\n{declaration}\n{type_guard('@s')}\n")
    run = subprocess.run(["coqc", "t.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert (run.returncode != 0) is stops and (not stops or "has not failed" in run.stderr), run.stderr[-1500:]


CANDIDATE_REALS = (
    "Require Import ZArith.\nOpen Scope Z_scope.\nDefinition putnam_zz_solution : Z := 3.\n"
    "Theorem putnam_zz (m : Z) (h : m < m) : m = putnam_zz_solution.\n"
)
"""A vacuous statement over ``Z`` that loads no reals; the candidate loads them itself (``Require Reals``, a
permitted reading command) for its answer."""


@needs_coq
@pytest.mark.slow
def test_reals_the_candidate_loads_are_asked_about(monkeypatch: pytest.MonkeyPatch) -> None:
    """Round 46 asked before the candidate was loaded: its reals never counted, and the attempts that know them
    were skipped. Now the guard passes (the type ``Z`` is readable) and both attempts run their tactics."""
    built = spied_answer_builds(monkeypatch)
    statement = CANDIDATE_REALS.replace("Open Scope Z_scope.\n", "Open Scope Z_scope.\nRequire Coq.Reals.Reals.\n")
    bench = one_record_benchmark(Path(tempfile.mkdtemp()), "putnam_zz", f"{CANDIDATE_REALS}Proof. Admitted.\n")
    answer = "Coq.Reals.Rdefinitions.up (Coq.Reals.Rtrigo1.PI) - 1"
    candidate = statement.replace(":= 3.", f":= {answer}.") + "Proof. exfalso. exact (Z.lt_irrefl m h). Qed.\n"
    v = rocq_full_verdict(bench, "putnam_zz", candidate, Track.NO_ANSWER)
    assert "Answer_ne_reals" in built and not stopped_at_guard(built["Answer_ne_reals"]), built.keys()
    assert v.status in ("accepted", "disputed"), (v.status, v.answers)


# 3. A consumer mapped over a list that is not written out

MAPPED_SEARCHES = {
    "map is_left over a let-bound list": (
        "let l := Nat.eq_dec n 4 :: Nat.eq_dec n 4 :: nil in existsb (fun b => b) (map is_left l)",
        4,
        True,
    ),
    "map is_left over a mapped decision": (
        "existsb (fun b => b) (map is_left (map (fun _ => Nat.eq_dec n 4) (seq 0 2)))",
        4,
        True,
    ),
    "map is_left over a let-bound real decision": (
        "let l := Rlt_dec (INR n) 4 :: nil in existsb (fun b => b) (map is_left l)",
        0,
        False,
    ),
    "map is_left over a library function's list": (
        "existsb (fun b => b) (map is_left (repeat (Nat.eq_dec n 4) 2))",
        4,
        True,
    ),
}
"""(test, the least ``n`` below 10 passing it, whether G4 passes it): searches by a consumer mapped over a
list that is not written out (a ``map`` needs decisions of one proposition, so the list's elements decide the
same one). Before: the two honest ones refused; after: passed. The near misses: refused before and after
(``repeat``, a library function, was not read: a consumer's business; round 49 reads it as a list builder,
``decision_names.LIST_BUILDERS``, so the honest search passes now)."""


@needs_coq
@pytest.mark.parametrize(
    ("test", "value", "computes"),
    sampled(MAPPED_SEARCHES, {"map is_left over a let-bound list", "map is_left over a let-bound real decision"}),
)
def test_a_consumer_mapped_over_a_list_of_computable_decisions_passes(
    tmp_path: Path, test: str, value: int, computes: bool
) -> None:
    found = failures(_verdict(tmp_path, value, _candidate(test, value)))
    assert ("G4" not in found) is computes, found


WRITTEN = f"@cons (sumbool {EQ}) (Nat.eq_dec n O) (@nil (sumbool {EQ}))"
"""A written list as Coq prints a ``let``'s definition (unparenthesised)."""
MAP_PRINTS = {
    "a let-bound written list": (f"let l : list (sumbool {EQ}) := {WRITTEN} in", "l", []),
    "a let-bound let-bound list": (f"let l := {WRITTEN} in let m := l in", "m", []),
    "a mapped decision": ("", "(@map nat (sumbool {eq}) (fun _ : nat => Nat.eq_dec n O) l)", []),
    "a mapped partial decision": ("", "(@map nat (sumbool {eq}) (Nat.eq_dec n) l)", []),
    "a let-bound list of a bound decision": (
        f"let l := @cons (sumbool {EQ}) (d n O) (@nil (sumbool {EQ})) in",
        "l",
        ["is_left"],
    ),
    "a list bound twice": (f"let l := {WRITTEN} in fun l : list (sumbool {EQ}) =>", "l", ["is_left"]),
    "a mapped lookalike": ("", "(@map nat (sumbool {eq}) (fun _ : nat => eq_dec n O) l)", ["is_left"]),
    "a mapped function that decides later": (
        "",
        "(@map nat (sumbool {eq}) (fun k : nat => d (Nat.eq_dec n k)) l)",
        ["is_left"],
    ),
    "a map not located": ("", "(@other nat (sumbool {eq}) (Nat.eq_dec n) l)", ["is_left"]),
}
"""(what binds the list before the search, the mapped list in a print of a search, the names G4 reads as
searches)."""


@pytest.mark.parametrize(("before", "mapped", "names"), list(MAP_PRINTS.values()), ids=list(MAP_PRINTS))
def test_a_consumer_mapped_over_a_list_not_written_out_is_read(before: str, mapped: str, names: list[str]) -> None:
    listed = MAPPED.format(list=mapped.format(eq=EQ))
    body = f"@find nat (fun n : nat => {before} @existsb bool (fun b : bool => b) ({listed})) l"
    output = f"{LOCATED}{MARKER}\nzz_rt43_solution = {body}\n     : nat\n"
    assert searched_tests(output, MARKER) == names


# 2. Values no computation reaches: behind a proof or an opaque key

VACUOUS = (
    "Require Import ZArith.\nOpen Scope Z_scope.\n{extra}Definition putnam_zz_solution : Z := {answer}.\n"
    "Theorem putnam_zz (m : Z) (h : m < m) : m = putnam_zz_solution.\n"
)
"""A vacuous statement over ``Z`` (every answer is provable, as on PutnamBench's ``putnam_2013_b2``): only the
answer check keeps a wrong answer from being ``accepted``."""
VACUOUS_PROOF = "Proof. exfalso. exact (Z.lt_irrefl m h). Qed.\n"
HIDDEN = {
    "a match on a Qed proof of an equation": (
        "",
        "match Z.lt_0_1 in _ = c return Z with eq_refl => 4 end",
        "Z.lt_0_1",
    ),
    "a match on a Qed proof of an iff": ("", "match Z.lt_succ_r 0 0 with conj _ _ => 4 end", "Z.lt_succ_r"),
    "a transport along a Qed proof": ("", "@eq_rect comparison (Z.compare 0 1) (fun _ => Z) 4 Lt Z.lt_0_1", "eq_rect"),
    "ssreflect's locked": ("From Coq Require Import ssreflect.\n", "locked 4", "locked"),
}
"""(the candidate's own ``Require``, a wrong answer ``4`` for ``3``, what G4 names): before, each was accepted
with the answer check ``unknown``; now G4 refuses it."""
SHOWN = {
    "let": ("", "let x := 4 in x", "disputed"),
    "Basics.compose of id": ("Require Import Coq.Program.Basics.\n", "Basics.compose id id 4", "disputed"),
    "a match with wildcards on proofs": ("", "match Z.lt_0_1, Z.lt_0_2 with _, _ => 4 end", "disputed"),
    "the honest value behind a let": ("", "let x := 2 in x + 1", "accepted"),
}
"""Wrappers tried that the answer check already reads (``disputed`` before and after), and an honest twin."""


def _vacuous(extra: str, answer: str) -> Verdict:
    bench = one_record_benchmark(
        Path(tempfile.mkdtemp()), "putnam_zz", VACUOUS.format(extra="", answer="3") + "Proof. Admitted.\n"
    )
    candidate = VACUOUS.format(extra=extra, answer=answer) + VACUOUS_PROOF
    return rocq_full_verdict(bench, "putnam_zz", candidate, Track.NO_ANSWER)


@needs_coq
@pytest.mark.parametrize(
    ("extra", "answer", "named"),
    sampled(HIDDEN, {"a match on a Qed proof of an equation", "ssreflect's locked"}),
)
def test_a_value_no_computation_reaches_is_refused(extra: str, answer: str, named: str) -> None:
    v = _vacuous(extra, answer)
    found = failures(v)
    assert v.status == "rejected" and "G4" in found and named in found["G4"], (v.status, found)


@needs_coq
@pytest.mark.parametrize(("extra", "answer", "status"), sampled(SHOWN, {"the honest value behind a let"}))
def test_a_wrapper_the_answer_check_reads_is_judged_by_its_value(extra: str, answer: str, status: str) -> None:
    v = _vacuous(extra, answer)
    assert v.status == status, (v.status, v.answers, failures(v))
