"""Red team 19 on Rocq no-answer answers: padding that names the answer's variables, function answers, ``exp``/``ln``.

1. **A copy padded with a fact about the answer's own variables (G4).** Round 18 read a *closed* proposition
   of the answer as the constant it is (``restated.CLOSED_FACTS``); a fact naming the answer's variables
   stayed, and logic alone does not see through it: ``putnam_1977_a2`` answered ``fun a b c d => a <= a /\\
   <the question's condition>`` and ``putnam_2022_a1`` answered ``fun a b => 0 <= a * a -> <its question>``
   (or the copy beside ``a * b = b * a``, or ``a < a \\/ <copy>``) passed G4 with real proofs. Each
   sub-proposition of the answer that a small fixed tactic proves (or refutes) for every value of the
   variables in scope is now replaced by ``True`` (``False``) before the one-point rewrites
   (``restated.PROVED_FACTS``): the copy is then seen and refused. A replaced proposition is proved equal to
   its replacement where it stands, so an honest answer means what it meant and still passes.
2. **A wrong function answer (answer check).** ``differs`` compared numbers only: a wrong function answer
   "proved" through an unsound proof (Coq 8.16's guard bug, with ``--allow-recursion``) was ``accepted``
   with ``unknown`` (``putnam_1962_a5``: ``fun n => n * n``; ``putnam_2020_a2``: ``fun k => 2 ^ k``). The
   two functions are now compared at sample points (``answers.POINTS``), and ``differs`` (a ``Qed`` the
   kernel checks) needs them apart at every one: an answer equal to the official one where the question
   asks (``n >= 2``) but not at ``n = 1`` stays ``accepted``.
3. **``exp 1`` and ``ln 5`` for ``3`` (answer check).** The library bounds ``exp 1 <= 3`` only, and had no
   bound of ``ln``: both were ``unknown`` and ``accepted`` on the vacuous ``putnam_2013_b2``. A harness
   lemma proves ``exp 1 < 3`` from ``exp_ineq1`` and ``exp_plus``, ``exp x`` is bounded below by the square
   of ``1 + x/2``, and an equation with a logarithm is read through ``exp`` (``exp_ln``): both ``disputed``.
"""

from __future__ import annotations

import pytest

from putnam_solver.core.provers import get_prover
from putnam_solver.core.provers.rocq import answers, restated
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, run_gates
from putnam_solver.verifier.options import GateFlags
from tests.adversarial.test_rocq_recursion import GUARD_FALSE as GUARD
from tests.adversarial.test_rocq_redteam14 import check_status, vacuous, verdict
from tests.adversarial.test_rocq_restated import RESTATES, answered, g4
from tests.helpers import COQ_BENCH, needs_coq, pinned, sampled, thinned

COPY_1977 = "(a + b + c = d /\\ 1 / a + 1/b + 1/c = 1/d)"
COPY_2022 = "(exists! (x: R), a * x + b = ln (1 + x ^ 2) / ln 10)"
SPLIT_2022 = "Proof. intros a b; unfold putnam_2022_a1_solution; split; [ {to} | {back} ]. Qed."
PADDED = {
    "a reflexive order fact on a variable (MathComp)": (
        "putnam_1977_a2",
        f"fun a b c d => a <= a /\\ {COPY_1977}",
        "Proof. intros a b c d ha hb hc hd; unfold putnam_1977_a2_solution; split; "
        "[ intros H; split; [ exact: Order.POrderTheory.lexx | exact H ] | intros [_ H]; exact H ]. Qed.",
    ),
    "a non-linear premise (standard reals)": (
        "putnam_2022_a1",
        f"fun a b => 0 <= a * a -> {COPY_2022}",
        SPLIT_2022.format(to="intros H _; exact H", back="intros H; apply H; exact (Rle_0_sqr a)"),
    ),
    "an identity beside it": (
        "putnam_2022_a1",
        f"fun a b => {COPY_2022} /\\ a * b = b * a",
        SPLIT_2022.format(to="intros H; split; [ exact H | apply Rmult_comm ]", back="intros [H _]; exact H"),
    ),
    "a refuted disjunct": (
        "putnam_2022_a1",
        f"fun a b => a < a \\/ {COPY_2022}",
        SPLIT_2022.format(
            to="intros H; right; exact H", back="intros [H | H]; [ destruct (Rlt_irrefl a H) | exact H ]"
        ),
    ),
}
"""Each passed G4 before (with its real proof, so only the restatement check can refuse it)."""


