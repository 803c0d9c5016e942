"""G4 on a no-answer yes/no problem (a ``Prop`` or ``Bool`` solution): the answer must be a truth value.

The question restated as its answer (``putnam_1996_a3``: ``<question> ↔ putnam_1996_a3_solution``) made
the theorem ``Q ↔ Q`` and passed every gate. The harness file G4 now adds (``yes_no``) runs here for real
on the toy Lean (Lean 4.35's elaborator and kernel): the toy prelude has no ``Decidable``, so the
statement supplies the few lines of Lean's ``Init/Prelude.lean`` the check relies on (``Decidable``,
``decide``, ``of_decide_eq_true`` and the instances for ``True``, ``False``, ``Not``, ``Iff``, ``Or``,
``Bool`` equality), as every real statement has them from ``Init``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.lean import LeanProver, yes_no
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.provers.lean.yes_no import YesNo, harness_source, yes_no_solutions
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from putnam_solver.kits.sessions import SessionPool, check_file
from tests.helpers import LEAN_BENCH
from tests.toylean.build import ToyLean
from tests.toylean.decidable import DECIDABLE as PRELUDE

YES = "Exists (fun n : Nat => Eq n n)"
"""A question whose answer is yes, with no ``Decidable`` instance (like any question over ℕ or ℝ)."""
NO = "Exists (fun n : Nat => Eq (Nat.succ n) Nat.zero)"
"""A question whose answer is no."""
NOT_SUCC = (
    "@Eq.ndrec Nat (Nat.succ n) (fun m => @Nat.rec (fun _ => Prop) False (fun _ _ => True) m) True.intro Nat.zero e"
)
PROOFS = {
    ("yes", "True"): "Iff.intro (fun _ => True.intro) (fun _ => Exists.intro Nat.zero rfl)",
    ("yes", "Not False"): "Iff.intro (fun _ => fun f => f) (fun _ => Exists.intro Nat.zero rfl)",
    ("yes", YES): "Iff.intro (fun h => h) (fun h => h)",
    ("no", "False"): f"Iff.intro (fun h => @Exists.rec Nat _ (fun _ => False) (fun n e => {NOT_SUCC}) h) False.elim",
    ("no", NO): "Iff.intro (fun h => h) (fun h => h)",
}


def statement(question: str, official: str) -> str:
    return (
        f"{PRELUDE}abbrev toy_yn_solution : Prop := sorry\n-- {official}\n"
        f"theorem toy_yn : Iff ({question}) toy_yn_solution := sorry\n"
    )


def candidate(question: str, answer: str) -> str:
    proof = PROOFS[("yes" if question == YES else "no", answer)]
    theorem = f"theorem toy_yn : Iff ({question}) toy_yn_solution :=\n  {proof}\n"
    return f"{PRELUDE}abbrev toy_yn_solution : Prop := {answer}\n{theorem}"


@pytest.fixture
def toy(toy_lean_env: ToyLean, tmp_path: Path) -> Path:
    return tmp_path


def _bench(directory: Path, text: str, problem_id: str = "toy_yn") -> Benchmark:
    record = {"problem_id": problem_id, "formal_statement": text, "informal_statement": None, "tags": ["toy"]}
    path = directory / f"{problem_id}.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return load_benchmark(path)


def _verify(directory: Path, question: str, answer: str, track: Track = Track.NO_ANSWER, **more: Any) -> Verdict:
    official = "True" if question == YES else "False"
    bench = _bench(directory, statement(question, official))
    options = VerifyOptions(profile=Profile.FAST, **more)
    text = candidate(question, answer).encode()
    return run_gates(LeanProver(), bench, bench.problems["toy_yn"], text, track, options)


def _g4(verdict: Verdict) -> Any:
    return next(g for g in verdict.gates if g.id == "G4")


def _statuses(verdict: Verdict) -> dict[str, str]:
    return {g.id: g.status.value for g in verdict.gates}


@pytest.mark.parametrize(("question", "answer"), [(YES, "True"), (YES, "Not False"), (NO, "False")])
def test_a_truth_value_answer_passes(toy: Path, question: str, answer: str) -> None:
    verdict = _verify(toy, question, answer)
    assert verdict.accepted, _statuses(verdict)
    g4 = _g4(verdict)
    assert g4.evidence["yes_no_decided"] == ["toy_yn_solution"]
    assert g4.evidence["yes_no_run"]["exit_code"] == 0
    assert "the yes/no answer is a truth value" in g4.detail


@pytest.mark.parametrize("question", [YES, NO])
def test_the_question_restated_as_its_answer_is_refused_by_g4(toy: Path, question: str) -> None:
    verdict = _verify(toy, question, question)
    assert not verdict.accepted
    assert [g for g, s in _statuses(verdict).items() if s != "passed"] == ["G4"], _statuses(verdict)
    g4 = _g4(verdict)
    assert g4.status is GateStatus.FAILED and "not a truth value" in g4.detail
    assert g4.evidence["yes_no_undecided"] == ["toy_yn_solution"]
    assert g4.evidence["exit_code"] == 0  # the candidate itself compiled: only the decision failed


def test_with_answer_is_unaffected(toy: Path) -> None:
    """On with-answer the official answer is written into the theorem: nothing to decide, no extra run."""
    bench = _bench(toy, statement(YES, "True"))
    proof = PROOFS[("yes", "True")]
    text = f"{PRELUDE}theorem toy_yn : Iff ({YES}) ((True) : Prop) :=\n  {proof}\n"
    options = VerifyOptions(profile=Profile.FAST)
    verdict = run_gates(LeanProver(), bench, bench.problems["toy_yn"], text.encode(), Track.WITH_ANSWER, options)
    assert verdict.accepted, _statuses(verdict)
    assert not any(key.startswith("yes_no") for key in _g4(verdict).evidence)


def test_a_harness_failure_off_the_example_lines_is_an_error(toy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A yes/no file that fails for a reason on no example's line (here: an import lean cannot find) is
    not a verdict on the answer: an error, never a refusal of the answer, never a pass."""
    original = yes_no.harness_source
    monkeypatch.setattr(yes_no, "harness_source", lambda module, qs: original(f"{module}Missing", qs))
    g4 = _g4(_verify(toy, YES, "True"))
    assert g4.status is GateStatus.ERROR and "did not finish" in g4.detail, g4.detail
    assert "yes_no_undecided" not in g4.evidence


