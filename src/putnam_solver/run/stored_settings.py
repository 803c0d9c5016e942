"""A run's settings as its ledger stores them, typed and checked: the one reader of that record.

``putnam solve`` records what a run is (``StoredSettings.to_json``) at every start and resume. Everything
that reads it back (``--resume``, the recorder, SUMMARY.md, the report, ``audit``, ``export``) gets it from
``stored_settings`` as a ``StoredSettings``, checked field by field once: a ledger holding anything else is
refused with an ``InputError`` naming the run directory and the field. Settings recorded by an earlier
version open: the fields every version recorded are required, a field added later takes its default (as
resuming such a run sets it), and a field no longer known is dropped.

This module sits beside the ledger, below both the campaign (which writes the report) and the report
(which reads these settings); ``putnam_solver.run.campaign`` exports it as part of its interface.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from putnam_solver.benchmark_view import benchmark_record
from putnam_solver.core.benchmark import IDENTIFIER, Benchmark, Problem, load_benchmark
from putnam_solver.core.util import InputError
from putnam_solver.problem_selection import select_problems
from putnam_solver.run.agent.budget_numbers import MAX_SECONDS
from putnam_solver.run.agent.live_run import RunLimits
from putnam_solver.run.agent.types import Budgets, SolveConfig
from putnam_solver.run.ledger import Ledger
from putnam_solver.run.ledger_rows import EDITED, MAX_DOLLARS, MAX_TOKENS

T = TypeVar("T")
SHA256 = re.compile(r"[0-9a-f]{64}")

IDENTITY_KEYS = ("config", "benchmark_sha256", "selected", "fresh")
"""Settings that define what a run is; changing one on resume would mix two different runs."""
CONNECTION_KEYS = ("jobs", "fallback_jobs", "model_base_url", "prices")
"""Parts of the config that say how to reach the model or what its tokens cost, not what the run is: a resume
may change them."""


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
        """The benchmark (checked against the pin, if any) and the problems this selection picks (never two
        whose ids differ in case only: ``case_twins``)."""
        benchmark = load_benchmark(self.benchmark, self.benchmark_sha256, self.split)
        selected = select_problems(benchmark, self.problems, self.max_problems)
        if twins := case_twins([p.id for p in selected]):
            raise InputError(
                f"{benchmark.path}: the problems {twins[0]} and {twins[1]} are both selected, {TWINS}; select one "
                "of them (--problem), or give one another id in the benchmark file"
            )
        return benchmark, selected


@dataclass(frozen=True)
class RecordedErratum:
    """A known defect of one statement as the run recorded it (``Erratum.to_json``); ``defective`` is what
    the record said then, so that a run's counts do not change when the registry does."""

    problem: str
    kind: str
    defect: str
    source: str
    defective: bool

    def short(self) -> str:
        return f"{self.kind}: {self.defect}"


