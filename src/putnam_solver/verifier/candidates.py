"""Find candidate files and verify many of them: the library behind ``putnam verify``.

Each candidate is verified independently (its own scratch directory and sandbox), so they run
concurrently in a thread pool: the heavy work happens in child processes, not in Python.
"""

from __future__ import annotations

import dataclasses
import json
import os
import stat
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from putnam_solver.benchmark_view import benchmark_record
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.cache import VerdictCache, cache_key, options_key
from putnam_solver.core.code_identity import plugin_code
from putnam_solver.core.gatekit import watched_tool_files
from putnam_solver.core.provers import Prover, get_prover, prover_names
from putnam_solver.core.provers.lean.options import LeanOptions
from putnam_solver.core.registry import external_identity
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.selftest_record import known_good_state
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verdict import AXLE_GATE, COMPILE_GATE
from putnam_solver.core.verify import (
    DEFAULT_MAX_CANDIDATE_BYTES,
    PROFILE_GATES,
    Track,
    Verdict,
    VerifyOptions,
    decode_candidate,
    unusable_verdict,
)
from putnam_solver.errata import defects, shown_benchmark
from putnam_solver.problem_selection import problem_for_stem
from putnam_solver.safe_write import write_atomic
from putnam_solver.terminal import shown_path
from putnam_solver.verifier.dispatch import LOCAL, Verifier, node_code
from putnam_solver.verifier.one_toolchain import on_one_toolchain
from putnam_solver.withheld import no_answer_view


@dataclass(frozen=True)
class Candidate:
    """A candidate file, read once: the verdict is computed from exactly these bytes. ``unusable`` says
    why the file cannot be a candidate at all (unreadable, empty, not UTF-8, over the size cap): its
    verdict is then an ``error`` with that reason, and the rest of the batch goes on."""

    path: Path
    problem: Problem
    data: bytes
    unusable: str | None = None


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
    """The registered prover whose candidate files end in ``suffix`` (None if none does)."""
    return next((name for name in prover_names() if suffix and get_prover(name).suffix == suffix), None)


