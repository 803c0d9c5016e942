"""The Lean no-answer answer check with the toy Lean: confirmed, differs, unknown; a record, never a gate.

The toy prelude has no tactic syntax and no ``Decidable``, so the tactic attempts fail here as unknown
tactics (the check must survive that), the term ``rfl`` confirms, and the toy statement supplies its own
``of_decide_eq_false`` (for ``Bool``, by a boolean equality test) so that the term `decide` elaborates to
can refute a wrong answer. It also starts with ``tests/toylean/decidable.py`` (Lean's ``Decidable``),
which G4's yes/no rule (``yes_no``) needs to decide that a ``Bool`` answer is ``true`` or ``false``.
``norm_num`` and ``simp`` run only on the real toolchain.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from putnam_solver.cli import app
from putnam_solver.core.benchmark import Benchmark, load_benchmark
from putnam_solver.core.provers.lean import LeanProver, yes_no
from putnam_solver.core.provers.lean import answers as lean_answers
from putnam_solver.core.sandbox import SandboxLimits
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.toylean.build import ToyLean
from tests.toylean.decidable import DECIDABLE

PRELUDE = (
    DECIDABLE
    + """noncomputable def beq (a b : Bool) : Bool :=
  @Bool.rec (fun _ => Bool) (@Bool.rec (fun _ => Bool) true false b) b a

theorem true_ne_false (h : Eq true false) : False :=
  @Eq.ndrec Bool true (fun b => @Bool.rec (fun _ => Prop) False True b) True.intro false h

theorem beq_self (b : Bool) : Eq (beq b b) false -> False :=
  @Bool.rec (fun b => Eq (beq b b) false -> False) (fun h => true_ne_false h) (fun h => true_ne_false h) b

theorem of_decide_eq_false {a b : Bool} (h : Eq (beq a b) false) : Not (Eq a b) :=
  fun e => @Eq.ndrec Bool a (fun x => Eq (beq a x) false -> False) (beq_self a) b e h

"""
)
THEOREM = "theorem toy_bool : Or (Eq toy_bool_solution true) (Eq toy_bool_solution false) :="
STATEMENT = f"{PRELUDE}abbrev toy_bool_solution : Bool := sorry\n-- true\n{THEOREM} sorry\n"
PROOF = "  Bool.rec (motive := fun b => Or (Eq b true) (Eq b false)) (Or.inr rfl) (Or.inl rfl) toy_bool_solution\n"
NAME = "toy_bool_solution"


def candidate(answer: str) -> str:
    """A no-answer candidate with ``answer`` as its solution and a proof that holds for every answer."""
    return f"{PRELUDE}noncomputable abbrev toy_bool_solution : Bool := {answer}\n{THEOREM}\n{PROOF}"


@pytest.fixture
def bench(toy_lean_env: ToyLean, tmp_path: Path) -> Benchmark:
    record = {"problem_id": "toy_bool", "formal_statement": STATEMENT, "informal_statement": None, "tags": ["toy"]}
    path = tmp_path / "benchmark.jsonl"
    path.write_text(json.dumps(record) + "\n")
    return load_benchmark(path)


def _verify(
    bench: Benchmark, answer: str, track: Track = Track.NO_ANSWER, profile: Profile = Profile.FULL, **more: Any
) -> Verdict:
    options = VerifyOptions(profile=profile, **more)
    return run_gates(LeanProver(), bench, bench.problems["toy_bool"], candidate(answer).encode(), track, options)


def _check(verdict: Verdict) -> dict[str, Any]:
    check: dict[str, Any] = verdict.answers[NAME]["check"]
    return check


def test_an_equal_answer_is_confirmed_and_a_different_one_differs(bench: Benchmark) -> None:
    same = _verify(bench, "beq false false")  # equal to the official `true` by computation only
    assert [g.status.value for g in same.gates[:5]] == ["passed"] * 5  # G6 (comparator) is not here
    assert _check(same) == {"status": "confirmed", "reason": "lean proved candidate = official with `rfl`"}
    other = _verify(bench, "false")
    assert other.gates[3].passed  # compiled: the proof holds for either answer
    assert _check(other)["status"] == "differs" and "of_decide_eq_false rfl" in _check(other)["reason"]
    assert same.status == other.status  # a record: it never changes the verdict


def test_an_answer_no_attempt_decides_is_unknown(bench: Benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    answer = "Classical.choice (Nonempty.intro true)"
    # G4 refuses a Bool answer that does not reduce to true or false (``yes_no``), so the check never runs
    refused = _verify(bench, answer, keep_going=True)
    assert refused.gates[3].evidence["yes_no_undecided"] == [NAME]
    assert _check(refused) == {"status": "unknown", "reason": "the candidate did not compile"}
    # the check on its own (without that rule); G2 refuses a choice operator, keep_going runs the rest
    monkeypatch.setattr(yes_no, "applies", lambda sub: [])
    opaque = _verify(bench, answer, keep_going=True)
    assert opaque.gates[3].passed and opaque.status == "rejected"
    assert _check(opaque) == {
        "status": "unknown",
        "reason": "neither equality nor its negation was proved by rfl, decide, norm_num, simp",
    }


def test_a_timeout_is_unknown_never_confirmed(bench: Benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    def tiny(options: VerifyOptions) -> SandboxLimits:
        return dataclasses.replace(SandboxLimits(), timeout_seconds=0.001)

    monkeypatch.setattr(lean_answers, "sandbox_limits", tiny)  # only the answer check's runs
    check = _check(_verify(bench, "true"))
    assert check["status"] == "unknown" and "timed out" in check["reason"], check


def test_never_on_with_answer_nor_in_the_agents_check(bench: Benchmark) -> None:
    assert _verify(bench, "true", Track.WITH_ANSWER).answers == {}
    fast = _check(_verify(bench, "true", profile=Profile.FAST))
    assert fast["status"] == "unknown" and fast["reason"].startswith("the answer check runs only")
    agent = _verify(bench, "true", acceptance=Profile.FULL)  # the agent's `check` judged by the full rules
    assert _check(agent)["reason"].startswith("the answer check runs only")


def test_verify_prints_the_check_and_writes_it_to_the_json(bench: Benchmark, tmp_path: Path) -> None:
    path = tmp_path / "toy_bool.lean"
    path.write_text(candidate("false"))
    out = tmp_path / "verdicts.json"
    result = CliRunner().invoke(
        app,
        [
            "verify",
            "--prover",
            "lean",
            "--benchmark",
            str(tmp_path / "benchmark.jsonl"),
            "--track",
            "no-answer",
            "--show-official",
            "--json",
            str(out),
            str(path),
        ],
    )
    assert "answer toy_bool_solution: 'false' (official: 'true'); check: differs (lean proved" in result.stdout
    (verdict,) = json.loads(out.read_text())["results"]
    assert verdict["answers"][NAME]["check"]["status"] == "differs"


@pytest.mark.parametrize("word", ["lim", "deriv", "iSup"])
def test_a_candidates_own_words_do_not_decide_its_answer_check(bench: Benchmark, word: str) -> None:
    """Only the official answer's words can end the check early (``lean_answers.check_value``), as in the
    Rocq check, where a bound ``inf`` kept a wrong answer ``unknown`` (red team 23). Here G2 refuses these
    words in a value by spelling anyway; the check itself now lets the kernel prove the answer different."""
    wrong = _verify(bench, f"(fun ({word} : Bool) => {word}) false", keep_going=True)
    assert wrong.status == "rejected" and not wrong.gates[1].passed and wrong.gates[3].passed
    assert _check(wrong)["status"] == "differs", _check(wrong)
