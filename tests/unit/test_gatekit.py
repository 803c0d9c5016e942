"""The gate kit's text-gate report: the one way every prover's G2 and G3 turn violations into a result."""

from __future__ import annotations

from putnam_solver.core.gatekit import Violation, text_gate_result
from putnam_solver.core.verify import GateStatus


def test_a_text_gate_passes_only_without_violations() -> None:
    passed = text_gate_result("G3", "forbidden", [], "nothing forbidden")
    assert passed.passed and passed.detail == "nothing forbidden"
    assert passed.evidence == {"violations": []}


def test_a_text_gate_reports_one_violation_a_line_and_all_of_them_as_data() -> None:
    found = [Violation(3, "`Axiom`", "declares an assumption"), Violation(7, "sorry", "proof hole")]
    failed = text_gate_result("G3", "forbidden", found, "nothing forbidden")
    assert failed.status is GateStatus.FAILED
    assert failed.detail == "line 3: `Axiom`: declares an assumption\nline 7: sorry: proof hole"
    assert failed.evidence["violations"][1] == {"line": 7, "construct": "sorry", "rule": "proof hole"}
