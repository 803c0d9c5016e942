"""Benchmark problems: load a JSONL file, check its pin, select problems, name modules, fetch PutnamBench.

The benchmark is the root of trust: every verdict is computed against a record loaded here. A file is
pinned by the SHA-256 of its exact bytes; the pins of the PutnamBench Lean 4 and Coq files are built in
(see ``PINS``), and any file may be pinned by the caller. Nothing here touches the network except
``fetch_dataset``, which clones a git repository the user names (PutnamBench by default).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from putnam_solver.core.util import InputError, json_error, write_atomic

PUTNAMBENCH_URL = "https://github.com/trishullab/PutnamBench"
PUTNAMBENCH_COMMIT = "3c9b9268ebd132d482938b8e9d242dd71fc1ebc0"
PUTNAM_ID = re.compile(r"putnam_(\d{4})_([ab])([1-6])")
PUTNAM_MODULE = re.compile(r"Putnam(\d{4})([AB])([1-6])")
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class DatasetFile:
    """One JSONL file of the pinned PutnamBench build: its name, where its statements live, its pin."""

    name: str
    language: str
    source_dir: str
    source_suffix: str
    sha256: str


PINS: tuple[DatasetFile, ...] = (
    DatasetFile(
        "putnam_bench_lean4.jsonl",
        "Lean 4",
        "lean4/src",
        ".lean",
        "efda79553fdba253f49a194670e0ede88d621311a935c848a4c60ef8e9c305ef",
    ),
    DatasetFile(
        "putnam_bench_coq.jsonl",
        "Coq",
        "coq/src",
        ".v",
        "bacee61e61e5c67da4506cbaf408c935c11848bc281da5263b6c5595e6fa77ee",
    ),
    DatasetFile(
        "putnam_bench_isabelle.jsonl",
        "Isabelle",
        "isabelle",
        ".thy",
        "7a2cd99412d414668ea240f427588c3437cc19251531dffbc28e82c6e1c063e5",
    ),
)
PINS_BY_NAME = {pin.name: pin for pin in PINS}


class BenchmarkError(Exception):
    """The benchmark cannot be used as given. The message names the file, the line and the fix."""


class PinMismatch(BenchmarkError):
    """The file's SHA-256 is not the one it is pinned to: it changed since it was pinned."""


@dataclass(frozen=True)
class Problem:
    """One pinned record. ``formal_statement`` is the upstream file's text, byte for byte."""

    id: str
    formal_statement: str
    statement_sha256: str
    declared_sha256: str | None
    informal_statement: str | None
    informal_solution: str | None
    tags: tuple[str, ...]

    @property
    def module(self) -> str:
        return module_name(self.id)


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark file, its SHA-256 and, if it is pinned, the pin's name."""

    path: Path
    sha256: str
    pin_name: str | None
    problems: dict[str, Problem]

    @property
    def pinned(self) -> bool:
        return self.pin_name is not None

    def select(self, ids: Sequence[str] = (), max_problems: int | None = None) -> list[Problem]:
        """Problems sorted by id: the named ones (all if none are named), at most ``max_problems``."""
        unknown = [i for i in ids if i not in self.problems]
        if unknown:
            raise BenchmarkError("; ".join(self._unknown_message(i) for i in unknown))
        chosen = sorted(set(ids)) if ids else sorted(self.problems)
        if max_problems is not None:
            if max_problems < 0:
                raise BenchmarkError(f"--max-problems must be at least 0, got {max_problems}")
            chosen = chosen[:max_problems]
        return [self.problems[i] for i in chosen]

    def problem_for_stem(self, stem: str) -> Problem | None:
        """The problem a candidate file stem names: the problem id itself or its module name."""
        if stem in self.problems:
            return self.problems[stem]
        return self.problems.get(problem_id_from_module(stem) or "", None) or next(
            (p for p in self.problems.values() if p.module == stem), None
        )

    def _unknown_message(self, problem_id: str) -> str:
        return f"{self.path}: no problem {problem_id!r}{self.did_you_mean(problem_id)}"

    def did_you_mean(self, problem_id: str) -> str:
        """``; did you mean X, Y?`` naming up to three ids close to an unknown one, else nothing."""
        close = difflib.get_close_matches(problem_id, list(self.problems), n=3, cutoff=0.6)
        return f"; did you mean {', '.join(close)}?" if close else ""