SHOWN_SKIPS = 10
"""Skipped entries of one directory named one per line; the rest are counted in one line, so a folder of
thousands of other files does not bury the run's output."""


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
    directory with none, and so are two files that name one problem (``putnam_1962_a2.v`` beside
    ``Putnam1962A2.v``: a batch's count is of problems). A candidate file that cannot be used (unreadable,
    empty, not UTF-8, larger than ``max_bytes``, checked before it is read) is kept with the reason: one
    bad file never stops a batch.
    """
    found: list[Candidate] = []
    seen: set[Path] = set()
    named: dict[str, Path] = {}
    for path in paths:
        if path.is_dir():
            chosen = _in_directory(path, benchmark, prover, warn or (lambda message: None))
        elif path.is_file():
            chosen = [(path, _problem_for_file(path, benchmark, prover))]
        elif path.exists() or path.is_symlink():  # a FIFO, socket or device (never opened), or a dangling link
            raise InputError(f"{shown_path(path)}: not a regular file or a directory; a candidate is a file")
        else:
            raise InputError(f"{shown_path(path)}: no such file or directory")
        for file, problem in chosen:
            if (key := file.absolute() if file.is_symlink() else file.resolve()) in seen:  # a link: its own entry
                continue
            if (first := named.setdefault(problem.id, file)) != file:
                raise InputError(
                    f"{shown_path(first)} and {shown_path(file)} both name problem {problem.id}: a batch holds one "
                    "candidate per problem (its count is of problems, as a proof folder's is); verify the other file "
                    "in a run of its own"
                )
            seen.add(key)
            found.append(_read(file, problem, max_bytes))
    return found


def _in_directory(
    path: Path, benchmark: Benchmark, prover: Prover, warn: Callable[[str], None]
) -> list[tuple[Path, Problem]]:
    chosen: list[tuple[Path, Problem]] = []
    skipped: list[str] = []
    for entry in sorted(path.iterdir()):
        problem = problem_for_stem(benchmark, entry.stem) if entry.suffix == prover.suffix else None
        if (entry.is_file() or entry.is_symlink()) and problem is not None:  # a link: its own error (``_read``)
            chosen.append((entry, problem))
        elif entry.is_dir():
            skipped.append(f"{shown_path(entry)}: skipped: a directory (directories are not searched recursively)")
        elif entry.suffix != prover.suffix:
            skipped.append(f"{shown_path(entry)}: skipped: not a {prover.name} candidate (they end in {prover.suffix})")
        elif not entry.is_file():
            skipped.append(f"{shown_path(entry)}: skipped: not a regular file")
        else:
            skipped.append(f"{shown_path(entry)}: skipped: its name does not name a problem of {benchmark.path.name}")
    for message in skipped[:SHOWN_SKIPS]:
        warn(message)
    if len(skipped) > SHOWN_SKIPS:
        warn(f"{shown_path(path)}: {len(skipped) - SHOWN_SKIPS} more entries skipped (not named above)")
    if not chosen:
        raise InputError(
            f"{shown_path(path)}: no candidate files here; name each file after its problem, e.g. "
            f"{_example_name(benchmark, prover)}"
        )
    return chosen


def _problem_for_file(path: Path, benchmark: Benchmark, prover: Prover) -> Problem:
    if path.suffix != prover.suffix:
        raise InputError(
            f"{shown_path(path)}: a {prover.name} candidate must end in {prover.suffix}; pass --prover to choose "
            "another"
        )
    problem = problem_for_stem(benchmark, path.stem)
    if problem is None:
        raise InputError(
            f"{shown_path(path)}: the file name does not name a problem of {benchmark.path.name}; rename it after its "
            f"problem, e.g. {_example_name(benchmark, prover)}"
        )
    return problem


def _example_name(benchmark: Benchmark, prover: Prover) -> str:
    first = min(benchmark.problems)
    return f"{first}{prover.suffix} or {benchmark.problems[first].module}{prover.suffix}"


def _read(path: Path, problem: Problem, max_bytes: int) -> Candidate:
    """The candidate at ``path``, read as a file someone else may have left: a proof folder (or a shell
    glob over one) can hold ``putnam_1962_a2.v -> ~/.aws/credentials``, whose lines G2 quoted in the
    verdict (and so in a CI log of submissions), or a link to a FIFO or a growing file. A link is never
    followed and the file is read without blocking, under the cap (``safe_files``); what is not a regular
    file is the candidate's own ``error`` verdict, as an unreadable one is."""
    try:
        info = path.lstat()
    except OSError as exc:
        return Candidate(path, problem, b"", f"{path}: cannot read the candidate: {exc.strerror}")
    if stat.S_ISLNK(info.st_mode):
        return Candidate(
            path,
            problem,
            b"",
            f"{path}: a symbolic link, not followed (a proof folder can come from anyone); verify the file "
            "itself, copied under the problem's name",
        )
    if info.st_size > max_bytes:
        return Candidate(
            path,
            problem,
            b"",
            f"{path}: {info.st_size} bytes, over the candidate size cap of {max_bytes} bytes; "
            "pass --max-candidate-bytes N to verify a longer file",
        )
    try:
        data = read_regular_file(path, max_bytes)
    except UnsafeFile as exc:
        return Candidate(path, problem, b"", f"cannot read the candidate: {exc}")
    try:
        decode_candidate(str(path), data)
    except InputError as exc:
        return Candidate(path, problem, data, str(exc))
    return Candidate(path, problem, data)


def verdict_key(
    prover: Prover,
    benchmark: Benchmark,
    candidate: Candidate,
    track: Track,
    options: VerifyOptions,
    toolchain: str | None = None,
) -> str:
    """The cache key: every input the verdict depends on (the toolchain too for the text profile: the
    Rocq G3 refuses candidate recursion or not depending on the detected Coq version; the statements'
    format, whose Lean options every compile passes; the code of a prover registered from outside the
    trusted package, ``code_identity.plugin_code``), every option that can change it among them
    (``cache.options_key``), and what the last selftest on this toolchain says of each gate's known-good
    canaries (``selftest_record.known_good_state``). ``toolchain``: the fingerprint already read, which
    the verdict stored under this key must be made with (``one_toolchain``)."""
    toolchain = toolchain if toolchain is not None else prover.toolchain_fingerprint(options)
    known_good = known_good_state(prover.name, toolchain, options, [gate.id for gate in prover.gates()])
    return cache_key(
        {
            "prover": prover.name,
            "benchmark_sha256": benchmark.sha256,
            "statement_sha256": candidate.problem.statement_sha256,
            "challenge_sha256": sha256_hex(prover.challenge(candidate.problem, track).encode("utf-8")),
            "candidate_sha256": sha256_hex(candidate.data),
            "track": track.value,
            "options": options_key(options),
            "toolchain": toolchain,
            "known_good": json.dumps(known_good, sort_keys=True),
            "external": external_checks(options),
            # the statements' format is the benchmark file's (by its name), not its bytes': the same bytes named
            # as miniF2F's file compile with Lean's defaults, as an unregistered file with `autoImplicit` off
            "format": json.dumps(dataclasses.asdict(candidate.problem.format), sort_keys=True),
            # a prover registered from outside the trusted package: its gates' code (red team 16)
            **({"prover_code": code} if (code := plugin_code(prover)) else {}),
        }
    )