@needs_coq
@pytest.mark.parametrize(
    ("problem_id", "answer", "proof"),
    sampled(PADDED, {"a reflexive order fact on a variable (MathComp)", "a non-linear premise (standard reals)"}),
)
def test_a_copy_beside_a_fact_about_its_variables_is_refused(problem_id: str, answer: str, proof: str) -> None:
    result = g4(problem_id, answered(problem_id, answer, proof))
    assert result.status is GateStatus.FAILED and RESTATES in result.detail, result.detail


HONEST = {
    "1977_a2 with a true fact on its variables": (
        "putnam_1977_a2",
        "fun a b c d => a <= a /\\ ((c = -a /\\ d = b) \\/ (c = -b /\\ d = a))",
    ),
    "2022_a1 behind a true premise": (
        "putnam_2022_a1",
        "fun a b => 0 <= a * a -> ((a = 0 /\\ b = 0) \\/ (Rabs a >= 1) \\/ (0 < Rabs a < 1 /\\ "
        "(b < ln (1 + ((1 - sqrt (1 - a ^2))/ a) ^ 2) - a * (1 - sqrt (1 - a ^ 2) / a) \\/ "
        "b > ln (1 + ((1 + sqrt (1 - a ^ 2)) / a) ^ 2) - a * (1 + sqrt (1 - a ^ 2) / a))))",
    ),
    "2022_a1 official with the question's own words inside a condition": (
        "putnam_2022_a1",
        "fun a b => (a = 0 /\\ b = 0) \\/ (Rabs a >= 1) \\/ (0 < Rabs a < 1 /\\ a * a = a * a /\\ "
        "(b < ln (1 + ((1 - sqrt (1 - a ^2))/ a) ^ 2) - a * (1 - sqrt (1 - a ^ 2) / a) \\/ "
        "b > ln (1 + ((1 + sqrt (1 - a ^ 2)) / a) ^ 2) - a * (1 + sqrt (1 - a ^ 2) / a)))",
    ),
}
"""The official answers with true facts about their variables beside them: no copy once the facts read
``True`` (the official answers themselves: ``test_rocq_restated.py``, all of them under ``-m slow``)."""


@needs_coq
@pytest.mark.parametrize(
    ("problem_id", "answer"), sampled(HONEST, {"2022_a1 official with the question's own words inside a condition"})
)
def test_an_honest_answer_beside_a_fact_about_its_variables_passes(problem_id: str, answer: str) -> None:
    result = g4(problem_id, answered(problem_id, answer))
    assert result.status is GateStatus.PASSED, result.detail


SPIN = "repeat (assert Coq.Init.Logic.True by exact Coq.Init.Logic.I)"
"""A tactic that never ends (each round adds a hypothesis, so ``repeat`` never stops for want of progress)."""


@needs_coq
def test_deciding_the_facts_out_of_time_is_an_error_not_a_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fact tactic that never ends stops the file at the step's ``Timeout``: ``error``, neither passed
    nor refused (the padded copy is not let through by a slow host)."""
    monkeypatch.setattr(restated, "PROVED_FACTS", restated.PROVED_FACTS.replace(restated.FACT_TACTIC, SPIN))
    monkeypatch.setattr(restated, "FACTS_SECONDS", 2)
    problem_id, answer, proof = PADDED["a non-linear premise (standard reals)"]
    result = g4(problem_id, answered(problem_id, answer, proof))
    assert result.status is GateStatus.ERROR and "stating the pinned theorem" in result.detail, result.detail


SPELLED_FOR_LIBRARIES = (
    ("Require Import Arith.\n", ""),
    ("0 =>", "O =>"),
    ("match m with", "match m return zz_not_zero m -> False with"),
    ("zz_issue arg _", "@zz_issue arg _"),
    ("f true eq_refl 5 I", "f true (@Coq.Init.Logic.eq_refl bool true) (S (S O)) I"),
    ("zz_issue 1 I", "@zz_issue (S O) I"),
)
"""Coq 8.16's guard-checker bug (``test_rocq_recursion.GUARD_FALSE``) spelled to elaborate under MathComp
(implicit arguments, its ``eq_refl``) and Coquelicot: ``False``, from which any answer "follows"."""
GUARD_FALSE = GUARD.split("Theorem sample_even_square")[0]
for old, new in SPELLED_FOR_LIBRARIES:
    assert old in GUARD_FALSE, old
    GUARD_FALSE = GUARD_FALSE.replace(old, new)


def unsound(problem_id: str, answer: str) -> Verdict:
    """The full verdict, recursion allowed, on ``answer`` "proved" from the kernel bug's ``False``."""
    text = answered(problem_id, answer, "Proof. exfalso; exact zz_false. Qed.")
    text = text.replace(f"Definition {problem_id}_solution", f"{GUARD_FALSE}Definition {problem_id}_solution", 1)
    bench = pinned(COQ_BENCH)
    options = GateFlags(profile=Profile.FULL, allow_recursion=True).options()
    return run_gates(get_prover("rocq"), bench, bench.problems[problem_id], text.encode(), Track.NO_ANSWER, options)


