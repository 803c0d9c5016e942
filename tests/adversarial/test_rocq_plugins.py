"""Plugin code run at compile time: Elpi (loaded by `From mathcomp Require Import functions`) runs shell
commands from a candidate's text during G4. G3 must refuse every Elpi vernacular, the `elpi` tactic and
the Hierarchy Builder commands built on it, before anything is compiled.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.rocq import RocqProver
from putnam_solver.core.provers.rocq.forbidden import challenge_statement, check_forbidden
from putnam_solver.core.verify import GateStatus, Profile, Track, VerifyOptions, run_gates
from tests.helpers import ROCQ_SAMPLES, rocq_submission

BENCHMARK = ROCQ_SAMPLES
"""What the ``bench`` fixture (conftest.py) loads for this module."""

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "rocq"


def _elpi_candidate(marker: str) -> str:
    """A helper whose proof defines and runs an Elpi command that writes ``marker`` with a shell."""
    return f"""From mathcomp Require Import functions.
Require Import Arith.

Lemma zz_helper : True.
Proof.
  Elpi Command zz_cmd.
  Elpi Accumulate lp:{{{{ main _ :- system "id > {marker}" _. }}}}.
  Elpi zz_cmd.
  exact I.
Qed.

Theorem sample_even_square
    (n : nat)
    : Nat.even (n * n) = Nat.even n.
Proof.
  exfalso.
Qed.
"""


def _wrap(helper: str, proof: str = "reflexivity.") -> str:
    return (
        f"From mathcomp Require Import functions.\nRequire Import Arith.\n\n{helper}\n\nTheorem sample_even_square\n"
        f"    (n : nat)\n    : Nat.even (n * n) = Nat.even n.\nProof.\n  {proof}\nQed.\n"
    )


PLUGIN_CODE = {
    "Elpi Command": _wrap("Lemma zz : True.\nProof.\n  Elpi Command zz_c.\n  exact I.\nQed."),
    "Elpi Tactic": _wrap("Lemma zz : True.\nProof.\n  Elpi Tactic zz_t.\n  exact I.\nQed."),
    "Elpi Program": _wrap("Lemma zz : True.\nProof.\n  Elpi Program zz_p lp:{{ }}.\n  exact I.\nQed."),
    "Elpi Accumulate": _wrap("", 'Elpi Accumulate zz_c lp:{{ main _ :- system "ls /" _. }}.\n  reflexivity.'),
    "Elpi Query": _wrap("", 'Elpi Query lp:{{ system "ls /" _ }}.\n  reflexivity.'),
    "Elpi Db": _wrap("", "Elpi Db zz.db lp:{{ }}.\n  reflexivity."),
    "attributed Elpi": _wrap("", "#[local] Elpi Export zz_c.\n  reflexivity."),
    "elpi tactic": _wrap("", "elpi zz_t."),
    "elpi in ltac:()": _wrap("Definition zz : True := ltac:(elpi zz_t)."),
    "HB.instance": _wrap("", "HB.instance Definition _ := zz.\n  reflexivity."),
    "Declare ML Module": _wrap("", 'Declare ML Module "zz_plugin".\n  reflexivity.'),
    "Load": _wrap("", "Load zz_file.\n  reflexivity."),
    "Add ML Path": _wrap("", 'Add ML Path "/tmp".\n  reflexivity.'),
    "Extraction TestCompile": _wrap("", "Extraction TestCompile nat.\n  reflexivity."),
}
"""Commands and tactics that load or define plugin code, or run Elpi programs, in a candidate's proof."""


@pytest.mark.parametrize("name", PLUGIN_CODE)
def test_plugin_code_is_refused_by_g3(bench: Benchmark, name: str) -> None:
    candidate = PLUGIN_CODE[name]
    statement = challenge_statement(rocq_submission(bench, "sample_even_square", candidate))
    assert check_forbidden(statement, candidate, refuse_recursion=False), name


def test_importing_mathcomp_functions_alone_is_allowed(bench: Benchmark) -> None:
    candidate = _wrap("", "by case: n => //.")
    statement = challenge_statement(rocq_submission(bench, "sample_even_square", candidate))
    assert check_forbidden(statement, candidate, refuse_recursion=True) == []


@pytest.mark.skipif(shutil.which("coqc") is None, reason="coqc not installed")
def test_elpi_runs_a_shell_command_in_coqc_and_the_gates_never_compile_it(bench: Benchmark, tmp_path: Path) -> None:
    marker = tmp_path / "ran.txt"
    candidate = _elpi_candidate(str(marker))
    # The danger is real: plain coqc runs the candidate's shell command while compiling.
    (tmp_path / "probe.v").write_text(candidate, encoding="utf-8")
    subprocess.run(["coqc", "probe.v"], cwd=tmp_path, capture_output=True, timeout=300, check=False)
    assert marker.read_text().startswith("uid=")
    marker.unlink()
    # Without the sandbox a regression would show as the marker file written again.
    verdict = run_gates(
        RocqProver(),
        bench,
        bench.problems["sample_even_square"],
        candidate.encode(),
        Track.WITH_ANSWER,
        VerifyOptions(profile=Profile.FAST, unsafe_no_sandbox=True),
    )
    g3 = next(g for g in verdict.gates if g.id == "G3")
    assert g3.status is GateStatus.FAILED and "`Elpi`" in g3.detail
    assert "G4" not in {g.id for g in verdict.gates}
    assert not marker.exists()