def external_checks(options: VerifyOptions) -> str:
    """Which outside service judges G7 when the options ask for it (AXLE's URL): a verdict a mirror, a
    staging or a test server passed is not the one the configured server would give, so it is no answer
    for a run against that server (empty without ``--axle``)."""
    return external_identity("axle") if options.axle else ""


def request_verdict(
    prover: Prover, benchmark: Benchmark, candidate: Candidate, track: Track, options: VerifyOptions
) -> Verdict:
    """A verdict made from the request's inputs alone (no gate run), whose identity a cached verdict
    must have to be reused for it (``cache.verdict_identity``)."""
    return unusable_verdict(prover, benchmark, candidate.problem, candidate.data, track, options, "")


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
    nodes = node_code(verifier)  # what a cached verdict a node made must name to answer here

    def judged(candidate: Candidate) -> Verdict:
        if candidate.unusable is not None:
            return unusable_verdict(
                prover, benchmark, candidate.problem, candidate.data, track, options, candidate.unusable
            )
        # read with and without a cache: an acceptance made across a toolchain change counts nowhere (``one_toolchain``)
        toolchain = prover.toolchain_fingerprint(options)
        key = verdict_key(prover, benchmark, candidate, track, options, toolchain) if cache else ""
        cached = cache.get(key, request_verdict(prover, benchmark, candidate, track, options), nodes) if cache else None
        if cached is not None:
            return cached
        with watched_tool_files() as watch:
            made = verifier.verify(
                prover, benchmark, candidate.problem, candidate.data, track, options, str(candidate.path)
            )
            verdict, keep = on_one_toolchain(prover, options, toolchain, made, watch)
        if cache and keep:  # stored only under the key of the toolchain that made it
            cache.put(key, verdict, nodes)
        return verdict

    def one(candidate: Candidate) -> Verdict:
        verdict = judged(candidate)
        verdict.candidate_path = str(candidate.path)
        verdict.benchmark = shown_benchmark(prover, benchmark, candidate.problem, options)  # the record as it is now
        if on_verdict:
            on_verdict(verdict)
        return verdict

    workers = min(max(1, jobs or os.cpu_count() or 1), len(candidates))
    if workers <= 1:  # no thread to start for a single candidate (a cache hit costs about a millisecond)
        return [one(c) for c in candidates]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, candidates))


def verdicts_json(verdicts: Sequence[Verdict], benchmark: Benchmark, show_official: bool = False) -> dict[str, Any]:
    """The document ``putnam verify --json`` writes; on no-answer without the official answers
    (``no_answer_view``) unless ``show_official``."""
    return {
        "all_okay": bool(verdicts) and all(v.accepted for v in verdicts),
        "benchmark": {"path": str(benchmark.path), "sha256": benchmark.sha256, "pin": benchmark.pin_name}
        | {k: v for k, v in benchmark_record(benchmark).items() if k in ("name", "variant", "split", "label")},
        "accepted_on_known_defects": sorted(v.problem for v in verdicts if v.accepted and defects(v)),
        "results": [shown(v, show_official) for v in verdicts],
    }


def shown(verdict: Verdict, show_official: bool = False) -> dict[str, Any]:
    """A verdict's JSON as a command prints it: whole for an operator who asked for the official
    answers, else as anyone outside the harness may see it (``no_answer_view``)."""
    return verdict.to_json() if show_official else no_answer_view(verdict.to_json())


def write_verdicts_json(
    out: Path, verdicts: Sequence[Verdict], benchmark: Benchmark, show_official: bool = False
) -> None:
    document = verdicts_json(verdicts, benchmark, show_official)
    write_atomic(out, (json.dumps(document, indent=2) + "\n").encode("utf-8"))


VERDICT_INDENT = " " * 10
"""Where the lines under a verdict's first line start: under the problem id."""


BY_ELABORATION: Final = (
    "Lean: accept a theorem written against another version of the benchmark when G6 proves it elaborates to "
    "exactly the pinned statement's type (needs a profile with G6; recorded in G2)."
)


