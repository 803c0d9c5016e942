"""What a published run says it was judged under: SUMMARY.md, the report and the bundle name every flag
that lifts a gate's rule, and the toolchain (docs/threat-model.md).

The runs are real: ``putnam solve`` of one Rocq sample with the loopback model server, real coqc/coqchk,
once with ``--allow-recursion`` and once without.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fakes.sample_prover import SampleProver, solved_run
from tests.fakes.scripted_agent import NEEDS_ROCQ
from tests.processes import putnam

pytestmark = NEEDS_ROCQ

PROBLEM = "sample_even_square"
LIFTED = "--allow-recursion: candidate recursion accepted on a Coq with known kernel bugs"


def _published(run_dir: Path, tmp_path: Path) -> tuple[str, str, dict[str, object]]:
    pytest.importorskip("inspect_ai")
    assert putnam("report", run_dir)[0] == 0
    code, stdout, stderr = putnam("export", run_dir, "-o", tmp_path / "bundle")
    assert code == 0, stdout + stderr
    index = json.loads((tmp_path / "bundle" / "bundle.json").read_text())
    return (run_dir / "SUMMARY.md").read_text(), (run_dir / "report.html").read_text(), index


@pytest.mark.parametrize("flags", [(), ("--allow-recursion",)], ids=["default", "allow-recursion"])
def test_a_count_made_with_a_gate_rule_lifted_says_so_wherever_it_is_published(
    tmp_path: Path, flags: tuple[str, ...]
) -> None:
    """Before: SUMMARY.md's "Acceptance gates" row and the report's settings said "profile full" for a run
    started with ``--allow-recursion`` (under which rocq#20455's proof of False is accepted) as for any
    other, and the report named no toolchain; only the bundle's index recorded the flag."""
    pytest.importorskip("inspect_ai")
    (tmp_path / "made").mkdir()
    run_dir, _ = solved_run(tmp_path / "made", SampleProver([]), (PROBLEM,), *flags)
    summary, page, index = _published(run_dir, tmp_path)
    gates = next(line for line in summary.splitlines() if line.startswith("| Acceptance gates |"))
    toolchain = next(line for line in summary.splitlines() if line.startswith("| Toolchain |"))
    assert "The Coq Proof Assistant" in toolchain
    assert "<th>toolchain</th><td>The Coq Proof Assistant" in page
    acceptance = index["acceptance"]
    assert isinstance(acceptance, dict) and acceptance["unsafe_no_sandbox"] is False
    if flags:
        assert LIFTED in gates and LIFTED in page and acceptance["allow_recursion"] is True
    else:
        assert gates == "| Acceptance gates | profile full |" and "--allow-recursion" not in page
