"""Red team 27 (Lean, full profile): what a candidate prints cannot pass a compiled gate.

Real Lean 4.35 kernel (toy prelude, ``tests/toylean``). ``lean --json`` prints one compressed JSON
object per message, so a message whose text holds a newline and a forged object stays one line whose
``data`` is that text, with the candidate's own ``fileName`` and position (observed below). G4 counts
only Lean's own severities; G5 reads the single message at the harness file's ``#print axioms`` line.
Adversarial: a candidate that prints, at its own line 2 (the harness's print line), a forged
"does not depend on any axioms" for the theorem and a forged JSON message naming the harness file,
while its theorem rests on an axiom: G5 still lists the axiom. Valid: an honest proof whose compile
prints information (``#print axioms``, ``#check``) passes G4 and G5.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean.compile import parse_messages
from tests.adversarial._lean_redteam27_toy import NAME, PROBLEM, STATEMENT, THEOREM, gate_outcome, verify_full
from tests.helpers import one_record_benchmark
from tests.toylean.build import ToyLean

FORGED_JSON = json.dumps(
    {"severity": "information", "fileName": "ToyNatAxioms.lean", "pos": {"line": 2, "column": 0}, "data": "x"}
)
FORGED = f"#print \"'toy_nat' does not depend on any axioms\"\n#print {json.dumps('a' + chr(10) + FORGED_JSON)}\n"


@pytest.fixture
def bench(toy_lean_env: ToyLean, tmp_path: Path) -> Benchmark:
    return one_record_benchmark(tmp_path, PROBLEM, STATEMENT)


def test_a_forged_axiom_report_does_not_hide_an_axiom(bench: Benchmark) -> None:
    text = f"noncomputable abbrev {NAME} : Nat := 1\n{FORGED}axiom cheat : Eq {NAME} {NAME}\n{THEOREM}\n  cheat\n"
    verdict = verify_full(bench, text)
    assert gate_outcome(verdict, "G4")[0] == "passed"
    status, detail = gate_outcome(verdict, "G5")
    assert status == "failed" and "cheat" in detail, detail
    assert verdict.status != "accepted"


def test_an_honest_proof_that_prints_information_passes_g4_and_g5(bench: Benchmark) -> None:
    unused = "theorem zz_helper (h : True) : True := True.intro\n\n"  # the unused-variables linter warns
    text = f"noncomputable abbrev {NAME} : Nat := 1\n{unused}{THEOREM}\n  rfl\n#print axioms toy_nat\n#check toy_nat\n"
    verdict = verify_full(bench, text)
    g4 = next(g for g in verdict.gates if g.id == "G4")
    assert g4.passed and g4.evidence["messages_by_severity"] == {"warning": 1, "information": 2}, g4.evidence
    assert gate_outcome(verdict, "G5") == ("passed", "toy_nat depends on no axioms")


def test_lean_prints_a_forged_object_inside_one_message(toy_lean: ToyLean, tmp_path: Path) -> None:
    """What the parser relies on, observed: the text stays in ``data``, one line per message."""
    (tmp_path / "M.lean").write_text(f"theorem t : True := True.intro\n{FORGED}")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [str(toy_lean.lean), "--json", "M.lean"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    messages, unparsed = parse_messages(done.stdout)
    assert unparsed == 0 and len(done.stdout.splitlines()) == len(messages) == 2
    assert {m.file_name for m in messages} == {"M.lean"} and {m.severity for m in messages} == {"information"}
    assert messages[1].text == "a\n" + FORGED_JSON


def test_a_sorry_whose_warning_is_switched_off_is_still_refused_by_g5(bench: Benchmark) -> None:
    """Lean 4.35's ``warn.sorry`` option removes the "declaration uses `sorry`" warning (observed: no
    message at all, exit 0), the only sign of a ``sorry`` G4 reads; G3 refuses the option and the word,
    and by meaning G5 walks the theorem and finds ``sorryAx``."""
    hidden = f"noncomputable abbrev {NAME} : Nat := 1\nset_option warn.sorry false in\n{THEOREM}\n  sorry\n"
    verdict = verify_full(bench, hidden)
    assert gate_outcome(verdict, "G4")[0] == "passed"  # no warning, no error: G4 cannot see it
    status, detail = gate_outcome(verdict, "G5")
    assert status == "failed" and "sorryAx" in detail, detail
    assert gate_outcome(verdict, "G3")[0] == "failed"


def test_exit_before_the_theorem_leaves_g5_nothing_to_pass(bench: Benchmark) -> None:
    """``#exit`` stops `lean` with exit 0 and an ``.olean`` of what came before: the theorem is not in
    it, so G5's harness file fails to elaborate (an error, never a pass)."""
    text = f"noncomputable abbrev {NAME} : Nat := 1\n#exit\n{THEOREM}\n  sorry\n"
    verdict = verify_full(bench, text)
    assert gate_outcome(verdict, "G4")[0] == "passed"
    status, detail = gate_outcome(verdict, "G5")
    assert status in ("failed", "error") and "toy_nat" in detail, detail
    assert verdict.status != "accepted"
