"""``putnam solve --resume`` on a run directory whose ``work/<problem>`` is a planted link (a run directory
handed over, or a ``cp -r`` copy of one, can hold it). It was refused with the run directory and the link's
name only, with exit code 1 and no word of what to do; the refusal now names the workspace's path, the
problem and the fix (remove the link) as ``putnam audit`` and ``putnam report`` do, with exit code 2, and
writes nothing through the link. Without the link the same resume writes the workspace and goes on.
``putnam solve --prepare-only`` refuses such a link in the same words, before it records the run, so that
the same command prepares it once the link is gone."""

from __future__ import annotations

import shutil
from pathlib import Path

from putnam_solver.safe_write import RUN_OUTPUT_FIX
from tests.adversarial.test_run_directory import HONEST, RECURSIVE, Prover
from tests.fakes.openai_server import serve
from tests.fakes.sample_prover import SAMPLES
from tests.fakes.scripted_agent import FIXTURE, NEEDS_ROCQ
from tests.processes import putnam, solve_args

pytestmark = NEEDS_ROCQ

KEYS = {"FAKE_API_KEY": "test-key", "INSPECT_EVAL_MAX_RETRIES": "1"}


def test_resume_names_a_planted_workspace_link_its_problem_and_the_fix(tmp_path: Path) -> None:
    benchmark = tmp_path / "benchmark.jsonl"
    shutil.copyfile(SAMPLES / "benchmark.jsonl", benchmark)
    run_dir = tmp_path / "run"
    with serve(Prover([])) as url:  # RECURSIVE's proof of False is refused: it stays unresolved
        args = solve_args(benchmark, run_dir, RECURSIVE, HONEST, url=url, jobs=2, max_turns=1, campaigns=1)
        code, stdout, stderr = putnam(*args, **KEYS)
    assert code == 0 and "1 of 2 problems solved" in stdout + stderr, stdout + stderr
    victim = tmp_path / "home"
    victim.mkdir()
    workspace = run_dir / "work" / RECURSIVE
    shutil.rmtree(workspace)
    workspace.symlink_to(victim, target_is_directory=True)
    resume = ["solve", "--resume", run_dir, "--quiet", "--campaigns", "2"]
    with serve(Prover([])) as url:
        code, stdout, stderr = putnam(*resume, "--model-base-url", url, **KEYS)
    said = stdout + stderr
    assert code == 2 and f"{workspace}, the workspace of {RECURSIVE}" in said and RUN_OUTPUT_FIX in said, said
    assert list(victim.iterdir()) == []

    workspace.unlink()  # valid beside: the link removed, the same resume writes the workspace and goes on
    with serve(Prover([])) as url:
        code, stdout, stderr = putnam(*resume, "--model-base-url", url, **KEYS)
    assert code == 0 and not workspace.is_symlink() and any(workspace.iterdir()), stdout + stderr


def test_prepare_only_names_a_planted_workspace_link_its_problem_and_the_fix(tmp_path: Path) -> None:
    run_dir, victim = tmp_path / "run", tmp_path / "home"
    victim.mkdir()
    workspace = run_dir / "work" / "one_plus_one"
    workspace.parent.mkdir(parents=True)
    workspace.symlink_to(victim, target_is_directory=True)
    prepare = ["solve", "--prover", "rocq", "--benchmark", FIXTURE, "--model", "mockllm/model", "--run-dir", run_dir]
    code, stdout, stderr = putnam(*prepare, "--prepare-only")
    said = stdout + stderr
    assert code == 2 and f"{workspace}, the workspace of one_plus_one" in said and RUN_OUTPUT_FIX in said, said
    assert list(victim.iterdir()) == [] and not (run_dir / "run.json").exists(), "nothing written, no run recorded"

    workspace.unlink()  # valid beside: the link removed, the same command prepares the run
    code, stdout, stderr = putnam(*prepare, "--prepare-only")
    assert code == 0 and "next: putnam solve --resume" in stdout and any(workspace.iterdir()), stdout + stderr
