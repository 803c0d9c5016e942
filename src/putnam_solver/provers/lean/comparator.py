"""G6, kernel replay: leanprover/comparator judges the candidate against the harness's challenge.

Comparator builds a trusted ``Challenge`` module and the candidate's ``Solution`` module, exports both
with lean4export, checks that the theorem (and, on the no-answer track, the ``*_solution`` definition
holes) has the same statement and the same dependencies in both, that the proof uses only the permitted
axioms, and replays the solution into the Lean kernel. Its exit code is the verdict, nothing else: a
candidate can make the build print anything, including comparator's own success line.

Where it runs. Comparator sandboxes the two builds itself with landrun (Landlock): read-only file system,
writes only to the project's ``.lake``. It also needs user namespaces and Landlock of its own, so it
runs outside bubblewrap, under the same time, memory, process and output caps (``run_sandboxed`` with
``unsafe_no_sandbox``), on a fresh project per run: the challenge text comes from the harness (never
from a workspace), the solution is the candidate's bytes, and Mathlib's packages are linked read-only
from the bootstrapped project, so a candidate's build can neither see an earlier build nor change the
shared Mathlib. Landlock is probed first; without it the gate is ``unavailable``, never passed.
Comparator's JSON report sits in the project the candidate's build shares, so it is read with
``safe_files``: a report replaced by a link, a FIFO or a huge file makes the gate an ``error``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

from putnam_solver.benchmark import sha256_file
from putnam_solver.provers.lean.bootstrap import (
    CHALLENGE_MODULE,
    COMPARATOR_REV,
    SOLUTION_MODULE,
    Layout,
)
from putnam_solver.provers.lean.compile import limits_for
from putnam_solver.provers.lean.toolchain import ToolchainPaths, toolchain_root
from putnam_solver.safe_files import UnsafeFile, read_regular_file
from putnam_solver.sandbox import (
    DEFAULT_PATH,
    SandboxResult,
    fresh_copy,
    landlock_status,
    run_sandboxed,
)
from putnam_solver.verify import GateResult, GateStatus, Submission, Track, sha256_hex

GATE_ID = "G6"
GATE_NAME = "kernel"
PERMITTED_AXIOMS = ("propext", "Quot.sound", "Classical.choice")
REPORT_FILE = "comparator-report.json"
REPORT_MAX_BYTES = 4 << 20
"""Comparator's report lists axioms per target: kilobytes. Anything bigger is not its report."""
OUTPUT_TAIL = 3000
SOLUTION_DEF = re.compile(r"^(?:noncomputable\s+)?(?:abbrev|def)\s+(\S+_solution)\b", re.MULTILINE)
"""A PutnamBench answer hole: ``abbrev putnam_X_solution`` (or ``def``) at the start of a line."""
PROJECT_FILES = ("lakefile.toml", "lean-toolchain", "lake-manifest.json")


def comparator_available(root: Path) -> tuple[bool, str]:
    """Whether comparator can run from the toolchain at ``root``, and what is missing if not."""
    layout = Layout(ToolchainPaths(root))
    paths = layout.paths
    needed = [
        paths.comparator,
        paths.lean4export,
        paths.landrun,
        layout.lake,
        *(paths.project / name for name in PROJECT_FILES),
    ]
    missing = [p for p in needed if not p.is_file()]
    if not (paths.project / ".lake" / "packages").is_dir():
        missing.append(paths.project / ".lake" / "packages")
    if missing:
        names = ", ".join(str(p.relative_to(root)) for p in missing)
        return False, f"comparator toolchain at {root} incomplete (missing {names}); run putnam bootstrap"
    landlock, why = landlock_status()
    if not landlock:
        return False, f"comparator sandboxes builds with landrun, which needs Landlock: {why}"
    return True, f"comparator {COMPARATOR_REV[:12]} at {paths.comparator}"


def definition_holes(challenge: str) -> list[str]:
    """The ``*_solution`` definitions of a challenge: the holes a no-answer candidate fills."""
    return list(dict.fromkeys(SOLUTION_DEF.findall(challenge)))


def comparator_config(sub: Submission) -> dict[str, Any]:
    """The configuration comparator reads. Only the no-answer track has definition holes: with the
    answer inlined, the ``*_solution`` definition is a dependency compared by value like any other."""
    config: dict[str, Any] = {
        "challenge_module": CHALLENGE_MODULE,
        "solution_module": SOLUTION_MODULE,
        "theorem_names": [sub.problem.id],
        "permitted_axioms": list(PERMITTED_AXIOMS),
        "enable_nanoda": False,
        "json_output_path": REPORT_FILE,
    }
    if sub.track is Track.NO_ANSWER:
        config["definition_names"] = definition_holes(sub.challenge)
    return config


