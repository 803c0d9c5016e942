"""Red team, round 8 (Lean): G4's statement check where no G6 follows (``statement_type.py``).

The harness file imported the candidate's compiled module and elaborated the pinned signature as an axiom
there, so whatever the module exports reached that reading too. On the toy toolchain (Lean 4.35):

* universe specialization: a theorem proved only for ``Prop`` where the statement quantifies over
  ``Sort u``. ``type_of% @axiom`` has universe metavariables, but ``example`` turns its header's into
  parameters before the body is elaborated, so ``@t : ∀ (α : Prop) ...`` does not unify: refused.
* an exported instance: ``instance (priority := 2000)`` before the theorem changes which instance the
  statement gets (every numeral ``0``: ``rfl`` proves ``2 = 3``), in the candidate's file and, since the
  harness imported the candidate's module before reading the pinned signature, in the harness alike: the
  check passed, only G2's words refused it. So a library command G2 does not know that adds an instance
  (or a notation, an unification hint) would have passed the ``fast`` profile. Fixed where the challenge
  declares nothing before its theorem (every miniF2F statement, which the ``fast`` profile judges): the
  signature is read in a module of the harness's own that imports only the challenge's imports, and the
  check file imports that module beside the candidate's; a no-answer challenge's answers become parameters
  of the pinned axiom, applied to the candidate's constants. Where the challenge declares other things (its
  classes, its definitions), the candidate's module declares them too and the two cannot be imported
  together: there the old reading stays, and G2 is the line against an exported instance.
"""

from __future__ import annotations

from typing import Any

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.provers.lean.statement_type import PINNED
from putnam_solver.core.verify import GateStatus, Profile, Track, Verdict, VerifyOptions, run_gates
from tests.adversarial.test_lean_redteam7 import INSTANCE_CHOICE
from tests.helpers import lean_verdict, needs_sandbox, one_record_benchmark
from tests.toylean.build import ToyLean

UNIVERSAL = "universe u\ntheorem toy_univ (α : Sort u) (a : α) : Eq a a := sorry\n"
SPECIALIZED = "universe u\ntheorem toy_univ (α : Prop) (a : α) : Eq a a := Eq.refl a\n"
NUMERALS = "theorem toy_numeral : Eq (2 : Nat) 3 := sorry\n"
"""A false statement with nothing declared before it: the pinned signature can be read alone."""
EVIL_NUMERALS = (
    "instance (priority := 2000) zzEvil (n : Nat) : OfNat Nat n := ⟨Nat.zero⟩\n"
    "theorem toy_numeral : Eq (2 : Nat) 3 := rfl\n"
)
"""Every numeral is ``0`` once the exported instance outranks the library's: ``rfl`` proves ``2 = 3``."""
EVIL_INSTANCE = INSTANCE_CHOICE.replace(
    "theorem toy_instance_choice : Eq (ZzC.val Nat) Bool.true := sorry\n",
    "instance (priority := 2000) zzEvil : ZzC Nat := ⟨Bool.true⟩\n"
    "theorem toy_instance_choice : Eq (ZzC.val Nat) Bool.true := rfl\n",
)


@pytest.fixture
def toy_env(toy_lean: ToyLean, monkeypatch: pytest.MonkeyPatch) -> ToyLean:
    for name, value in toy_lean.env.items():
        monkeypatch.setenv(name, value)
    return toy_lean


def _bench(tmp_path_factory: pytest.TempPathFactory, problem: str, statement: str) -> Benchmark:
    return one_record_benchmark(tmp_path_factory.mktemp("bench"), problem, statement)


def _verify(bench: Benchmark, problem: str, candidate: str) -> Verdict:
    return lean_verdict(bench, problem, candidate, Profile.FAST)


def _evidence(verdict: Verdict, gate: str) -> dict[str, Any]:
    return next(g for g in verdict.gates if g.id == gate).evidence


def _gate(verdict: Verdict, gate: str) -> tuple[GateStatus, str]:
    found = next(g for g in verdict.gates if g.id == gate)
    return found.status, found.detail