def require_semantic_check(options: VerifyOptions) -> None:
    """Refuse ``--statement-by-elaboration`` where no G6 runs: only comparator can show that a statement
    differing as text elaborates to the pinned type (InputError, exit 2, before any verification)."""
    if options.of(LeanOptions).statement_by_elaboration and "G6" not in PROFILE_GATES[options.profile]:
        raise InputError(
            f"--statement-by-elaboration needs G6 (comparator) to compare elaborated types; profile "
            f"{options.profile.value} has none: use --gates full"
        )


NEEDS_FULL: Final = "needs the full profile: only its semantic statement check can decide the additions below"


def scope_note(verdict: Verdict) -> str | None:
    """What an acceptance on this profile did not check, said beside ACCEPTED: nothing compiled the
    candidate on the text profile (AXLE, with ``--axle``, compiles it remotely, not here)."""
    if COMPILE_GATE in verdict.expected_gates:
        return None
    if AXLE_GATE in verdict.expected_gates:
        return "text gates and AXLE only: not compiled here"
    return "text gates only: not compiled"


def verdict_text(verdict: Verdict, show_official: bool = False) -> str:
    """A verdict as ``putnam verify`` prints it: status, problem and file, then the first gate that did
    not pass, with the lines of a multi-line detail indented under that gate's line, then any answers.
    The statement's known errata (from its benchmark's record) follow the first line.
    ACCEPTED on a profile that never compiled says so on the line. On no-answer only what
    ``no_answer_view`` shows, unless ``show_official``."""
    view = shown(verdict, show_official)
    status = verdict.status.upper()
    if verdict.accepted and (note := scope_note(verdict)) is not None:
        status += f" ({note})"
    if verdict.needs_full_profile:
        status += f" ({NEEDS_FULL})"
    lines = [f"{status:9} {verdict.problem}  {shown_path(verdict.candidate_path or '')}"]
    if verdict.cached:
        lines[0] += "  (cached verdict)"
    for erratum in view["benchmark"].get("errata", []):
        what = "statement known defective" if erratum.get("defective") else "statement note"
        said = f": {erratum['defect']} (source: {erratum.get('source')})" if "defect" in erratum else ""
        lines.append(f"{VERDICT_INDENT}{what}: {erratum.get('kind')}{said}")
    if (dispute := view.get("dispute")) is not None:
        lines.append(VERDICT_INDENT + str(dispute))
    problem = verdict.first_problem()
    if problem is not None:
        first, *rest = f"{problem.id} {problem.name} {problem.status.value}: {problem.detail}".rstrip().split("\n")
        lines.append(VERDICT_INDENT + first)
        lines += [f"{VERDICT_INDENT}  {line}" for line in rest]
    for name, answer in view["answers"].items():
        line = f"{VERDICT_INDENT}answer {name}: {answer.get('candidate')!r}"
        if "official" in answer:
            line += f" (official: {answer['official']!r})"
        if (check := answer.get("check")) is not None:
            line += f"; check: {check['status']} ({check['reason']})"
        lines.append(line)
    return "\n".join(lines)


def count_line(verdicts: Sequence[Verdict], apart: str = "", total: bool = True) -> str:
    """``2 problems: 1 accepted, 1 rejected, 0 errors``: the head of every batch's last line (``apart``
    follows the accepted count: acceptances counted apart; without ``total``, no ``2 problems:``)."""
    counts = {s: sum(v.status == s for v in verdicts) for s in ("accepted", "rejected", "error")}
    problems = f"{len(verdicts)} problem{'' if len(verdicts) == 1 else 's'}: " if total else ""
    return (
        f"{problems}{counts['accepted']} accepted{apart}{disputed_note(v.status for v in verdicts)}, "
        f"{counts['rejected']} rejected, {counts['error']} error{'' if counts['error'] == 1 else 's'}"
    )


def disputed_note(statuses: Iterable[str]) -> str:
    """``, N disputed`` for a count line when any verdict is (DESIGN §3: answers are alarms), else empty."""
    disputed = sum(s == "disputed" for s in statuses)
    return f", {disputed} disputed (answer provably not the official one: candidate errata)" if disputed else ""


def exit_code(verdicts: Sequence[Verdict]) -> int:
    """0 all accepted; 2 any gate could not decide (infrastructure); else 1 (a candidate rejected or
    disputed)."""
    if any(v.status == "error" for v in verdicts):
        return 2
    return 0 if all(v.accepted for v in verdicts) else 1