BOOL_STATEMENT = (
    f"{PRELUDE}abbrev toy_b_solution : Bool := sorry\n-- true\n"
    "theorem toy_b : Or (Eq toy_b_solution Bool.true) (Eq toy_b_solution Bool.false) := sorry\n"
)
BOOL_PROOF = "@Bool.rec (fun b => Or (Eq b Bool.true) (Eq b Bool.false)) (Or.inr rfl) (Or.inl rfl) toy_b_solution"


@pytest.mark.parametrize(
    ("answer", "accepted"),
    [
        ("Bool.true", True),
        ("Decidable.decide (Iff True False)", True),
        ("Classical.choice (Nonempty.intro Bool.true)", False),
    ],
)
def test_a_bool_answer_must_reduce_to_true_or_false(toy: Path, answer: str, accepted: bool) -> None:
    bench = _bench(toy, BOOL_STATEMENT, "toy_b")
    text = f"{PRELUDE}noncomputable abbrev toy_b_solution : Bool := {answer}\n" + BOOL_STATEMENT.split("-- true\n")[1]
    text = text.replace(":= sorry", f":=\n  {BOOL_PROOF}")
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    verdict = run_gates(LeanProver(), bench, bench.problems["toy_b"], text.encode(), Track.NO_ANSWER, options)
    g4 = _g4(verdict)
    assert (g4.status is GateStatus.PASSED) is accepted, g4.detail
    if not accepted:
        assert g4.status is GateStatus.FAILED and g4.evidence["yes_no_undecided"] == ["toy_b_solution"]


