"""A run's settings: what it is about, as stored in its ledger (``stored_settings``) so that ``--resume``
need not repeat them.

The identity of a run (its config, benchmark, selected problems, ``fresh``: ``StoredSettings.identity``)
may not change on resume; how the model is reached (``CONNECTION_KEYS``) and the limits may.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.util import InputError
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import SolveConfig
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.run.stored_settings import Selection, StoredSettings, describe_benchmark, stored_settings
from putnam_solver.terminal import shown_path
from putnam_solver.verifier.dispatch import LOCAL, Verifier


@dataclass(frozen=True)
class RunSettings:
    """One run as every layer receives it: built and checked once (``solving.build_request``, from the
    flags or, for ``--resume``, from the ledger), then handed down whole, never rebuilt on the way.

    ``campaigns`` is the run's total number of campaigns (0 = no limit); it and ``run_limits`` may be
    raised on resume, and the config's ``CONNECTION_KEYS`` changed; nothing else that defines the run."""

    run_dir: Path
    config: SolveConfig
    selection: Selection
    campaigns: int = 1
    run_limits: RunLimits = field(default_factory=RunLimits)
    fresh: bool = False
    resume: bool = False
    verifier: Verifier = LOCAL
    """Where the gates run (``--ray``): chosen by each invocation, never stored with the run."""
    model_sources: Mapping[str, str] = field(default_factory=dict)
    """What each model loaded on this machine was found to be by the model check
    (``model_names.model_sources``): every later load requires the same, never stored with the run."""

    def __post_init__(self) -> None:
        if self.campaigns < 0:
            raise InputError(f"the campaign limit must be 0 (no limit) or more, got {self.campaigns}")


def stored_run(run_dir: Path) -> RunSettings | None:
    """The run recorded in ``run_dir``'s ledger, to resume (None if there is no run there)."""
    if not ((run_dir / LEDGER_NAME).exists() or (run_dir / LEDGER_NAME).is_symlink()):
        return None  # anything else there: Ledger.open says what it is
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        stored = stored_settings(ledger)
    finally:
        ledger.close()
    if stored is None:
        return None
    return RunSettings(
        run_dir=run_dir,
        config=stored.config,
        selection=stored.selection,
        campaigns=stored.campaigns,
        run_limits=stored.limits,
        fresh=stored.fresh,
        resume=True,
    )


def ledger_settings(
    run: RunSettings, benchmark: Benchmark, selected: Sequence[Problem], suffix: str, toolchain: str
) -> StoredSettings:
    """The run's settings as the ledger keeps them, with what the selection resolved to and the
    fingerprint of the toolchain the gates run on (``putnam audit`` and proof bundles compare it; it is
    not part of the run's identity, so a resume on an upgraded toolchain records the new one)."""
    return StoredSettings(
        config=run.config,
        selection=dataclasses.replace(run.selection, benchmark=run.selection.benchmark.resolve()),
        benchmark_sha256=benchmark.sha256,
        selected=tuple(p.id for p in selected),
        pin=benchmark.pin_name,
        fresh=run.fresh,
        campaigns=run.campaigns,
        limits=run.run_limits,
        suffix=suffix,
        toolchain=toolchain,
        benchmark=describe_benchmark(benchmark),
        splits={p.id: p.split for p in selected if p.split},
    )


def differences(old: Mapping[str, Any], new: Mapping[str, Any], prefix: str = "") -> list[str]:
    found = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if isinstance(a, dict) and isinstance(b, dict):
            found.extend(differences(a, b, f"{prefix}{key}."))
        elif a != b:
            shown = [v if not isinstance(v, list) or len(v) <= 6 else f"{len(v)} problems" for v in (a, b)]
            found.append(f"{prefix}{key}: {shown[0]!r} -> {shown[1]!r}")
    return found


def check_resume(
    run_dir: Path, stored: StoredSettings | None, settings: StoredSettings, resume: bool, allow: bool
) -> None:
    """Refuse to start over a run, to resume nothing, or to resume with another identity (``allow``
    lifts the last, for callers of ``solve`` that mean it; the CLI never does)."""
    if stored is None:
        if resume:
            raise InputError(f"{run_dir}: nothing to resume here; run without --resume to start")
        return
    if not resume:
        raise InputError(f"{run_dir} already holds a run; continue it with --resume or choose another --run-dir")
    changed = differences(stored.identity(), settings.identity())
    if stored.benchmark_sha256 != settings.benchmark_sha256 and not allow:  # named apart (red team 11)
        raise InputError(
            f"{run_dir}: the benchmark file {shown_path(settings.selection.benchmark)} changed since the run started "
            f"(SHA-256 {stored.benchmark_sha256[:16]}... then, {settings.benchmark_sha256[:16]}... now); a resume "
            "judges the statements the run started with. Restore the file the run used, or start a new run with "
            "another --run-dir"
        )
    if changed and not allow:
        raise InputError(
            f"{run_dir} was started with other settings ({'; '.join(changed)}); `putnam solve --resume` "
            "reuses the stored settings (with the same benchmark file), or start a new run with another "
            "--run-dir"
        )