def module_name(problem_id: str) -> str:
    """``putnam_1962_a2`` -> ``Putnam1962A2``; other ids are CamelCased part by part."""
    return "".join(part[:1].upper() + part[1:] for part in problem_id.split("_") if part)


def problem_id_from_module(module: str) -> str | None:
    """``Putnam1962A2`` -> ``putnam_1962_a2``; None for names that are not PutnamBench modules."""
    match = PUTNAM_MODULE.fullmatch(module)
    if match is None:
        return None
    year, part, number = match.groups()
    return f"putnam_{year}_{part.lower()}{number}"


def default_data_dir() -> Path:
    """Where ``putnam dataset fetch`` writes and where the benchmark is looked up by default."""
    return Path(platformdirs.user_data_dir("putnambench-solver")) / "putnambench"


def resolve_benchmark_path(benchmark_file: str, explicit: Path | None = None) -> Path:
    """``--benchmark``, else ``PUTNAM_BENCHMARK`` (a file, or a directory holding ``benchmark_file``),
    else the data directory of ``putnam dataset fetch``."""
    if explicit is not None:
        candidate, origin = explicit, "--benchmark"
    elif os.environ.get("PUTNAM_BENCHMARK"):
        candidate, origin = Path(os.environ["PUTNAM_BENCHMARK"]), "PUTNAM_BENCHMARK"
    else:
        candidate, origin = default_data_dir(), "the default data directory"
    if candidate.is_dir():
        candidate = candidate / benchmark_file
    if not candidate.is_file():
        raise BenchmarkError(
            f"{candidate}: no benchmark file here (from {origin}). Run `putnam dataset fetch` to build "
            "PutnamBench, or pass --benchmark PATH / set PUTNAM_BENCHMARK to a JSONL file or its directory."
        )
    return candidate


def load_benchmark(path: Path, expected_sha256: str | None = None) -> Benchmark:
    """Load and validate a JSONL benchmark, enforcing its pin.

    The pin is ``expected_sha256`` when given; otherwise the built-in pin of a PutnamBench file of the
    same name. A file with neither loads as unpinned; callers must say so in every output.
    """
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BenchmarkError(f"{path}: cannot read the benchmark: {exc.strerror}") from exc
    actual = hashlib.sha256(raw).hexdigest()
    builtin = PINS_BY_NAME.get(path.name)
    pin_name: str | None = None
    if expected_sha256 is not None:
        expected = expected_sha256.strip().lower()
        if not re.fullmatch(r"[0-9a-f]{64}", expected):
            raise BenchmarkError(f"--benchmark-sha256 {expected_sha256!r} is not 64 hexadecimal digits")
        if actual != expected:
            restore = "rebuild it with `putnam dataset fetch`" if builtin is not None else "restore it"
            raise PinMismatch(
                f"{path}: SHA-256 is {actual}, but {expected} was pinned (--benchmark-sha256); the file changed "
                f"since. If the change is unintended, {restore}; if it is intended, pin the new SHA-256."
            )
        pin_name = f"sha256:{expected}"
    elif builtin is not None:
        if actual != builtin.sha256:
            raise PinMismatch(
                f"{path}: SHA-256 is {actual}, but PutnamBench {builtin.language} at "
                f"{PUTNAMBENCH_COMMIT[:7]} is pinned as {builtin.sha256}; the file was modified. "
                "Rebuild it with `putnam dataset fetch`."
            )
        pin_name = f"PutnamBench {builtin.language} @ {PUTNAMBENCH_COMMIT[:7]}"
    problems = _parse_records(path, raw, putnam=builtin is not None)
    return Benchmark(path=path, sha256=actual, pin_name=pin_name, problems=problems)


def _parse_records(path: Path, raw: bytes, putnam: bool) -> dict[str, Problem]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BenchmarkError(f"{path}: not UTF-8 (byte {exc.start}); benchmarks are UTF-8 JSONL") from exc
    problems: dict[str, Problem] = {}
    first_line: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"{path} line {number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise BenchmarkError(
                f"{json_error(str(path), exc, number)} (not valid JSON; a benchmark has one JSON object per line)"
            ) from exc
        problem = problem_from_record(where, record, putnam)
        if problem.id in problems:
            raise BenchmarkError(
                f"{where}: duplicate problem_id {problem.id!r} (first on line {first_line[problem.id]})"
            )
        problems[problem.id] = problem
        first_line[problem.id] = number
    if not problems:
        raise BenchmarkError(f"{path}: no records; a benchmark has one JSON object per line")
    return problems


