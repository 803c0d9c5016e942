"""Benchmark problems: load a JSONL file, check its pin, name modules.

The benchmark is the root of trust: every verdict is computed against a record loaded here. A file is
pinned by the SHA-256 of its exact bytes; the pins of every registered benchmark file are built in (the
records in ``benchmarks/specs``: PutnamBench, miniF2F, ProofNet), and any file may be pinned by the caller.
Which file a benchmark's name stands for is asked outside the trusted package (``putnam_solver.benchmark_files``):
whichever copy it finds is held against the pin here. Nothing here touches the network.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from putnam_solver.core.benchmarks import (
    UNKNOWN_FORMAT,
    BenchmarkFile,
    BenchmarkSpec,
    StatementFormat,
    get_spec,
    registered_file,
)
from putnam_solver.core.json_depth import MAX_DEPTH, nesting_depth
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.sandbox.hidden import hide
from putnam_solver.core.util import json_error

MAX_ID_CHARS = 128
IDENTIFIER = re.compile(rf"[A-Za-z_][A-Za-z0-9_]{{0,{MAX_ID_CHARS - 1}}}")
"""A problem id: it names files and folders (the candidate, the sandbox's workdir, a run's evidence, a
bundle's entries), so it is bounded well below a file name's 255 bytes (the longest shipped id has 62)."""
ID_RULE = f"a letter or `_`, then letters, digits or `_`, at most {MAX_ID_CHARS} characters in all (ids name files)"


class BenchmarkError(Exception):
    """The benchmark cannot be used as given. The message names the file, the line and the fix."""


class PinMismatch(BenchmarkError):
    """The file's SHA-256 is not the one it is pinned to: it changed since it was pinned."""


@dataclass(frozen=True)
class Problem:
    """One pinned record. ``formal_statement`` is the upstream file's text, byte for byte.

    ``format`` says how the benchmark writes its holes (from its record; PutnamBench's conventions for a
    file no record describes), ``adaptations`` which documented mechanical changes the record's text
    carries (miniF2F Rocq adapted), ``split`` where the benchmark puts it (``valid``, ``test``)."""

    id: str
    formal_statement: str
    statement_sha256: str
    declared_sha256: str | None
    informal_statement: str | None
    informal_solution: str | None
    tags: tuple[str, ...]
    split: str | None = None
    adaptations: tuple[str, ...] = ()
    format: StatementFormat = UNKNOWN_FORMAT

    @property
    def module(self) -> str:
        return module_name(self.id)


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark file, its SHA-256 and, if it is pinned, the pin's name.

    ``file`` is the registered file it is (its record: toolchain, tracks), when its bytes are
    that file's pinned ones; ``split``, when given, restricts which problems a command finds
    (``putnam_solver.problem_selection``)."""

    path: Path
    sha256: str
    pin_name: str | None
    problems: dict[str, Problem]
    file: BenchmarkFile | None = None
    split: str | None = None

    @property
    def pinned(self) -> bool:
        return self.pin_name is not None

    @property
    def spec(self) -> BenchmarkSpec | None:
        return get_spec(self.file.benchmark) if self.file is not None else None

    def release(self, chosen: str | None = None) -> str | None:
        """The toolchain release to judge with: the one ``chosen`` (``--toolchain``), else the one this
        benchmark's record states (None for a file no record describes)."""
        return chosen or (self.file.toolchain.version if self.file is not None else None)

    def in_split(self, problem: Problem) -> bool:
        return self.split is None or problem.split == self.split

    def verdict_record(self, problem: Problem) -> dict[str, Any]:
        """What a verdict records of the benchmark beside its hashes: which file, split and adaptations
        (refreshed from the record whenever a verdict is shown or reused, with the problem's errata:
        ``putnam_solver.errata``)."""
        record: dict[str, Any] = {"pin": self.pin_name, "split": problem.split}
        if self.file is not None:
            record |= {"name": self.file.benchmark, "variant": self.file.variant, "file": self.file.file}
            record["toolchain_stated"] = self.file.toolchain.to_json()
        if problem.adaptations:
            adaptations = self.file.adaptations if self.file is not None else {}
            record["adaptations"] = {a: adaptations.get(a, "") for a in problem.adaptations}
        return record


def module_name(problem_id: str) -> str:
    """``putnam_1962_a2`` -> ``Putnam1962A2``; other ids are CamelCased part by part."""
    return "".join(part[:1].upper() + part[1:] for part in problem_id.split("_") if part)


# ---------------------------------------------------------------------------------------------------------
# Loading


MAX_BENCHMARK_BYTES = 256 << 20
"""Far above any registered benchmark file (a few MB): a bound, so that no path makes a load read without end."""


def load_benchmark(path: Path, expected_sha256: str | None = None, split: str | None = None) -> Benchmark:
    """Load and validate a JSONL benchmark, enforcing its pin.

    The pin is ``expected_sha256`` when given; otherwise the built-in pin of the registered file of the
    same name. A file with neither loads as unpinned; callers must say so in every output. A file named
    as a registered one must have its ids and follows its record's statement format.
    """
    try:  # a regular file under the cap, whatever a path (a run's ledger names one) points at: no FIFO, no device
        raw = read_regular_file(path.resolve(), MAX_BENCHMARK_BYTES)
    except UnsafeFile as exc:
        raise BenchmarkError(f"{exc}; a benchmark is a JSONL file") from exc
    hide(path)  # its answers never reach a sandbox (``sandbox.hidden``)
    actual = hashlib.sha256(raw).hexdigest()
    builtin = registered_file(path.name)
    pin_name: str | None = None
    if expected_sha256 is not None:
        expected = expected_sha256.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{64}", expected):
            raise BenchmarkError(f"--benchmark-sha256 {expected_sha256!r} is not 64 hexadecimal digits")
        if actual != expected:
            restore = (
                f"rebuild it with `putnam dataset fetch --benchmark {builtin.benchmark}`"
                if builtin is not None
                else "restore it"
            )
            raise PinMismatch(
                f"{path}: SHA-256 is {actual}, but {expected} was pinned (--benchmark-sha256); the file changed "
                f"since. If the change is unintended, {restore}; if it is intended, pin the new SHA-256."
            )
        pin_name = f"sha256:{expected}"
    elif builtin is not None:
        if actual != builtin.sha256:
            raise PinMismatch(
                f"{path}: SHA-256 is {actual}, but {builtin.pin_name} is pinned as {builtin.sha256}; "
                f"the file was modified. Rebuild it with `putnam dataset fetch --benchmark {builtin.benchmark}`."
            )
        pin_name = builtin.pin_name
    problems = _parse_records(path, raw, builtin)
    file = builtin if builtin is not None and actual == builtin.sha256 else None
    if split is not None:
        splits = sorted({p.split for p in problems.values() if p.split is not None})
        if split not in splits:
            have = f"its splits are {', '.join(splits)}" if splits else "its records have no `split`"
            raise BenchmarkError(f"{path}: no split {split!r}; {have}")
    return Benchmark(path=path, sha256=actual, pin_name=pin_name, problems=problems, file=file, split=split)


def _parse_records(path: Path, raw: bytes, builtin: BenchmarkFile | None) -> dict[str, Problem]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 (byte {exc.start}); benchmarks are UTF-8 JSONL") from exc
    id_pattern = re.compile(get_spec(builtin.benchmark).problem_id) if builtin is not None else None
    shape = RecordShape(builtin.format if builtin is not None else UNKNOWN_FORMAT, id_pattern)
    problems: dict[str, Problem] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        if (depth := nesting_depth(line)) > MAX_DEPTH:
            raise BenchmarkError(f"{where}: JSON nested {depth} levels deep (over {MAX_DEPTH}); not a benchmark record")
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchmarkError(
                f"{json_error(str(path), exc, number)} (not valid JSON; a benchmark has one JSON object per line)"
            ) from exc
        problem = problem_from_record(where, record, shape)
        if problem.id in problems:
            raise BenchmarkError(
                f"{where}: duplicate problem_id {problem.id!r} (first on line {first_line[problem.id]})"
            )
        problems[problem.id] = problem
        first_line[problem.id] = number
    if not problems:
        raise BenchmarkError(f"{path}: no records; a benchmark has one JSON object per line")
    return problems


@dataclass(frozen=True)
class RecordShape:
    """What a record of a given benchmark file must look like: its statement format and, for a registered
    file, the form of its ids (none: any identifier, PutnamBench's hole conventions)."""

    format: StatementFormat = UNKNOWN_FORMAT
    id_pattern: re.Pattern[str] | None = field(default=None)


def problem_from_record(where: str, record: Any, shape: RecordShape = RecordShape()) -> Problem:
    """One benchmark record (a JSON object) as a Problem; ``where`` names it in errors; ``shape`` is what
    the records of its file must look like."""
    if not isinstance(record, dict):
        raise BenchmarkError(f"{where}: expected a JSON object, found {type(record).__name__}")
    problem_id = record.get("problem_id")
    if not isinstance(problem_id, str) or not IDENTIFIER.fullmatch(problem_id):
        shown = problem_id if not isinstance(problem_id, str) or len(problem_id) <= 80 else problem_id[:80] + "..."
        raise BenchmarkError(f"{where}: problem_id {shown!r} is not a valid identifier: {ID_RULE}")
    if shape.id_pattern is not None and not shape.id_pattern.fullmatch(problem_id):
        raise BenchmarkError(
            f"{where}: problem_id {problem_id!r} is not of the form {shape.id_pattern.pattern} "
            "(the form of the benchmark this file is named after)"
        )
    statement = record.get("formal_statement")
    if not isinstance(statement, str) or not statement.strip():
        raise BenchmarkError(f"{where}: problem {problem_id}: formal_statement must be a non-empty string")
    declared = record.get("formal_statement_sha256")
    if declared is not None and not isinstance(declared, str):
        raise BenchmarkError(f"{where}: problem {problem_id}: formal_statement_sha256 must be a string")
    tags = record.get("tags") or []
    adaptations = record.get("adaptations") or []
    return Problem(
        id=problem_id,
        formal_statement=statement,
        statement_sha256=hashlib.sha256(statement.encode("utf-8")).hexdigest(),
        declared_sha256=declared,
        informal_statement=_optional_str(record.get("informal_statement")),
        informal_solution=_optional_str(record.get("informal_solution")),
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
        split=_optional_str(record.get("split")),
        adaptations=tuple(str(a) for a in adaptations) if isinstance(adaptations, list) else (),
        format=shape.format,
    )


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