# ---------------------------------------------------------------------------------- the pinned benchmark


def _pinned_yes_no() -> dict[str, tuple[list[YesNo], str | None]]:
    found = {}
    for line in LEAN_BENCH.read_text().splitlines():
        record = json.loads(line)
        parsed = parse_statement(record["formal_statement"])
        questions = yes_no_solutions(parsed)
        if questions:
            (solution,) = parsed.solutions
            found[record["problem_id"]] = (questions, solution.answer)
    return found


PRODUCTS = {
    "putnam_1982_b4": (["putnam_1982_b4_solution.1", "putnam_1982_b4_solution.2"], "(True, True)"),
    "putnam_1987_b4": (["putnam_1987_b4_solution.1", "putnam_1987_b4_solution.2.2.1"], "(True, -1, True, 0)"),
    "putnam_1988_a4": (["putnam_1988_a4_solution.1", "putnam_1988_a4_solution.2"], "(True, False)"),
}


@pytest.mark.skipif(not LEAN_BENCH.is_file(), reason="PutnamBench data not found")
def test_every_pinned_yes_no_question_is_found_and_answered_true_or_false() -> None:
    """60 PutnamBench Lean statements pin ``abbrev putnam_X_solution : Prop := sorry`` and 3 a product
    with ``Prop`` factors; none pins a ``Bool``. Every official answer is ``True`` or ``False`` (factor by
    factor): the answers the toy runs here pass."""
    pinned = _pinned_yes_no()
    assert len(pinned) == 63 and "putnam_1996_a3" in pinned
    props = {p: a for p, (qs, a) in pinned.items() if [(q.type_, q.path) for q in qs] == [("Prop", ())]}
    assert len(props) == 60 and set(props.values()) == {"True", "False"}
    for problem_id in props:
        (line, report) = harness_source("M", pinned[problem_id][0]).splitlines()[1:]
        claim = f"_root_.Or (_root_.Iff _root_.{problem_id}_solution _root_.True)"
        assert line.startswith(f"theorem putnam_yes_no_claim_0 : {claim}")
        assert report == "#print axioms putnam_yes_no_claim_0"
    products = {p: ([q.label() for q in qs], a) for p, (qs, a) in pinned.items() if p not in props}
    assert products == PRODUCTS


@pytest.mark.skipif(not LEAN_BENCH.is_file(), reason="PutnamBench data not found")
@pytest.mark.parametrize("official", ["True", "False"])
def test_each_pinned_official_answer_passes_on_the_toy(toy: Path, official: str) -> None:
    """Every distinct official answer of the pinned ``Prop`` problems, as a candidate's answer in the toy."""
    assert official in {a for _, a in _pinned_yes_no().values()}
    verdict = _verify(toy, YES if official == "True" else NO, official)
    assert verdict.accepted and _g4(verdict).evidence["yes_no_decided"] == ["toy_yn_solution"]


PROD = """universe u v
structure Prod (α : Type u) (β : Type v) where
  mk ::
  fst : α
  snd : β

"""
"""Core Lean's ``Prod`` (Init/Prelude.lean), which the toy ``Init`` lacks; so does the notation ``×``
(it needs Init's parser descriptions), so the statement writes ``Prod`` and the test names the factors
that ``yes_no_solutions`` finds in ``Prop × Nat × Prop`` (a unit test below)."""
FACTORS = [YesNo("toy_pp_solution", "Prop", ("fst",)), YesNo("toy_pp_solution", "Prop", ("snd", "snd"))]
PRODUCT_THEOREM = "theorem toy_pp : Iff (Prod.fst toy_pp_solution) True := sorry\n"