@dataclass(frozen=True)
class StoredBenchmark:
    """The benchmark as the run recorded it (``benchmark_view.benchmark_record``), typed where it is read: its label and
    name, and its record's notes and errata. ``recorded`` keeps the description whole, written back as it was."""

    label: str | None = None
    name: str | None = None
    notes: tuple[str, ...] = ()
    errata: tuple[RecordedErratum, ...] = ()
    recorded: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StoredSettings:
    """One run's stored settings: what it was asked (config, selection, limits) and what that resolved to
    (the benchmark's SHA-256 and pin, the selected problems, the toolchain fingerprint the gates ran on)."""

    config: SolveConfig
    selection: Selection
    """The selection as asked; ``selection.benchmark_sha256`` is the pin asked for (None when none was)."""
    benchmark_sha256: str
    selected: tuple[str, ...]
    pin: str | None = None
    fresh: bool = False
    campaigns: int = 1
    limits: RunLimits = field(default_factory=RunLimits)
    suffix: str = ""
    """Recorded for the record only: file names take the suffix from the prover registry."""
    toolchain: str | None = None
    """The toolchain fingerprint of the start or resume that recorded these settings (None: not recorded)."""
    benchmark: StoredBenchmark = field(default_factory=StoredBenchmark)
    splits: Mapping[str, str] = field(default_factory=dict)
    """Each selected problem's split (``valid``, ``test``), for pass@k per split (none: runs recorded before
    it, and benchmarks without splits)."""

    def to_json(self) -> dict[str, Any]:
        """The settings as the ledger stores them (``parse_settings`` reads them back)."""
        selection = self.selection
        return {
            "config": config_to_json(self.config),
            "benchmark_sha256": self.benchmark_sha256,
            "selected": list(self.selected),
            "fresh": self.fresh,
            "selection": {
                "benchmark": str(selection.benchmark),
                "requested_sha256": selection.benchmark_sha256,
                "benchmark_sha256": self.benchmark_sha256,
                "pin": self.pin,
                "problems": list(selection.problems),
                "max_problems": selection.max_problems,
                "split": selection.split,
            },
            "benchmark": json.loads(json.dumps(self.benchmark.recorded)),
            "campaigns": self.campaigns,
            "limits": dataclasses.asdict(self.limits),
            "suffix": self.suffix,
            "toolchain": self.toolchain,
            "splits": dict(self.splits),
        }

    def identity(self) -> dict[str, Any]:
        """What the run is (``IDENTITY_KEYS``, the config without ``CONNECTION_KEYS``), as JSON: a resume
        compares it with the stored run's."""
        data = self.to_json()
        found = {key: data[key] for key in IDENTITY_KEYS}
        found["config"] = {k: v for k, v in data["config"].items() if k not in CONNECTION_KEYS}
        return found


def stored_settings(ledger: Ledger) -> StoredSettings | None:
    """The settings the run last recorded in ``ledger``, checked (None for a new ledger)."""
    data = ledger.settings()
    return None if data is None else parse_settings(data, ledger.path.parent)


def required_settings(ledger: Ledger, purpose: str) -> StoredSettings:
    """``stored_settings``, refused when the ledger holds none (``purpose``: "audit", "export" ...)."""
    settings = stored_settings(ledger)
    if settings is None:
        raise InputError(f"{ledger.path.parent}: the ledger holds no run settings; nothing to {purpose}")
    return settings


def settings_history(ledger: Ledger) -> list[tuple[str, StoredSettings]]:
    """Every settings record of ``ledger`` (one per start and resume) with when it was recorded, oldest first."""
    return [(at, parse_settings(data, ledger.path.parent)) for at, data in ledger.settings_history()]


def describe_benchmark(benchmark: Benchmark) -> StoredBenchmark:
    """The benchmark as a run records it."""
    described = json.loads(json.dumps(benchmark_record(benchmark), default=str))
    return _parsed(lambda: _benchmark({"benchmark": described}), benchmark.path)


def parse_settings(data: Any, where: Path | str) -> StoredSettings:
    """Stored settings (``StoredSettings.to_json``, or what an earlier version recorded) as the typed object;
    InputError naming ``where`` (the run directory) and the first field that is not what putnam records."""
    return _parsed(lambda: _settings(data), where)


def config_to_json(config: SolveConfig) -> dict[str, Any]:
    """The config as plain JSON values (enums by value, paths as text)."""
    data: dict[str, Any] = json.loads(json.dumps(dataclasses.asdict(config), default=str))
    return data


def config_from_json(data: Any) -> SolveConfig:
    """A config as ``config_to_json`` (or an earlier version) wrote it; InputError naming a bad field."""
    return _parsed(lambda: _config(data), "the run's config")


# -- checking, field by field -----------------------------------------------------------------------------


class _Malformed(Exception):
    """A field of the stored settings is not what putnam records (the message names it)."""


def _parsed(parse: Callable[[], T], where: Path | str) -> T:
    try:
        return parse()
    except _Malformed as exc:
        raise InputError(f"{where}: the run's stored settings cannot be read: {exc}; {EDITED}") from None


