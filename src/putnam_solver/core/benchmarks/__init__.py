"""Benchmarks described by data: one JSON record per benchmark.

A record (``specs/<name>.json``) names the benchmark and says everything the harness needs to know about it:
its files, one per prover and variant, each pinned by SHA-256 and by the upstream commit it was built from;
its splits; how its statements write the proof hole and whether they have answer holes (which decides its
tracks: a benchmark without answers has the one track ``with-answer``, its statements carrying their
answers); the toolchain each file was written for; where its upstream lives (``putnam dataset fetch``). Adding
a benchmark is adding a record (and its errata; to fetch it, a builder in ``putnam_solver.datasets``); no
prover and no command changes.

This module reads what the gates need of a record: the pins, statement formats, toolchains and id form. What
no gate reads is read outside the trusted package: where the files live and come from, the splits, each
prover's default file (``putnam_solver.benchmark_catalog``), and the errata (``putnam_solver.errata``). It
loads no prover and touches neither the network nor the benchmark files.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

SPEC_DIR = Path(__file__).parent / "specs"
DEFAULT_BENCHMARK = "putnambench"


class RegistryError(Exception):
    """A benchmark record or errata file is malformed (a bug in the shipped data, or a bad request)."""


@dataclass(frozen=True)
class StatementFormat:
    """How a benchmark's statements write their holes, as the provers need to know it.

    ``answers``: statements may ask for an answer (``*_solution`` holes), so the no-answer track exists.
    ``open_proof``: a Rocq statement may leave its proof open (``Proof.`` at the end of the file, no
    ``Admitted.``); the hole is then everything after ``Proof.``.
    ``lean_options``: the ``leanOptions`` of the benchmark's upstream Lean project, which its statements
    were written under and every compiled Lean gate passes (PutnamBench turns ``autoImplicit`` off;
    miniF2F's and ProofNet's projects keep Lean's defaults).
    """

    answers: bool = True
    open_proof: bool = False
    lean_options: tuple[tuple[str, bool | int | str], ...] = (("autoImplicit", False),)


UNKNOWN_FORMAT = StatementFormat()
"""The format of a JSONL file no record describes: answer holes where the statements have them."""


@dataclass(frozen=True)
class Toolchain:
    """The toolchain a benchmark file was written for (``version`` as its upstream states it)."""

    prover: str
    version: str
    details: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, str]:
        return {"prover": self.prover, "version": self.version, **self.details}


@dataclass(frozen=True)
class BenchmarkFile:
    """One pinned JSONL file of a benchmark: the statements of one prover in one variant."""

    benchmark: str
    title: str
    file: str
    prover: str
    variant: str
    language: str
    sha256: str
    commit: str
    answers: str | None
    open_proof: bool
    adaptations: Mapping[str, str]
    toolchain: Toolchain
    lean_options: tuple[tuple[str, bool | int | str], ...] = ()
    several_variants: bool = False

    @property
    def format(self) -> StatementFormat:
        return StatementFormat(self.answers is not None, self.open_proof, self.lean_options)

    @property
    def pin_name(self) -> str:
        variant = f" ({self.variant})" if self.several_variants else ""
        return f"{self.title} {self.language}{variant} @ {self.commit[:7]}"


@dataclass(frozen=True)
class BenchmarkSpec:
    """A benchmark as its record describes it to the gates: its name, the form of its ids and its pinned
    files. ``record`` is the record as read, whose other fields no gate reads (where the files live and
    come from, the splits: ``putnam_solver.benchmark_catalog``)."""

    name: str
    title: str
    problem_id: str
    """Regular expression every problem id of the benchmark matches."""
    files: tuple[BenchmarkFile, ...]
    record: Mapping[str, Any] = field(default_factory=dict, repr=False)


def record_text(data: Mapping[str, Any], key: str, where: str) -> str:
    """``data[key]``, a non-empty string, else RegistryError naming ``where``: a record's required field."""
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise RegistryError(f"{where}: `{key}` must be a non-empty string")
    return value


def _file(data: Mapping[str, Any], name: str, title: str, where: str) -> BenchmarkFile:
    toolchain = data.get("toolchain") or {}
    if not isinstance(toolchain, dict):
        raise RegistryError(f"{where}: `toolchain` must be an object")
    details = {k: str(v) for k, v in toolchain.items() if k not in ("prover", "version")}
    adaptations = data.get("adaptations") or {}
    answers = data.get("answers")
    return BenchmarkFile(
        benchmark=name,
        title=title,
        file=record_text(data, "file", where),
        prover=record_text(data, "prover", where),
        variant=str(data.get("variant") or "published"),
        language=record_text(data, "language", where),
        sha256=record_text(data, "sha256", where),
        commit=record_text(data, "commit", where),
        answers=answers if isinstance(answers, str) and answers else None,
        open_proof=bool(data.get("open_proof", False)),
        adaptations={str(k): str(v) for k, v in dict(adaptations).items()},
        toolchain=Toolchain(
            str(toolchain.get("prover", data.get("prover"))), str(toolchain.get("version", "")), details
        ),
        lean_options=tuple(sorted((str(k), v) for k, v in dict(data.get("lean_options") or {}).items())),
    )


def _spec(path: Path) -> BenchmarkSpec:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise RegistryError(f"{path}: cannot read the benchmark record: {exc}") from exc
    name, title = record_text(data, "name", str(path)), record_text(data, "title", str(path))
    files = [_file(f, name, title, f"{path} file {i + 1}") for i, f in enumerate(data.get("files", []))]
    counts = {p: sum(f.prover == p for f in files) for p in {f.prover for f in files}}
    files = [dataclasses.replace(f, several_variants=counts[f.prover] > 1) for f in files]
    return BenchmarkSpec(
        name=name,
        title=title,
        problem_id=record_text(data, "problem_id", str(path)),
        files=tuple(files),
        record=data,
    )


@cache
def _registry() -> dict[str, BenchmarkSpec]:
    specs = [_spec(path) for path in sorted(SPEC_DIR.glob("*.json"))]
    return {s.name: s for s in specs}


def benchmark_names() -> tuple[str, ...]:
    """The registered benchmarks, PutnamBench first."""
    names = sorted(_registry(), key=lambda n: (n != DEFAULT_BENCHMARK, n))
    return tuple(names)


def get_spec(name: str) -> BenchmarkSpec:
    spec = _registry().get(name)
    if spec is None:
        raise RegistryError(f"unknown benchmark {name!r}; choose one of: {', '.join(benchmark_names())}")
    return spec


def registered_file(file_name: str) -> BenchmarkFile | None:
    """The registered file of this name (the pins follow the file name), if any."""
    return next((f for s in _registry().values() for f in s.files if f.file == file_name), None)


__all__ = [
    "DEFAULT_BENCHMARK",
    "UNKNOWN_FORMAT",
    "BenchmarkFile",
    "BenchmarkSpec",
    "RegistryError",
    "StatementFormat",
    "Toolchain",
    "benchmark_names",
    "get_spec",
    "record_text",
    "registered_file",
]