@pytest.mark.parametrize(
    ("answer", "undecided"),
    [
        ("Prod.mk True (Prod.mk Nat.zero (Not True))", None),  # like putnam_1987_b4's (True, -1, True, 0)
        (f"Prod.mk True (Prod.mk Nat.zero ({YES}))", ["toy_pp_solution.2.2"]),
        (f"Prod.mk ({YES}) (Prod.mk Nat.zero False)", ["toy_pp_solution.1"]),
    ],
)
def test_each_prop_factor_of_a_product_answer_must_be_a_truth_value(
    toy: Path, monkeypatch: pytest.MonkeyPatch, answer: str, undecided: list[str] | None
) -> None:
    monkeypatch.setattr(yes_no, "applies", lambda sub: FACTORS)
    head = f"{PRELUDE}{PROD}abbrev toy_pp_solution : Prod Prop (Prod Nat Prop) := "
    bench = _bench(toy, f"{head}sorry\n-- (True, 0, False)\n{PRODUCT_THEOREM}", "toy_pp")
    proof = (
        "Iff.intro (fun _ => True.intro) (fun _ => "
        + ("True.intro" if undecided is None or "2" in undecided[0] else "Exists.intro Nat.zero rfl")
        + ")"
    )
    text = f"{head}{answer}\n{PRODUCT_THEOREM.replace('sorry', proof)}"
    verdict = run_gates(
        LeanProver(),
        bench,
        bench.problems["toy_pp"],
        text.encode(),
        Track.NO_ANSWER,
        VerifyOptions(profile=Profile.FAST),
    )
    g4 = _g4(verdict)
    if undecided is None:
        assert verdict.accepted, (_statuses(verdict), g4.detail)
        assert g4.evidence["yes_no_decided"] == ["toy_pp_solution.1", "toy_pp_solution.2.2"]
    else:
        assert g4.status is GateStatus.FAILED and g4.evidence["yes_no_undecided"] == undecided, g4.detail


def test_only_prop_or_bool_solutions_and_factors_are_yes_no_questions() -> None:
    def kinds(solution: str) -> list[tuple[str, str]]:
        text = f"{solution}\n-- x\ntheorem t : t_solution = t_solution := sorry\n"
        return [(q.label(), q.type_) for q in yes_no_solutions(parse_statement(text))]

    assert kinds("abbrev t_solution : Prop := sorry") == [("t_solution", "Prop")]
    assert kinds("abbrev t_solution : Bool := sorry") == [("t_solution", "Bool")]
    assert kinds("abbrev t_solution : Prop × (ℝ × ℝ) × Bool := sorry") == [
        ("t_solution.1", "Prop"),
        ("t_solution.2.2", "Bool"),
    ]
    assert [
        (q.type_, q.path)
        for q in yes_no_solutions(
            parse_statement("abbrev toy_pp_solution : Prop × Nat × Prop := sorry\n-- x\ntheorem t : True := sorry\n")
        )
    ] == [(q.type_, q.path) for q in FACTORS]
    assert kinds("abbrev t_solution : ℕ → Prop := sorry") == []
    assert kinds("abbrev t_solution : (ℝ × ℝ) → Prop := sorry") == []
    assert kinds("abbrev t_solution (n : ℕ) : Prop := sorry") == []
    assert kinds("abbrev t_solution : ℕ := sorry") == []


def test_the_agents_warm_check_goes_cold_on_a_yes_no_problem(toy: Path) -> None:
    """A warm session compiles the file only; the check must give the verdict G4 gives (``cold_only``)."""
    bench = _bench(toy, statement(YES, "True"))
    options = VerifyOptions(profile=Profile.FAST, acceptance=Profile.FULL, timeout_seconds=120)
    pool = SessionPool(max_sessions=1)
    try:
        outcome = check_file(
            LeanProver(), bench, bench.problems["toy_yn"], candidate(YES, YES), Track.NO_ANSWER, options, pool
        )
        with_answer = check_file(
            LeanProver(), bench, bench.problems["toy_yn"], candidate(YES, "True"), Track.WITH_ANSWER, options, pool
        )
    finally:
        pool.close()
    assert not outcome.warm and _g4(outcome.verdict).evidence["yes_no_undecided"] == ["toy_yn_solution"]
    assert with_answer.warm  # other problems and tracks keep the warm session