def _settings(data: Any) -> StoredSettings:
    top = _convert(dict[str, Any], data, "settings")
    sha = _field(top, "benchmark_sha256", str, "")
    if not SHA256.fullmatch(sha):
        raise _Malformed(f"`benchmark_sha256` must be a SHA-256 in hex, not {_shown(sha)}")
    asked = _field(top, "selection", dict[str, Any], "")
    if _field(asked, "benchmark_sha256", str, "selection", sha) != sha:
        raise _Malformed("`selection.benchmark_sha256` differs from `benchmark_sha256`")
    selected = _field(top, "selected", tuple[str, ...], "")
    if bad := [p for p in selected if not IDENTIFIER.fullmatch(p)]:
        raise _Malformed(f"`selected` holds {bad[0]!r}, which is not a problem id")
    if twice := sorted({p for p in selected if selected.count(p) > 1}):
        raise _Malformed(f"`selected` names {twice[0]!r} more than once (a run selects each problem once)")
    if twins := case_twins(selected):
        raise _Malformed(f"`selected` names {twins[0]!r} and {twins[1]!r}, {TWINS}")
    campaigns = _field(top, "campaigns", int, "")
    if campaigns < 0:
        raise _Malformed(f"`campaigns` must be 0 (no limit) or more, not {campaigns}")
    return StoredSettings(
        config=_config(_field(top, "config", dict[str, Any], "")),
        selection=Selection(
            benchmark=_field(asked, "benchmark", Path, "selection"),
            benchmark_sha256=_field(asked, "requested_sha256", str | None, "selection"),
            problems=_field(asked, "problems", tuple[str, ...], "selection"),
            max_problems=_field(asked, "max_problems", int | None, "selection"),
            split=_field(asked, "split", str | None, "selection", None),
        ),
        benchmark_sha256=sha,
        selected=selected,
        pin=_field(asked, "pin", str | None, "selection"),
        fresh=_field(top, "fresh", bool, ""),
        campaigns=campaigns,
        limits=_field(top, "limits", RunLimits, ""),
        suffix=_field(top, "suffix", str, ""),
        toolchain=_field(top, "toolchain", str | None, "", None),
        benchmark=_benchmark(top),
        splits=_splits(top, selected),
    )


TWINS = "which differ in case only: one folder on a case-insensitive file system (macOS, Windows) holds both"


def case_twins(ids: Sequence[str]) -> tuple[str, str] | None:
    """Two of ``ids`` that differ in case only, if any. A problem id names its evidence folder, its exported
    proof and its bundle entry; on a case-insensitive file system two such ids share them, and the report
    linked one problem's candidate as the other's (red team round 11). Problem ids are ASCII (``IDENTIFIER``),
    so case is the only way two of them name one file."""
    seen: dict[str, str] = {}
    for problem in ids:
        if (other := seen.setdefault(problem.casefold(), problem)) != problem:
            return other, problem
    return None


SPLIT_NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
"""A split's name as a run's settings may give it (``valid``, ``test``): it labels SUMMARY.md and the report."""


def _splits(top: Mapping[str, Any], selected: Sequence[str]) -> dict[str, str]:
    splits = _field(top, "splits", dict[str, str], "", {})
    chosen = set(selected)
    for problem, split in splits.items():
        if problem not in chosen or not SPLIT_NAME.fullmatch(split):
            raise _Malformed(
                f"`splits` gives {problem!r} the split {_shown(split)}; a selected problem and a split name"
            )
    return dict(splits)


def _config(data: Any) -> SolveConfig:
    config = _convert(dict[str, Any], data, "config")
    if "reviewer_veto" not in config:  # runs started before the reviewer advised: its veto counted then
        config = {**config, "reviewer_veto": config.get("reviewer_model") is not None}
    return _build(SolveConfig, config, "config")


def _benchmark(top: Mapping[str, Any]) -> StoredBenchmark:
    described = _field(top, "benchmark", dict[str, Any], "", {})
    record = _field(described, "record", dict[str, Any], "benchmark", {})
    return StoredBenchmark(
        label=_field(described, "label", str | None, "benchmark", None),
        name=_field(described, "name", str | None, "benchmark", None),
        notes=_field(record, "notes", tuple[str, ...], "benchmark.record", ()),
        errata=_field(record, "errata", tuple[RecordedErratum, ...], "benchmark.record", ()),
        recorded=described,
    )


_REQUIRED: Any = object()
_WORDS = {str: "text", int: "a whole number", bool: "true or false", float: "a number"}


