"""Red team 27 (Lean): the yes/no decision walks its own axioms (``provers/lean/yes_no.py``).

G4 on a no-answer yes/no problem proves ``(sol ↔ True) ∨ (sol ↔ False)`` by the term ``decide`` builds,
which the kernel evaluates through a ``Decidable`` instance. ``Decidable.isTrue h`` evaluates to ``true``
whatever ``h`` is, so an instance of the candidate's resting on an axiom decided the restated question
``sol := Q`` (the theorem then ``Q ↔ Q``): on the real Lean 4.35 kernel (toy prelude with Lean's
``Decidable``) G4 passed it. G2 refuses the ``instance`` and G3 the ``axiom``, a text line only; now each
decision's ``#print axioms`` must list only the allowed axioms. Valid: the official answers (``True``,
``False``) and ``¬False`` still pass; a restated question without such an instance is still undecided.
"""

from __future__ import annotations

from pathlib import Path

from putnam_solver.core.provers.lean import LeanProver
from putnam_solver.core.verify import Profile, Track, Verdict, VerifyOptions, run_gates
from tests.helpers import one_record_benchmark
from tests.integration.test_lean_yes_no import NO, PROOFS, YES, statement
from tests.toylean.build import ToyLean
from tests.toylean.decidable import DECIDABLE

THEOREM = f"theorem toy_yn : Iff ({YES}) toy_yn_solution :=\n  {PROOFS[('yes', YES)]}\n"
CHEAT = f"axiom cheat : {YES}\n\ninstance zz : Decidable ({YES}) := Decidable.isTrue cheat\n\n"


def _g4(directory: Path, question: str, answer: str, before: str = "") -> tuple[str, str, dict[str, object]]:
    directory.mkdir(exist_ok=True)
    bench = one_record_benchmark(directory, "toy_yn", statement(question, "True" if question == YES else "False"))
    kind = "yes" if question == YES else "no"
    proof = PROOFS[(kind, answer)]
    theorem = f"theorem toy_yn : Iff ({question}) toy_yn_solution :=\n  {proof}\n"
    text = f"{DECIDABLE}{before}abbrev toy_yn_solution : Prop := {answer}\n{theorem}"
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    verdict: Verdict = run_gates(LeanProver(), bench, bench.problems["toy_yn"], text.encode(), Track.NO_ANSWER, options)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    return g4.status.value, g4.detail, g4.evidence


def test_an_instance_resting_on_an_axiom_decides_nothing(toy_lean_env: ToyLean, tmp_path: Path) -> None:
    status, detail, evidence = _g4(tmp_path, YES, YES, CHEAT)
    assert status == "failed", detail
    assert evidence["yes_no_axioms_outside"] == {"toy_yn_solution": "cheat"}
    assert "outside the allowed set" in detail


def test_truth_values_still_pass_and_a_restated_question_is_still_undecided(
    toy_lean_env: ToyLean, tmp_path: Path
) -> None:
    for n, (question, answer) in enumerate([(YES, "True"), (YES, "Not False"), (NO, "False")]):
        status, detail, evidence = _g4(tmp_path / str(n), question, answer)
        assert status == "passed", detail
        assert evidence["yes_no_decided"] == ["toy_yn_solution"]
    status, _, evidence = _g4(tmp_path / "restated", YES, YES)
    assert status == "failed" and evidence["yes_no_undecided"] == ["toy_yn_solution"]
