"""Find candidate files and verify many of them: the library behind ``putnam verify``.

Each candidate is verified independently (its own scratch directory and sandbox), so they run
concurrently in a thread pool: the heavy work happens in child processes, not in Python.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.cache import VerdictCache, cache_key
from putnam_solver.core.dispatch import LOCAL, Verifier
from putnam_solver.core.provers import Prover, get_prover, prover_for_suffix, prover_names
from putnam_solver.core.util import InputError, sha256_hex, write_atomic
from putnam_solver.core.verify import (
    DEFAULT_MAX_CANDIDATE_BYTES,
    PROFILE_GATES,
    Track,
    Verdict,
    VerifyOptions,
    decode_candidate,
    verdict_benchmark,
)


@dataclass(frozen=True)
class Candidate:
    """A candidate file, read once: the verdict is computed from exactly these bytes."""

    path: Path
    problem: Problem
    data: bytes


def infer_prover(paths: Sequence[Path]) -> str:
    """The prover the candidates' file suffixes name (``.lean``, ``.v``), for ``verify`` without
    ``--prover``: the files given by name decide, else the files in the directories given. Files of
    two provers, or of none, are an input error that asks for ``--prover``."""
    named = {_prover_of(p.suffix) for p in paths if not p.is_dir()} - {None}
    if not named:
        named = {_prover_of(f.suffix) for d in paths if d.is_dir() for f in d.iterdir() if f.is_file()} - {None}
    if len(named) == 1:
        return str(named.pop())
    shown = ", ".join(str(p) for p in paths)
    if not named:
        suffixes = ", ".join(f"{get_prover(n).suffix} ({n})" for n in prover_names())
        raise InputError(f"{shown}: no candidate file ending in {suffixes}; pass --prover to choose the prover")
    raise InputError(
        f"{shown}: files of several provers ({', '.join(sorted(str(n) for n in named))}); verify them "
        "separately, or pass --prover"
    )


def _prover_of(suffix: str) -> str | None:
    return prover_for_suffix(suffix) if suffix else None


def discover_candidates(
    paths: Sequence[Path],
    benchmark: Benchmark,
    prover: Prover,
    max_bytes: int = DEFAULT_MAX_CANDIDATE_BYTES,
    warn: Callable[[str], None] | None = None,
) -> list[Candidate]:
    """Resolve files and directories to candidates, in a stable order, each file once however often it
    is named (directly or through its directory).

    A file must be named after its problem (``putnam_1962_a2.lean`` or ``Putnam1962A2.lean``, in the
    benchmark's split when one was chosen); a directory contributes every file in it that is so named,
    and ``warn`` hears of every other entry it skips (a lakefile, a subdirectory: directories are not
    searched recursively). Any file given explicitly that is not a candidate is an input error, as is a
    directory with none, or a file larger than ``max_bytes`` (checked before it is read).
    """
    found: list[Candidate] = []
    seen: set[Path] = set()
    for path in paths:
        if path.is_dir():
            chosen = _in_directory(path, benchmark, prover, warn or (lambda message: None))
        elif path.is_file():
            chosen = [(path, _problem_for_file(path, benchmark, prover))]
        else:
            raise InputError(f"{path}: no such file or directory")
        for file, problem in chosen:
            if (key := file.resolve()) not in seen:
                seen.add(key)
                found.append(_read(file, problem, max_bytes))
    return found


def _in_directory(
    path: Path, benchmark: Benchmark, prover: Prover, warn: Callable[[str], None]
) -> list[tuple[Path, Problem]]:
    chosen: list[tuple[Path, Problem]] = []
    for entry in sorted(path.iterdir()):
        problem = benchmark.problem_for_stem(entry.stem) if entry.suffix == prover.suffix else None
        if entry.is_file() and problem is not None:
            chosen.append((entry, problem))
        elif entry.is_dir():
            warn(f"{entry}: skipped: a directory (directories are not searched recursively)")
        elif entry.suffix != prover.suffix:
            warn(f"{entry}: skipped: not a {prover.name} candidate (they end in {prover.suffix})")
        elif not entry.is_file():
            warn(f"{entry}: skipped: not a regular file")
        else:
            warn(f"{entry}: skipped: its name does not name a problem of {benchmark.path.name}")
    if not chosen:
        raise InputError(
            f"{path}: no candidate files here; name each file after its problem, e.g. "
            f"{_example_name(benchmark, prover)}"
        )
    return chosen


def _problem_for_file(path: Path, benchmark: Benchmark, prover: Prover) -> Problem:
    if path.suffix != prover.suffix:
        raise InputError(
            f"{path}: a {prover.name} candidate must end in {prover.suffix}; pass --prover to choose another"
        )
    problem = benchmark.problem_for_stem(path.stem)
    if problem is None:
        raise InputError(
            f"{path}: the file name does not name a problem of {benchmark.path.name}; rename it after its "
            f"problem, e.g. {_example_name(benchmark, prover)}"
        )
    return problem


def _example_name(benchmark: Benchmark, prover: Prover) -> str:
    first = min(benchmark.problems)
    return f"{first}{prover.suffix} or {benchmark.problems[first].module}{prover.suffix}"


def _read(path: Path, problem: Problem, max_bytes: int) -> Candidate:
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise InputError(
                f"{path}: {size} bytes, over the candidate size cap of {max_bytes} bytes; "
                "pass --max-candidate-bytes N to verify a longer file"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: cannot read the candidate: {exc.strerror}") from exc
    decode_candidate(str(path), data)  # fail early, before any work starts, on empty or non-UTF-8 files
    return Candidate(path, problem, data)


def verdict_key(
    prover: Prover, benchmark: Benchmark, candidate: Candidate, track: Track, options: VerifyOptions
) -> str:
    """The cache key: every input the verdict depends on (the toolchain too for the text profile: the
    Rocq G3 refuses candidate recursion or not depending on the detected Coq version)."""
    toolchain = prover.toolchain_fingerprint(options)
    return cache_key(
        {
            "prover": prover.name,
            "benchmark_sha256": benchmark.sha256,
            "statement_sha256": candidate.problem.statement_sha256,
            "challenge_sha256": sha256_hex(prover.challenge(candidate.problem, track).encode("utf-8")),
            "candidate_sha256": sha256_hex(candidate.data),
            "track": track.value,
            "profile": options.profile.value,
            "axle": str(options.axle),
            "sandbox": "off" if options.unsafe_no_sandbox else "on",
            "max_candidate_bytes": str(options.max_candidate_bytes),
            "allow_recursion": str(options.allow_recursion),
            "statement_by_elaboration": str(options.statement_by_elaboration),
            "kernels": ",".join(options.kernels),
            "unsafe_comparator": str(options.unsafe_comparator),
            "toolchain": toolchain,
        }
    )


def verify_candidates(
    candidates: Sequence[Candidate],
    prover: Prover,
    benchmark: Benchmark,
    track: Track,
    options: VerifyOptions,
    jobs: int | None = None,
    cache: VerdictCache | None = None,
    on_verdict: Callable[[Verdict], None] | None = None,
    verifier: Verifier = LOCAL,
) -> list[Verdict]:
    """Verify every candidate (``jobs`` at a time, each by ``verifier``: here or on a cluster) and return
    the verdicts in input order."""

    def one(candidate: Candidate) -> Verdict:
        key = verdict_key(prover, benchmark, candidate, track, options) if cache else ""
        verdict = cache.get(key) if cache else None
        if verdict is None:
            verdict = verifier.verify(
                prover, benchmark, candidate.problem, candidate.data, track, options, str(candidate.path)
            )
            if cache:
                cache.put(key, verdict)
        verdict.candidate_path = str(candidate.path)
        verdict.benchmark = verdict_benchmark(prover, benchmark, candidate.problem, options)  # the record as it is now
        if on_verdict:
            on_verdict(verdict)
        return verdict

    workers = min(max(1, jobs or os.cpu_count() or 1), len(candidates))
    if workers <= 1:  # no thread to start for a single candidate (a cache hit costs about a millisecond)
        return [one(c) for c in candidates]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, candidates))


def verdicts_json(verdicts: Sequence[Verdict], benchmark: Benchmark) -> dict[str, Any]:
    """The document ``putnam verify --json`` writes."""
    return {
        "all_okay": bool(verdicts) and all(v.accepted for v in verdicts),
        "benchmark": {"path": str(benchmark.path), "sha256": benchmark.sha256, "pin": benchmark.pin_name}
        | {k: v for k, v in benchmark.describe().items() if k in ("name", "variant", "split", "label")},
        "accepted_on_known_defects": sorted(v.problem for v in verdicts if v.accepted and v.defects),
        "results": [v.to_json() for v in verdicts],
    }


def write_verdicts_json(out: Path, verdicts: Sequence[Verdict], benchmark: Benchmark) -> None:
    write_atomic(out, (json.dumps(verdicts_json(verdicts, benchmark), indent=2) + "\n").encode("utf-8"))


VERDICT_INDENT = " " * 10
"""Where the lines under a verdict's first line start: under the problem id."""


BY_ELABORATION: Final = (
    "Lean: accept a theorem written against another version of the benchmark when G6 proves it elaborates to "
    "exactly the pinned statement's type (needs a profile with G6; recorded in G2)."
)


def require_semantic_check(options: VerifyOptions) -> None:
    """Refuse ``--statement-by-elaboration`` where no G6 runs: only comparator can show that a statement
    differing as text elaborates to the pinned type (InputError, exit 2, before any verification)."""
    if options.statement_by_elaboration and "G6" not in PROFILE_GATES[options.profile]:
        raise InputError(
            f"--statement-by-elaboration needs G6 (comparator) to compare elaborated types; profile "
            f"{options.profile.value} has none: use --gates full"
        )


NEEDS_FULL: Final = "needs the full profile: only its semantic statement check can decide the additions below"


def verdict_text(verdict: Verdict) -> str:
    """A verdict as ``putnam verify`` prints it: status, problem and file, then the first gate that did
    not pass, with the lines of a multi-line detail indented under that gate's line, then any answers.
    The statement's known errata (from its benchmark's record) follow the first line.
    ACCEPTED on a profile that never compiled says so on the line."""
    status = verdict.status.upper()
    if verdict.accepted and (note := verdict.scope_note()) is not None:
        status += f" ({note})"
    if verdict.needs_full_profile:
        status += f" ({NEEDS_FULL})"
    lines = [f"{status:9} {verdict.problem}  {verdict.candidate_path}"]
    if verdict.cached:
        lines[0] += "  (cached verdict)"
    for erratum in verdict.benchmark.get("errata", []):
        what = "statement known defective" if erratum.get("defective") else "statement note"
        lines.append(
            f"{VERDICT_INDENT}{what}: {erratum.get('kind')}: {erratum.get('defect')} (source: {erratum.get('source')})"
        )
    problem = verdict.first_problem()
    if problem is not None:
        first, *rest = f"{problem.id} {problem.name} {problem.status.value}: {problem.detail}".rstrip().split("\n")
        lines.append(VERDICT_INDENT + first)
        lines += [f"{VERDICT_INDENT}  {line}" for line in rest]
    for name, answer in verdict.answers.items():
        line = f"{VERDICT_INDENT}answer {name}: {answer.get('candidate')!r} (official: {answer.get('official')!r})"
        if (check := answer.get("check")) is not None:
            line += f"; check: {check['status']} ({check['reason']})"
        lines.append(line)
    return "\n".join(lines)


def exit_code(verdicts: Sequence[Verdict]) -> int:
    """0 all accepted; 2 any gate could not decide (infrastructure); else 1 (a candidate rejected)."""
    if any(v.status == "error" for v in verdicts):
        return 2
    return 0 if all(v.accepted for v in verdicts) else 1