def prepare_project(sub: Submission, paths: ToolchainPaths) -> Path:
    """A fresh Lake project under ``sub.scratch``: harness challenge, candidate solution, config, and the
    bootstrapped Mathlib packages linked in (read-only to the candidate's build: landrun lets it write
    only to this project's own ``.lake``, and the link points outside it)."""
    files = {name: (paths.project / name).read_bytes() for name in PROJECT_FILES}
    files[f"{CHALLENGE_MODULE}.lean"] = sub.challenge.encode("utf-8")
    files[f"{SOLUTION_MODULE}.lean"] = sub.candidate_bytes
    files["config.json"] = json.dumps(comparator_config(sub), indent=2).encode("utf-8")
    project = fresh_copy(files, sub.scratch / "comparator")
    (project / ".lake").mkdir()
    (project / ".lake" / "packages").symlink_to(
        paths.project / ".lake" / "packages", target_is_directory=True
    )
    return project


def comparator_env(layout: Layout) -> dict[str, str]:
    """A minimal environment: our elan and tools first on PATH, and no secrets of the caller."""
    paths = layout.paths
    return {
        "PATH": ":".join([str(layout.elan_bin), str(paths.comparator.parent), DEFAULT_PATH]),
        "ELAN_HOME": str(paths.elan_home),
        "COMPARATOR_LEAN4EXPORT": str(paths.lean4export),
        "COMPARATOR_LANDRUN": str(paths.landrun),
    }


def _tail(text: str) -> str:
    return text[-OUTPUT_TAIL:]


def _report(project: Path) -> Any:
    """Comparator's JSON report, kept as evidence only (it lists each target's transitive axioms);
    None when there is none or it is not JSON. Raises UnsafeFile for anything but a small regular file."""
    path = project / REPORT_FILE
    if not os.path.lexists(path):
        return None
    try:
        return json.loads(read_regular_file(path, REPORT_MAX_BYTES).decode("utf-8"))
    except ValueError:
        return None


def judge(result: SandboxResult, timeout_seconds: float) -> tuple[GateStatus, str]:
    """The verdict from how comparator ended: its exit code, or why the harness had to stop it."""
    if result.ok:
        return GateStatus.PASSED, "comparator accepted: same statement, permitted axioms, kernel replay"
    if result.timed_out:
        return (
            GateStatus.FAILED,
            f"comparator timed out after {timeout_seconds:g}s (a timeout is a rejection)",
        )
    reason = result.killed_reason
    if reason is not None and reason.startswith("signal"):
        return GateStatus.ERROR, f"comparator crashed ({reason}); the candidate is not accepted"
    if reason is not None:
        return GateStatus.FAILED, f"comparator stopped by the harness: {reason}"
    return GateStatus.FAILED, f"comparator rejected the candidate (exit code {result.exit_code})"


def comparator_gate(sub: Submission, root: Path | None = None) -> GateResult:
    """G6: run comparator on a fresh project; passed only if it exits 0 on its own."""
    root = toolchain_root() if root is None else root
    available, why = comparator_available(root)
    if not available:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.UNAVAILABLE, why)
    layout = Layout(ToolchainPaths(root))
    paths = layout.paths
    project = prepare_project(sub, paths)
    config = comparator_config(sub)
    limits = limits_for(sub)
    result = run_sandboxed(
        [str(layout.lake), "env", str(paths.comparator), "config.json"],
        workdir=project,
        env=comparator_env(layout),
        limits=limits,
        unsafe_no_sandbox=True,
    )
    status, detail = judge(result, limits.timeout_seconds)
    if status is not GateStatus.PASSED:
        detail += f"\n{_tail(result.stderr or result.stdout)}"
    evidence: dict[str, Any] = {
        "comparator_rev": COMPARATOR_REV,
        "comparator_sha256": sha256_file(paths.comparator),
        "lean4export_sha256": sha256_file(paths.lean4export),
        "landrun_sha256": sha256_file(paths.landrun),
        "config": config,
        "challenge_sha256": sha256_hex(sub.challenge.encode("utf-8")),
        "candidate_sha256": sha256_hex(sub.candidate_bytes),
        "exit_code": result.exit_code,
        "killed_reason": result.killed_reason,
        "wall_seconds": round(result.wall_seconds, 3),
        "peak_memory_kb": result.peak_memory_kb,
        "stdout_tail": _tail(result.stdout),
        "stderr_tail": _tail(result.stderr),
    }
    try:
        evidence["report"] = _report(project)
    except UnsafeFile as exc:
        detail = f"refused comparator's report ({exc}); the candidate is not accepted"
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, detail, evidence)
    return GateResult(GATE_ID, GATE_NAME, status, detail, evidence)
