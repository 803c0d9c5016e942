"""``putnam check``: hold each benchmark file against its pin and say which copy was checked.

A registered benchmark's file is the copy the lookup finds (``PUTNAM_BENCHMARK``, the fetched data
directory, else the copy packaged with putnam; see ``putnam_solver.core.benchmark``); each line says which
one it is, so a user knows what their verdicts will be computed against.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.benchmark_files import BenchmarkRequest, find_registered, parse_request
from putnam_solver.core.benchmark import BenchmarkError, PinMismatch, load_benchmark
from putnam_solver.core.benchmarks import DEFAULT_BENCHMARK, BenchmarkFile, BenchmarkSpec, benchmark_names, get_spec
from putnam_solver.core.util import InputError


@dataclass(frozen=True)
class PinCheck:
    """What ``putnam check`` found for one file: ``ok`` (matches its pin), ``unpinned`` (no pin to hold
    it against), ``changed`` (does not match its pin), ``error`` (missing, unreadable, not a benchmark) or
    ``absent`` (a registered benchmark found nowhere, listed when every benchmark is checked)."""

    path: Path
    status: str
    detail: str

    def line(self) -> str:
        return f"{self.status.upper():9} {self.path}  {self.detail}"


CHECK_EXIT_CODES = "0 every file matches its pin; 1 a file changed or has no pin; 2 a file is missing or unreadable"


def check_pins(requests: Sequence[str | Path], pins: Sequence[str] = ()) -> list[PinCheck]:
    """Check each benchmark named against its pin, one result per file, every file checked whatever the
    others gave. A registered name checks each of its files (with a prover here); a path its file.
    Without requests: every registered benchmark (PutnamBench must be present; others are reported
    absent when found nowhere). ``pins`` are SHA-256s given by the user, one per request in the same
    order, each for a request that is one file (none: each file's built-in pin, if its name has one)."""
    if pins and len(pins) != len(requests):
        raise InputError(
            f"{len(pins)} --benchmark-sha256 for {len(requests)} --benchmark: give one per --benchmark, in the "
            "same order, or none (registered benchmark files have built-in pins)"
        )
    named = [parse_request(r) for r in requests] or [BenchmarkRequest(name=n) for n in benchmark_names()]
    expected: list[str | None] = list(pins) if pins else [None] * len(named)
    results: list[PinCheck] = []
    for request, pin in zip(named, expected, strict=True):
        if request.path is not None:
            results.append(_check_one(request.path, pin, "given with --benchmark"))
            continue
        files = _check_files(request)
        if pin is not None and len(files) != 1:
            raise InputError(
                f"--benchmark-sha256 pins one file, but {request} has {len(files)}; "
                "pin its files by PATH or NAME@VARIANT"
            )
        for spec, file in files:
            results.append(
                _check_registered(spec, file, pin, required=bool(requests) or spec.name == DEFAULT_BENCHMARK)
            )
    return results


def _check_files(request: BenchmarkRequest) -> list[tuple[BenchmarkSpec, BenchmarkFile]]:
    """The files a named request checks: those of its variant, or all, with a prover here."""
    from putnam_solver.core.provers import prover_names  # provers are plug-ins; only their names are needed

    assert request.name is not None
    spec = get_spec(request.name)
    return [
        (spec, file)
        for file in spec.files
        if file.prover in prover_names() and (request.variant is None or file.variant == request.variant)
    ]


def _check_registered(spec: BenchmarkSpec, file: BenchmarkFile, pin: str | None, required: bool) -> PinCheck:
    try:
        located = find_registered(spec, file)
    except BenchmarkError as exc:
        if required:
            return PinCheck(Path(file.file), "error", str(exc))
        return PinCheck(
            Path(file.file), "absent", f"{spec.title}: found nowhere (putnam dataset fetch --benchmark {spec.name})"
        )
    return _check_one(located.path, pin, located.copy)


def _check_one(path: Path, expected: str | None, copy: str) -> PinCheck:
    """One file against its pin; ``copy`` says which copy it is (ending every line, so columns stay put)."""
    try:
        loaded = load_benchmark(path, expected)
    except PinMismatch as exc:
        return PinCheck(path, "changed", f"{_without_path(str(exc), path)} ({copy})")
    except BenchmarkError as exc:
        return PinCheck(path, "error", f"{_without_path(str(exc), path)} ({copy})")
    found = f"{len(loaded.problems)} problems, sha256 {loaded.sha256}"
    if loaded.pinned:
        return PinCheck(path, "ok", f"{found}, matches the pin ({loaded.pin_name}); {copy}")
    return PinCheck(
        path,
        "unpinned",
        f"{found}: no pin to check it against (not a registered benchmark file name); "
        f"pin it with --benchmark-sha256 {loaded.sha256} if these are the bytes you mean ({copy})",
    )


def _without_path(message: str, path: Path) -> str:
    """The message of an error about ``path`` without its leading path (the check's line names it)."""
    return message.removeprefix(f"{path}: ").removeprefix(f"{path} ")


def check_exit_code(results: Sequence[PinCheck]) -> int:
    """The exit code of ``putnam check`` (see ``CHECK_EXIT_CODES``); a benchmark found nowhere is no failure."""
    if any(r.status == "error" for r in results):
        return 2
    return 0 if all(r.status in ("ok", "absent") for r in results) else 1