def _field(data: Mapping[str, Any], key: str, hint: Any, within: str, default: Any = _REQUIRED) -> Any:
    """``data[key]`` as ``hint`` says (``_convert``), or ``default`` when it is absent (a field added after
    the first version); a required field that is absent is malformed."""
    name = f"{within}.{key}" if within else key
    if key not in data:
        if default is _REQUIRED:
            raise _Malformed(f"`{name}` is missing")
        return default
    return _convert(hint, data[key], name)


def _convert(hint: Any, value: Any, name: str) -> Any:
    """A JSON value as the type ``hint`` (a field's annotation): checked, enums by value, paths from text,
    tuples from lists, dataclasses from objects (``_build``)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return value
    if origin in (types.UnionType, typing.Union):
        if value is None and type(None) in args:
            return None
        return _convert(next(a for a in args if a is not type(None)), value, name)
    if origin is dict or hint is dict:
        if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
            raise _Malformed(f"`{name}` must be an object, not {_shown(value)}")
        inner = args[1] if args else Any
        return {k: _convert(inner, v, f"{name}.{k}") for k, v in value.items()}
    if origin is tuple:
        if not isinstance(value, list):
            raise _Malformed(f"`{name}` must be a list, not {_shown(value)}")
        return tuple(_convert(args[0], v, f"{name}[{i}]") for i, v in enumerate(value))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, name)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        choices = [m.value for m in hint]
        if value not in choices:
            raise _Malformed(f"`{name}` must be one of {', '.join(map(str, choices))}, not {_shown(value)}")
        return hint(value)
    if hint is Path:
        return Path(_convert(str, value, name))
    kinds = (int, float) if hint is float else (hint,)
    if isinstance(value, bool) is not (hint is bool) or not isinstance(value, kinds):
        raise _Malformed(f"`{name}` must be {_WORDS.get(hint, hint)}, not {_shown(value)}")
    return value


BEYOND_MEANS_NONE: Mapping[type, Mapping[str, float]] = {
    Budgets: {
        "worker_timeout_seconds": MAX_SECONDS,
        "reviewer_timeout_seconds": MAX_SECONDS,
        "cost_limit_dollars": MAX_DOLLARS,
        "token_limit": MAX_TOKENS,
        "lemma_token_limit": MAX_TOKENS,
        "history_tokens": MAX_TOKENS,
    },
    RunLimits: {"max_tokens": MAX_TOKENS, "max_cost_dollars": MAX_DOLLARS},
}
"""The optional limits, each with the largest value ``budget_numbers`` takes. An earlier putnam took any
value and recorded it: ``--cost-limit inf`` as ``Infinity``, ``--cost-limit 1e13`` as it came. Beyond the
largest value a limit is never reached (the ledger holds no spend above ``MAX_DOLLARS`` or ``MAX_TOKENS``,
and ``MAX_SECONDS`` is about 31 years), so it means no limit, as that run meant and ran with: read back as no
limit (None), never as a ledger edited (red team rounds 11 and 12), so that such a run still reports, audits,
exports and resumes. It gives an editor nothing: ``null`` says the same. A value below the range (negative,
``-Infinity``) or ``NaN`` is still refused."""


def _beyond_any_limit(value: Any, most: float) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and value > most


def _build(cls: type[T], data: Any, name: str) -> T:
    """A dataclass from a JSON object: its known fields converted by their annotations, a field without
    default required, unknown keys dropped; the type's own checks (``SolveConfig``'s) name ``name``."""
    values = _convert(dict[str, Any], data, name)
    hints = typing.get_type_hints(cls)
    args: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name in values:
            args[f.name] = _convert(hints[f.name], values[f.name], f"{name}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise _Malformed(f"`{name}.{f.name}` is missing")
    for unlimited, most in BEYOND_MEANS_NONE.get(cls, {}).items():
        if _beyond_any_limit(args.get(unlimited), most):
            args[unlimited] = None
    try:
        return cls(**args)
    except InputError as exc:
        raise _Malformed(f"`{name}`: {exc}") from None


def _shown(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 60 else f"{text[:57]}..."