@needs_sandbox
def test_a_theorem_proved_only_for_prop_is_not_the_universe_polymorphic_statement(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    verdict = _verify(_bench(tmp_path_factory, "toy_univ", UNIVERSAL), "toy_univ", SPECIALIZED)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "is not the pinned one read in a clean scope" in detail and "Sort u" in detail
    assert verdict.status == "rejected"


@needs_sandbox
def test_the_universe_polymorphic_proof_passes_the_statement_check(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    candidate = UNIVERSAL.replace(":= sorry", ":= Eq.refl a")
    verdict = _verify(_bench(tmp_path_factory, "toy_univ", UNIVERSAL), "toy_univ", candidate)
    assert _gate(verdict, "G4")[0] is GateStatus.PASSED, _gate(verdict, "G4")
    assert verdict.status == "accepted"


@needs_sandbox
def test_an_exported_instance_is_refused_by_the_acceptance(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    verdict = _verify(
        _bench(tmp_path_factory, "toy_instance_choice", INSTANCE_CHOICE), "toy_instance_choice", EVIL_INSTANCE
    )
    assert verdict.status == "rejected"
    assert _gate(verdict, "G2")[0] is GateStatus.FAILED
    assert "instance" in _gate(verdict, "G2")[1]
    # the challenge declares the class and instances itself, so its signature cannot be read apart from
    # the candidate's module (which declares them too): the statement check reads it with the candidate's
    # exported instance, and only G2's words stand in the way here (G4 passes it)


@needs_sandbox
def test_an_exported_instance_does_not_reach_the_pinned_reading(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The fix: the pinned signature is read in a module of the harness's own, without the candidate's
    module; before it, the harness imported the candidate and read ``2 = 3`` with its instance (G4 passed)."""
    verdict = _verify(_bench(tmp_path_factory, "toy_numeral", NUMERALS), "toy_numeral", EVIL_NUMERALS)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "is not the pinned one read in a clean scope" in detail
    assert _gate(verdict, "G2")[0] is GateStatus.FAILED  # the words refuse it as well
    assert verdict.status == "rejected"


def test_the_pinned_module_holds_nothing_of_the_candidates() -> None:
    from putnam_solver.core.provers.lean.statement_type import PINNED, check_source, pinned_source
    from putnam_solver.core.provers.lean.syntax import parse_statement

    statement = parse_statement("import Mathlib\nopen Real\n\ntheorem t (x : ℝ) (h : 0 < x) : 0 < √x := sorry\n")
    assert pinned_source(statement) == f"import Mathlib\nopen Real\naxiom {PINNED} (x : ℝ) (h : 0 < x) : 0 < √x\n"
    assert check_source("T", statement).splitlines() == [
        "import TPinnedStatement",
        "import T",
        "open Real",
        f"example : type_of% @{PINNED} := @_root_.t",
        "#print axioms t",
    ]
    answered = parse_statement("import Mathlib\nabbrev t_solution : ℕ := sorry\ntheorem t : t_solution = 3 := sorry\n")
    assert pinned_source(answered) == f"import Mathlib\naxiom {PINNED} (t_solution : ℕ) : t_solution = 3\n"
    official = parse_statement(
        "import Mathlib\nopen Real\nabbrev t_solution : ℝ := π\ntheorem t : t_solution = π := sorry\n"
    )
    assert pinned_source(official) == (
        f"import Mathlib\nopen Real\nnoncomputable def {PINNED}_t_solution : ℝ := π\n"
        f"axiom {PINNED} (t_solution : ℝ) : t_solution = π\n"
    )
    assert (
        f"example : _root_.Eq _root_.t_solution _root_.{PINNED}_t_solution := _root_.rfl"
        in check_source("T", official).splitlines()
    )
    assert (
        check_source("T", answered).splitlines()[2] == f"example : type_of% (@{PINNED} _root_.t_solution) := @_root_.t"
    )
    declared = parse_statement("import Mathlib\ndef f : ℕ := 3\ntheorem t : f = 3 := sorry\n")
    assert pinned_source(declared) is None
    parameters = parse_statement("abbrev t_solution (n : ℕ) : ℕ := sorry\ntheorem t : t_solution 1 = 3 := sorry\n")
    assert pinned_source(parameters) is None


ANSWERED = (
    "abbrev toy_answered_solution : Nat := sorry\n"
    "theorem toy_answered : Eq toy_answered_solution toy_answered_solution → Eq (2 : Nat) 3 := sorry\n"
)
"""A false statement after an answer, which the candidate's module declares too (a no-answer problem)."""
EVIL_ANSWERED = (
    "abbrev toy_answered_solution : Nat := Nat.zero\n"
    "instance (priority := 2000) zzEvil (n : Nat) : OfNat Nat n := ⟨Nat.zero⟩\n"
    "theorem toy_answered : Eq toy_answered_solution toy_answered_solution → Eq (2 : Nat) 3 := fun _ => rfl\n"
)
DEPENDENT = (
    "class ZzV (n : Nat) where\n  v : Bool\n"
    "instance zzV : ZzV Nat.zero := ⟨Bool.true⟩\n"
    "abbrev toy_dep_solution : Nat := sorry\n"
    "theorem toy_dep : Eq (ZzV.v toy_dep_solution) Bool.true := sorry\n"
)


def _verify_no_answer(bench: Benchmark, problem: str, candidate: str) -> Verdict:
    options = VerifyOptions(Profile.FAST, keep_going=True)
    return run_gates(LeanProver(), bench, bench.problems[problem], candidate.encode(), Track.NO_ANSWER, options)


@needs_sandbox
def test_an_exported_instance_does_not_reach_the_pinned_reading_after_an_answer(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A no-answer challenge declares its answer: the pinned signature is read with the answer as a
    parameter, in the harness's own module; before, it was read in the candidate's scope (G4 passed)."""
    bench = _bench(tmp_path_factory, "toy_answered", ANSWERED)
    verdict = _verify_no_answer(bench, "toy_answered", EVIL_ANSWERED)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "is not the pinned one read in a clean scope" in detail
    assert f"type_of% (@{PINNED} _root_.toy_answered_solution)" in _evidence(verdict, "G4")["statement_check"]
    assert verdict.status == "rejected"
    sound = "abbrev toy_answered_solution : Nat := Nat.zero\n" + ANSWERED.splitlines()[1].replace(
        ":= sorry", ":= fun _ => sorry"
    )
    assert "declaration uses sorry" in _gate(_verify_no_answer(bench, "toy_answered", sound), "G4")[1]


WITH_ANSWER = "abbrev toy_wa_solution : Nat := sorry\n-- 2\ntheorem toy_wa : Eq toy_wa_solution Nat.zero := sorry\n"
"""A false statement with its official answer ``2``; a with-answer candidate may keep the ``abbrev``."""
EVIL_WITH_ANSWER = (
    "instance (priority := 2000) zzEvil (n : Nat) : OfNat Nat n := ⟨Nat.zero⟩\n"
    "abbrev toy_wa_solution : Nat := 2\n"
    "theorem toy_wa : Eq toy_wa_solution Nat.zero := rfl\n"
)
"""The official answer's text, read as ``0`` after the exported instance: the theorem's type is the pinned
one (it has no numeral), only the answer's value is not."""


@needs_sandbox
def test_an_exported_instance_cannot_change_a_kept_answers_value(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    bench = _bench(tmp_path_factory, "toy_wa", WITH_ANSWER)
    verdict = _verify(bench, "toy_wa", EVIL_WITH_ANSWER)
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.FAILED, detail
    assert "answer's value" in detail and f"{PINNED}_toy_wa_solution" in detail
    assert verdict.status == "rejected"
    pinned = _evidence(verdict, "G4")["statement_pinned"]
    assert f"noncomputable def {PINNED}_toy_wa_solution : Nat := 2" in pinned


@needs_sandbox
def test_a_kept_official_answer_passes_the_value_check(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    statement = WITH_ANSWER.replace("-- 2", "-- Nat.zero")
    bench = _bench(tmp_path_factory, "toy_wa", statement)
    candidate = "abbrev toy_wa_solution : Nat := Nat.zero\ntheorem toy_wa : Eq toy_wa_solution Nat.zero := rfl\n"
    verdict = _verify(bench, "toy_wa", candidate)
    assert _gate(verdict, "G4")[0] is GateStatus.PASSED, _gate(verdict, "G4")
    assert f"_root_.{PINNED}_toy_wa_solution := _root_.rfl" in _evidence(verdict, "G4")["statement_check"]
    assert verdict.status == "accepted"


@needs_sandbox
def test_an_answer_the_statement_needs_by_value_falls_back_to_the_candidates_scope(
    toy_env: ToyLean, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``ZzV toy_dep_solution`` needs the answer's value to find an instance; as a parameter it has none:
    the pinned module does not compile, and the check reads the signature beside the candidate's module."""
    bench = _bench(tmp_path_factory, "toy_dep", DEPENDENT)
    candidate = DEPENDENT.replace("toy_dep_solution : Nat := sorry", "toy_dep_solution : Nat := Nat.zero")
    verdict = _verify_no_answer(bench, "toy_dep", candidate.replace("true := sorry", "true := rfl"))
    status, detail = _gate(verdict, "G4")
    assert status is GateStatus.PASSED, detail
    evidence = _evidence(verdict, "G4")
    assert "type_of% @" in evidence["statement_check"] and "statement_pinned" not in evidence  # the old reading
