"""An attempt's workspace and prompts: what the model is shown, written before any model is called.

The statement file holds what the model may see on the run's track; the challenge (with an inlined
answer) never enters a workspace. ``putnam solve --prepare-only`` writes these and stops.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import write_atomic
from putnam_solver.run.agent.tools import render
from putnam_solver.run.agent.types import CarryForward, SolveConfig
from putnam_solver.run.agent.worker import carry_forward_text

PROMPT_FILE = "PROMPT.md"


def prepare_workspaces(
    problems: Sequence[Problem], benchmark: Benchmark, config: SolveConfig, work_dir: Path
) -> list[Path]:
    """Write each problem's workspace (statement file, project file, PROMPT.md); no model is called."""
    prover = get_prover(config.prover)
    return [_write_workspace(prover, problem, config, work_dir / problem.id) for problem in problems]


def _write_workspace(prover: Prover, problem: Problem, config: SolveConfig, where: Path) -> Path:
    statement = prover.model_statement(problem, config.track)
    file_name = f"{problem.module}{prover.suffix}"
    write_atomic(where / file_name, statement.encode("utf-8"))
    for name, text in prover.workspace_files(config.verify_options()).items():
        write_atomic(where / name, text.encode("utf-8"))
    prompt = system_prompt(prover, config) + "\n\n---\n\n" + task_prompt(prover, problem, config, None)
    write_atomic(where / PROMPT_FILE, prompt.encode("utf-8"))
    return where


def system_prompt(prover: Prover, config: SolveConfig) -> str:
    """The worker's standing instructions: the prover, its policy, the turn budget."""
    return render(
        "worker_system.md",
        prover_label=prover.label,
        policy=prover.policy_text(config.verify_options()),
        max_turns=str(config.budgets.max_turns),
    )


def task_prompt(prover: Prover, problem: Problem, config: SolveConfig, carried: CarryForward | None) -> str:
    """One problem's task: its statement as the model may see it, and the best earlier attempt if any."""
    template = "worker_task.md" if config.agent == "react" else "codex_task.md"
    return render(
        template,
        problem_id=problem.id,
        file_name=f"{problem.module}{prover.suffix}",
        statement=prover.model_statement(problem, config.track),
        policy=prover.policy_text(config.verify_options()),
        carry_forward=carry_forward_text(carried),
    )
