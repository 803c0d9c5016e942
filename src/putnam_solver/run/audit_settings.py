"""What an audit judges with: the auditor's own benchmark, tools and gate options, never the run's.

A run directory is evidence anyone may hand over, and its ledger can be edited with plain ``sqlite3``: its
settings say what the run *claims* (the benchmark file it used and its hash, ``--allow-recursion``, the
tools it ran, AXLE, kernels), not what a reviewer should do. So the audit takes

- the benchmark from the auditor: the file ``--benchmark`` names, or, when the run names a registered
  benchmark file, the auditor's own copy of it (found as ``putnam verify`` finds it, never at the path the
  ledger holds); its SHA-256 must be the one the run claims, and it counts as pinned only when a pin the
  auditor holds matches it (the registered pin of its name, or ``--benchmark-sha256``);
- the tools resolved on the auditor's machine (``--tool`` or the prover's own lookup);
- the gate options from the auditor's flags, at the full profile, in the sandbox.

What the run claimed is only compared with these and reported (``claimed_differences``).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from putnam_solver.benchmark_files import locate_benchmark, request_for_file
from putnam_solver.core.benchmark import Benchmark, BenchmarkError, load_benchmark
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, VerifyOptions
from putnam_solver.run.agent.types import SolveConfig
from putnam_solver.run.campaign import StoredSettings
from putnam_solver.terminal import shown_path


def audit_benchmark(
    settings: StoredSettings, where: str | Path | None, pin: str | None, prover: str, run_dir: Path
) -> Benchmark:
    """The benchmark the audit judges against (module doc); InputError when none is given or found, or its
    bytes are not the ones the run claims."""
    claimed_file = settings.selection.benchmark.name
    chosen = where or request_for_file(claimed_file)
    if chosen is None:
        raise InputError(
            f"{run_dir}: the run names its benchmark file {claimed_file!r}, which is not a registered benchmark; "
            "give the benchmark file you trust with --benchmark PATH (the audit never loads a file because the "
            "run's ledger names it)"
        )
    try:
        located = locate_benchmark(chosen, prover)
        benchmark = load_benchmark(located.path, pin)
    except BenchmarkError as exc:
        raise InputError(f"{run_dir}: cannot load the benchmark to audit against: {exc}") from exc
    expected = settings.benchmark_sha256
    if benchmark.sha256 != expected:
        raise InputError(
            f"{located.path}: SHA-256 is {benchmark.sha256}, but the run in {run_dir} claims a benchmark with "
            f"SHA-256 {expected}; its passes can only be checked against the same statements. Give the run's "
            "benchmark file with --benchmark PATH (or NAME)"
        )
    return benchmark


def pin_line(benchmark: Benchmark) -> str:
    """How the audit's benchmark is named in its outcome: its path and hash, pinned or not."""
    state = f"pinned as {benchmark.pin_name}" if benchmark.pinned else "UNPINNED (no pin you hold matches it)"
    return f"benchmark {benchmark.path} (sha256 {benchmark.sha256[:16]}...; {state})"


def audit_options(options: VerifyOptions, benchmark: Benchmark) -> VerifyOptions:
    """The auditor's options at the full profile, in the sandbox, on the benchmark's toolchain release
    unless the auditor chose one."""
    return dataclasses.replace(
        options,
        profile=Profile.FULL,
        acceptance=None,
        unsafe_no_sandbox=False,
        kept_builds=False,
        toolchain=benchmark.release(options.toolchain),
    )


def claimed_differences(config: SolveConfig, options: VerifyOptions) -> list[str]:
    """Where the run's claimed gate settings differ from the audit's, one sentence each."""
    found = []
    if config.allow_recursion != options.of(RocqOptions).allow_recursion:
        found.append(
            "the run used --allow-recursion; audited without it"
            if config.allow_recursion
            else "audited with --allow-recursion (the run did not use it)"
        )
    if config.axle and not options.axle:
        found.append("the run used --axle (G7); audited without it")
    kernels = options.of(LeanOptions).kernels
    if tuple(config.kernels) != tuple(kernels):
        claimed = shown_path(",".join(config.kernels))  # the ledger's text, on one line of audit's own
        found.append(f"the run required kernels {claimed}; audited with {','.join(kernels)}")
    if config.acceptance_profile != Profile.FULL:
        found.append(f"the run accepted at profile {config.acceptance_profile.value}; audited at full")
    if config.unsafe_no_sandbox:
        found.append("the run ran its tools without the sandbox; audited in it")
    if config.tools:
        named = shown_path(", ".join(f"{k}={v}" for k, v in sorted(config.tools.items())))
        found.append(f"the run named its own tools ({named}); audited with this machine's")
    if config.toolchain is not None and config.toolchain != options.toolchain:
        found.append(
            f"the run judged on toolchain release {shown_path(config.toolchain)}; audited on {options.toolchain}"
        )
    return found