def problem_from_record(where: str, record: Any, putnam: bool) -> Problem:
    """One benchmark record (a JSON object) as a Problem; ``where`` names it in errors; ``putnam``
    requires a PutnamBench id."""
    if not isinstance(record, dict):
        raise BenchmarkError(f"{where}: expected a JSON object, found {type(record).__name__}")
    problem_id = record.get("problem_id")
    if not isinstance(problem_id, str) or not IDENTIFIER.fullmatch(problem_id):
        raise BenchmarkError(f"{where}: problem_id {problem_id!r} is not a valid identifier")
    if putnam and not PUTNAM_ID.fullmatch(problem_id):
        raise BenchmarkError(f"{where}: problem_id {problem_id!r} is not of the form putnam_YYYY_[ab][1-6]")
    statement = record.get("formal_statement")
    if not isinstance(statement, str) or not statement.strip():
        raise BenchmarkError(f"{where}: problem {problem_id}: formal_statement must be a non-empty string")
    declared = record.get("formal_statement_sha256")
    if declared is not None and not isinstance(declared, str):
        raise BenchmarkError(f"{where}: problem {problem_id}: formal_statement_sha256 must be a string")
    tags = record.get("tags") or []
    return Problem(
        id=problem_id,
        formal_statement=statement,
        statement_sha256=hashlib.sha256(statement.encode("utf-8")).hexdigest(),
        declared_sha256=declared,
        informal_statement=_optional_str(record.get("informal_statement")),
        informal_solution=_optional_str(record.get("informal_solution")),
        tags=tuple(str(t) for t in tags) if isinstance(tags, list) else (),
    )


def _optional_str(value: Any) -> str | None:
    return value if isinstance(value, str) else None


# ---------------------------------------------------------------------------------------------------------
# putnam dataset fetch


@dataclass(frozen=True)
class FetchedFile:
    path: Path
    records: int
    sha256: str


def fetch_dataset(
    destination: Path,
    source: str = PUTNAMBENCH_URL,
    revision: str = PUTNAMBENCH_COMMIT,
    progress: Any = None,
) -> list[FetchedFile]:
    """Clone ``source`` at ``revision`` and build the JSONL files exactly as SOURCE.md describes.

    Every built file must match its pin before anything is written; then each is moved into place
    atomically. A source that yields other bytes (tampered, or another revision) is refused.
    """
    say = progress or (lambda _msg: None)
    with tempfile.TemporaryDirectory(prefix="putnam-fetch-") as tmp:
        checkout = Path(tmp) / "PutnamBench"
        say(f"cloning {source} (revision {revision})")
        _git(["clone", "--quiet", "--no-checkout", source, str(checkout)])
        _git(["checkout", "--quiet", revision], cwd=checkout, hint=f"is revision {revision} in {source}?")
        commit = _git(["rev-parse", "HEAD"], cwd=checkout).strip()
        informal = _informal_entries(checkout)
        built = []
        for pin in PINS:
            say(f"building {pin.name} from {pin.source_dir}/*{pin.source_suffix}")
            data = _build_jsonl(checkout, pin, informal)
            actual = hashlib.sha256(data).hexdigest()
            if actual != pin.sha256:
                raise BenchmarkError(
                    f"{source} at {commit}: built {pin.name} hashes to {actual}, the pin is {pin.sha256}. "
                    "The source differs from PutnamBench at the pinned commit; nothing was written."
                )
            built.append((pin, data))
        destination.mkdir(parents=True, exist_ok=True)
        results = []
        for pin, data in built:
            target = destination / pin.name
            write_atomic(target, data)
            results.append(FetchedFile(target, data.count(b"\n"), pin.sha256))
        return results


def _git(args: list[str], cwd: Path | None = None, hint: str = "") -> str:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=1800)
    except FileNotFoundError as exc:
        raise BenchmarkError("git is not installed; install git to fetch the benchmark") from exc
    if done.returncode != 0:
        output = done.stderr.strip() or done.stdout.strip()
        raise BenchmarkError(f"git {args[0]} failed: {output}{f' ({hint})' if hint else ''}")
    return done.stdout


