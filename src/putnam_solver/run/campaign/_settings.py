"""A run's settings: what it is about, as stored in its ledger so that ``--resume`` need not repeat them.

The identity of a run (its config, benchmark, selected problems, ``fresh``) may not change on resume;
how the model is reached (``CONNECTION_KEYS``) and the limits may.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmark import Benchmark, Problem, load_benchmark
from putnam_solver.core.util import InputError
from putnam_solver.core.verify import Profile, Track
from putnam_solver.run.agent.types import AgentParts, Budgets, RunLimits, SolveConfig
from putnam_solver.run.ledger import LEDGER_NAME, Ledger
from putnam_solver.verifier.dispatch import LOCAL, Verifier


@dataclass(frozen=True)
class Selection:
    """Which problems a run is about: a benchmark file (optionally pinned), its split, and the ids or a
    maximum."""

    benchmark: Path
    benchmark_sha256: str | None = None
    problems: tuple[str, ...] = ()
    max_problems: int | None = None
    split: str | None = None

    def load(self) -> tuple[Benchmark, list[Problem]]:
        """The benchmark (checked against the pin, if any) and the problems this selection picks."""
        benchmark = load_benchmark(self.benchmark, self.benchmark_sha256, self.split)
        return benchmark, benchmark.select(self.problems, self.max_problems)


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

    def __post_init__(self) -> None:
        if self.campaigns < 0:
            raise InputError(f"the campaign limit must be 0 (no limit) or more, got {self.campaigns}")


def stored_run(run_dir: Path) -> RunSettings | None:
    """The run recorded in ``run_dir``'s ledger, to resume (None if there is no run there)."""
    if not (run_dir / LEDGER_NAME).is_file():
        return None
    ledger = Ledger.open(run_dir / LEDGER_NAME)
    try:
        settings = ledger.settings()
    finally:
        ledger.close()
    if settings is None:
        return None
    sel = settings["selection"]
    return RunSettings(
        run_dir=run_dir,
        config=config_from_json(settings["config"]),
        selection=Selection(
            Path(sel["benchmark"]),
            sel["requested_sha256"],
            tuple(sel["problems"]),
            sel["max_problems"],
            sel.get("split"),
        ),
        campaigns=int(settings["campaigns"]),
        run_limits=RunLimits(**settings["limits"]),
        fresh=bool(settings["fresh"]),
        resume=True,
    )


def config_to_json(config: SolveConfig) -> dict[str, Any]:
    """The config as plain JSON values (enums by value, paths as text)."""
    data: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(config), default=str))
    return data


def config_from_json(data: Mapping[str, Any]) -> SolveConfig:
    known = {f.name for f in dataclasses.fields(SolveConfig)}
    values = {k: v for k, v in data.items() if k in known}
    values["track"] = Track(values["track"])
    values["budgets"] = Budgets(**values["budgets"])
    if "parts" in values:
        values["parts"] = AgentParts(**values["parts"])
    if "acceptance_profile" in values:
        values["acceptance_profile"] = Profile(values["acceptance_profile"])
    values["tools"] = {name: Path(path) for name, path in values.get("tools", {}).items()}
    if "kernels" in values:
        values["kernels"] = tuple(values["kernels"])
    if "reviewer_veto" not in values:  # runs started before the reviewer advised: its veto counted then
        values["reviewer_veto"] = values.get("reviewer_model") is not None
    return SolveConfig(**values)


IDENTITY_KEYS = ("config", "benchmark_sha256", "selected", "fresh")
"""Settings that define what a run is; changing one on resume would mix two different runs."""
CONNECTION_KEYS = ("jobs", "fallback_jobs", "model_base_url", "prices")
"""Parts of the config that say how to reach the model or what its tokens cost, not what the run is: a resume
may change them."""


def ledger_settings(
    run: RunSettings, benchmark: Benchmark, selected: Sequence[Problem], suffix: str, toolchain: str
) -> dict[str, Any]:
    """The run's settings as the ledger keeps them, with what the selection resolved to and the
    fingerprint of the toolchain the gates run on (``putnam audit`` and proof bundles compare it; it is
    not part of the run's identity, so a resume on an upgraded toolchain records the new one)."""
    selection = run.selection
    return {
        "config": config_to_json(run.config),
        "benchmark_sha256": benchmark.sha256,
        "selected": [p.id for p in selected],
        "fresh": run.fresh,
        "selection": {
            "benchmark": str(selection.benchmark.resolve()),
            "requested_sha256": selection.benchmark_sha256,
            "benchmark_sha256": benchmark.sha256,
            "pin": benchmark.pin_name,
            "problems": list(selection.problems),
            "max_problems": selection.max_problems,
            "split": selection.split,
        },
        "benchmark": benchmark.describe(),
        "campaigns": run.campaigns,
        "limits": dataclasses.asdict(run.run_limits),
        "suffix": suffix,
        "toolchain": toolchain,
        "splits": {p.id: p.split for p in selected if p.split},  # pass@k per split (run.pass_at_k)
    }


def identity(settings: Mapping[str, Any]) -> dict[str, Any]:
    identity = {k: settings.get(k) for k in IDENTITY_KEYS}
    config = identity["config"]
    if isinstance(config, dict):
        identity["config"] = {k: v for k, v in config.items() if k not in CONNECTION_KEYS}
    return identity


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


def with_defaults(stored: Mapping[str, Any]) -> dict[str, Any]:
    """Stored settings with the config's fields a run recorded by an earlier version lacks set to their
    defaults, as resuming it sets them: such a run goes on with the new defaults."""
    config = stored.get("config")
    if not isinstance(config, dict):
        return dict(stored)
    try:
        return {**stored, "config": config_to_json(config_from_json(config))}
    except (KeyError, TypeError, ValueError):
        return dict(stored)


def check_resume(
    run_dir: Path, stored: Mapping[str, Any] | None, settings: Mapping[str, Any], resume: bool, allow: bool
) -> None:
    """Refuse to start over a run, to resume nothing, or to resume with another identity (``allow``
    lifts the last, for callers of ``solve`` that mean it; the CLI never does)."""
    if stored is None:
        if resume:
            raise InputError(f"{run_dir}: nothing to resume here; run without --resume to start")
        return
    if not resume:
        raise InputError(f"{run_dir} already holds a run; continue it with --resume or choose another --run-dir")
    changed = differences(identity(with_defaults(stored)), identity(settings))
    if changed and not allow:
        raise InputError(
            f"{run_dir} was started with other settings ({'; '.join(changed)}); `putnam solve --resume` "
            "reuses the stored settings (with the same benchmark file), or start a new run with another "
            "--run-dir"
        )