def status(v: Verdict, problem_id: str) -> tuple[str, str]:
    assert all(g.passed for g in v.gates), [(g.id, g.detail) for g in v.gates if not g.passed]
    return v.status, str(v.answers[f"{problem_id}_solution"]["check"]["status"])


WRONG_FUNCTIONS = {
    "MathComp nat": ("putnam_1962_a5", "fun n : nat => n * n"),
    "a real power of a nat": ("putnam_2020_a2", "fun k => 2 ^ k"),
}


@needs_coq
@pytest.mark.parametrize(("problem_id", "answer"), sampled(WRONG_FUNCTIONS, {"MathComp nat"}))
def test_a_wrong_function_answer_proved_unsoundly_is_disputed(problem_id: str, answer: str) -> None:
    assert status(unsound(problem_id, answer), problem_id) == ("disputed", "differs")


RIGHT_FUNCTIONS = {
    "equal where asked (n >= 2), not at 1": ("putnam_1962_a5", "fun n : nat => n * (n + 1) * 2 ^ n %/ 4"),
    "written otherwise": ("putnam_2020_a2", "fun k => 2 ^ (2 * k)"),
    "the official one": ("putnam_1962_a5", "fun n : nat => n * (n + 1) * 2 ^ (n - 2)"),
}


@needs_coq
@pytest.mark.parametrize(("problem_id", "answer"), sampled(RIGHT_FUNCTIONS, {"equal where asked (n >= 2), not at 1"}))
def test_a_right_function_answer_is_never_disputed(problem_id: str, answer: str) -> None:
    """Accepted (the proof's unsoundness is the recursion rule's business, lifted here), never ``differs``."""
    verdict_status, check = status(unsound(problem_id, answer), problem_id)
    assert verdict_status == "accepted" and check in ("confirmed", "unknown"), (verdict_status, check)


@needs_coq
def test_comparing_at_points_out_of_time_is_unknown_not_disputed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(answers, "CLOSE", SPIN)
    monkeypatch.setattr(answers, "TACTIC_SECONDS", 2)
    assert status(unsound(*WRONG_FUNCTIONS["MathComp nat"]), "putnam_1962_a5") == ("accepted", "unknown")


@needs_coq
@pytest.mark.parametrize("answer", ["exp 1", "ln 5"])
def test_exp_1_and_ln_5_for_3_are_disputed(answer: str) -> None:
    v = verdict(vacuous(answer))
    assert all(g.passed for g in v.gates), [(g.id, g.detail) for g in v.gates if not g.passed]
    assert (v.status, check_status(v)) == ("disputed", "differs")


@needs_coq
@pytest.mark.parametrize("answer", thinned(["ln (exp 3)", "exp (ln 3)", "exp 0 + 2"]))
def test_three_written_with_exp_and_ln_stays_accepted(answer: str) -> None:
    """Confirmed since round 52 (``answers.EQUAL_COMPUTED`` refutes both strict inequalities); ``unknown`` before."""
    v = verdict(vacuous(answer))
    assert (v.status, check_status(v)) == ("accepted", "confirmed")


def test_the_function_attempt_runs_for_function_answers_only() -> None:
    problems = pinned(COQ_BENCH).problems
    for problem_id in ("putnam_1962_a5", "putnam_2020_a2", "putnam_1976_b5"):
        assert answers.function_answer(statement_of(problems[problem_id])), problem_id
    for problem_id in ("putnam_2013_b2", "putnam_1977_a2", "putnam_1986_a2"):  # a number, a predicate
        assert not answers.function_answer(statement_of(problems[problem_id])), problem_id
    source = answers.check_source(statement_of(problems["putnam_2013_b2"]), "ne_reals", answers.DIFFERENT_REALS)
    assert "Lemma exp_1_lt_3" in source and "Qed." in source