def _informal_entries(checkout: Path) -> dict[str, dict[str, Any]]:
    path = checkout / "informal" / "putnam.json"
    try:
        entries = json.loads(path.read_bytes().decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise BenchmarkError(f"{json_error(str(path), exc)} (the informal statements are not valid JSON)") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise BenchmarkError(f"{path}: cannot read the informal statements: {exc}") from exc
    return {e["problem_name"]: e for e in entries if isinstance(e, dict) and "problem_name" in e}


def _build_jsonl(checkout: Path, pin: DatasetFile, informal: dict[str, dict[str, Any]]) -> bytes:
    source_dir = checkout / pin.source_dir
    files = sorted(p for p in source_dir.glob(f"*{pin.source_suffix}") if PUTNAM_ID.fullmatch(p.stem))
    if not files:
        raise BenchmarkError(f"{source_dir}: no statement files; is this a PutnamBench checkout?")
    lines = []
    for file in files:
        blob = file.read_bytes()
        entry = informal.get(file.stem, {})
        record = {
            "problem_id": file.stem,
            "formal_statement": blob.decode("utf-8"),
            "informal_statement": entry.get("informal_statement"),
            "informal_solution": entry.get("informal_solution"),
            "tags": entry.get("tags"),
            "source_path": f"{pin.source_dir}/{file.name}",
            "git_blob_sha1": _git_blob_sha1(blob),
            "formal_statement_sha256": hashlib.sha256(blob).hexdigest(),
        }
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines).encode("utf-8")


def _git_blob_sha1(blob: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(blob) + blob).hexdigest()


@dataclass(frozen=True)
class PinCheck:
    """What ``putnam check`` found for one file: ``ok`` (matches its pin), ``unpinned`` (no pin to hold
    it against), ``changed`` (does not match its pin) or ``error`` (missing, unreadable, not a benchmark)."""

    path: Path
    status: str
    detail: str

    def line(self) -> str:
        return f"{self.status.upper():9} {self.path}  {self.detail}"


CHECK_EXIT_CODES = "0 every file matches its pin; 1 a file changed or has no pin; 2 a file is missing or unreadable"


def check_pins(paths: Sequence[Path], pins: Sequence[str] = ()) -> list[PinCheck]:
    """Check each benchmark (default: the Lean 4 and Coq PutnamBench files) against its pin, one result
    per file, every file checked whatever the others gave. ``pins`` are SHA-256s given by the user, one
    per path in the same order (none: each file's built-in pin, if its name has one)."""
    if pins and len(pins) != len(paths):
        raise InputError(
            f"{len(pins)} --benchmark-sha256 for {len(paths)} --benchmark: give one per --benchmark, in the "
            "same order, or none (PutnamBench files have built-in pins)"
        )
    if not paths:
        return [_check_default(pin) for pin in PINS if pin.language != "Isabelle"]
    expected: list[str | None] = list(pins) if pins else [None] * len(paths)
    return [_check_one(path, pin) for path, pin in zip(paths, expected, strict=True)]


def _check_default(pin: DatasetFile) -> PinCheck:
    try:
        path = resolve_benchmark_path(pin.name)
    except BenchmarkError as exc:
        return PinCheck(Path(pin.name), "error", str(exc))
    return _check_one(path, None)


def _check_one(path: Path, expected: str | None) -> PinCheck:
    try:
        loaded = load_benchmark(path, expected)
    except PinMismatch as exc:
        return PinCheck(path, "changed", _without_path(str(exc), path))
    except BenchmarkError as exc:
        return PinCheck(path, "error", _without_path(str(exc), path))
    found = f"{len(loaded.problems)} problems, sha256 {loaded.sha256}"
    if loaded.pinned:
        return PinCheck(path, "ok", f"{found}, matches the pin ({loaded.pin_name})")
    return PinCheck(
        path,
        "unpinned",
        f"{found}: no pin to check it against (not a PutnamBench file name); "
        f"pin it with --benchmark-sha256 {loaded.sha256} if these are the bytes you mean",
    )


def _without_path(message: str, path: Path) -> str:
    """The message of an error about ``path`` without its leading path (the check's line names it)."""
    return message.removeprefix(f"{path}: ").removeprefix(f"{path} ")


def check_exit_code(results: Sequence[PinCheck]) -> int:
    """The exit code of ``putnam check`` (see ``CHECK_EXIT_CODES``)."""
    if any(r.status == "error" for r in results):
        return 2
    return 0 if all(r.status == "ok" for r in results) else 1
