"""Red team 27 (Lean): a module of the candidate's name elsewhere on `lean`'s search path.

The harness files that import the candidate's compiled module (G5, the yes/no rule, the answer check,
the fast profile's statement check) find it by name on ``LEAN_PATH``, where Lean takes the first
directory holding the file (leanprover/lean4 src/Lean/Util/Path.lean, ``SearchPath.findWithExt``), and
the candidate's directory came last: after the caller's ``LEAN_PATH`` for a `lean` given by
``PUTNAM_LEAN``, after the workspace's libraries for the bootstrapped one (``lake env``). A stale
``<Module>.olean`` there (an earlier, honest build of the same problem in the user's own project) was
imported instead of the one G4 compiled: on the real Lean 4.35 kernel G5 reported the stale theorem's
axioms (none) for a candidate resting on an axiom. Now such a module is an ``error`` of each of these
runs, never read; without it the same candidate is refused by G5 as before.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.verify import Verdict
from tests.adversarial._lean_redteam27_toy import NAME, PROBLEM, STATEMENT, THEOREM, verify_full
from tests.helpers import one_record_benchmark
from tests.toylean.build import ToyLean

HONEST = f"noncomputable abbrev {NAME} : Nat := 1\n{THEOREM}\n  rfl\n"
CHEAT = f"noncomputable abbrev {NAME} : Nat := 1\naxiom cheat : Eq {NAME} {NAME}\n{THEOREM}\n  cheat\n"


@pytest.fixture
def bench(toy_lean_env: ToyLean, tmp_path: Path) -> Benchmark:
    return one_record_benchmark(tmp_path, PROBLEM, STATEMENT)


def _g5(verdict: Verdict) -> tuple[str, str]:
    (gate,) = [g for g in verdict.gates if g.id == "G5"]
    return gate.status.value, gate.detail


def test_a_stale_module_on_the_search_path_is_never_read(
    bench: Benchmark, toy_lean_env: ToyLean, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stale = tmp_path / "stale"
    stale.mkdir()
    (stale / "ToyNat.lean").write_text(HONEST)
    env = {"LEAN_PATH": str(toy_lean_env.init_dir), "PATH": "/usr/bin:/bin"}
    subprocess.run(
        [str(toy_lean_env.lean), "-o", "ToyNat.olean", "ToyNat.lean"], cwd=stale, env=env, check=True, timeout=120
    )
    monkeypatch.setenv("LEAN_PATH", f"{toy_lean_env.init_dir}:{stale}")
    status, detail = _g5(verify_full(bench, CHEAT))
    assert status == "error" and "ToyNat.olean" in detail and "search path" in detail, detail


def test_without_it_the_axiom_is_refused_and_an_honest_proof_passes(bench: Benchmark) -> None:
    status, detail = _g5(verify_full(bench, CHEAT))
    assert status == "failed" and "cheat" in detail, detail
    assert _g5(verify_full(bench, HONEST))[0] == "passed"
