"""Proof bundles: claimed proofs in one self-describing archive that anyone can check with only their own
copy of the pinned benchmark file (``putnam export RUN_DIR -o BUNDLE``, ``putnam verify --bundle``).

A bundle is a directory, or the same files in a ``.tar.gz`` (``.tgz``, ``.tar``)::

    manifest.json                  the SHA-256 of every other file
    bundle.json                    the claim: prover, track, the benchmark's file name and SHA-256 (never the
                                   file), the acceptance settings, toolchain fingerprints, tool versions and
                                   pins, and per problem its hashes, claimed verdict, audit and AXLE request ids
    proofs/<problem><suffix>       each candidate, named as PutnamBench submissions are
    challenges/<problem><suffix>   the challenge the run derived (shown for comparison, never used)
    verdicts/<problem>.json        the verdict at submission with every gate's evidence, and the newest audit

Checking a bundle trusts nothing in it but the candidates' bytes, and those only as input: the manifest
must match every file, every challenge is derived again from the user's own pinned benchmark (whose
SHA-256 must be the one the bundle names), and every candidate goes through the gates like any other.

Reading a bundle is handling untrusted input: an archive is read as a stream (never extracted), member by
member, refusing absolute names, ``..``, links, devices and anything but regular files and directories,
under caps on the number of files, each file's size and the total (also of what gzip inflates); a
directory is walked without following links. Every error names the bundle, the file and, where there is
one, the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver import bounded_json
from putnam_solver.bundles.files import (
    FORMAT,
    MANIFEST,
    MAX_FILE_BYTES,
    VERSION,
    BundleError,
    file_label,
    read_bundle_files,
)
from putnam_solver.core.benchmark import IDENTIFIER, Benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, decode_candidate
from putnam_solver.errata import defects
from putnam_solver.terminal import one_line
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from putnam_solver.verifier.dispatch import LOCAL, Verifier

INDEX = "bundle.json"
_HEX64 = re.compile(r"[0-9a-f]{64}")
_STATUS = re.compile(r"[a-z][a-z_-]{0,23}")
"""The shape of every status a verdict has (``accepted``, ``rejected``, ``error``, ``disputed``...)."""


def proof_name(problem: str, suffix: str) -> str:
    return f"proofs/{_id(problem)}{suffix}"


def challenge_name(problem: str, suffix: str) -> str:
    return f"challenges/{_id(problem)}{suffix}"


def verdict_name(problem: str) -> str:
    return f"verdicts/{_id(problem)}.json"


def _id(problem: str) -> str:  # only the id grammar, so that no file name leads out of its folder
    if not IDENTIFIER.fullmatch(problem):
        raise BundleError(f"{INDEX}: problem {problem!r} is not a valid problem id")
    return problem


# ----------------------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class BundleEntry:
    """One claimed proof: the candidate's bytes and what the bundle says about them."""

    problem: str
    candidate: bytes
    candidate_file: str
    challenge: bytes | None
    claim: dict[str, Any]
    """The verdict at submission, as the bundle states it."""
    audit: dict[str, Any] | None
    toolchain: str | None

    @property
    def claimed(self) -> str:
        """The claimed status, flagged when the claimed verdict is for other bytes than the candidate's."""
        status = self.claim.get("status", "none")
        if not isinstance(status, str) or not _STATUS.fullmatch(status):
            # the bundle's text, shown in a table of one line per problem: a line break there wrote a line
            # of its own claiming another problem re-verified (red team round 5)
            return "unreadable"
        if self.claim.get("candidate_sha256") != sha256_hex(self.candidate):
            return f"{status} (for other bytes)"
        return status


@dataclass(frozen=True)
class Bundle:
    """A bundle read and checked against its manifest; nothing here has been verified yet."""

    path: Path
    prover: str
    track: Track
    benchmark_name: str
    benchmark_sha256: str
    benchmark_pin: str | None
    toolchains: tuple[str, ...]
    index: dict[str, Any]
    entries: tuple[BundleEntry, ...]


def load_bundle(path: Path) -> Bundle:
    """Read the bundle at ``path`` (directory or archive), check its manifest, parse its claim."""
    files = read_bundle_files(path)
    check_manifest(path, files)
    index = _json_object(path, INDEX, files.get(INDEX))
    if index.get("format") != FORMAT or type(index.get("version")) is not int or index["version"] != VERSION:
        raise BundleError(
            f"{path}: {INDEX} is not a version {VERSION} {FORMAT} (format {index.get('format')!r}, version "
            f"{index.get('version')!r}); use the putnam version that wrote it"
        )
    prover = get_prover(_text(path, INDEX, index, "prover"))
    try:
        track = Track(_text(path, INDEX, index, "track"))
    except ValueError as exc:
        raise BundleError(f"{path}: {INDEX}: unknown track {index.get('track')!r}") from exc
    bench = index.get("benchmark")
    if not isinstance(bench, dict):
        raise BundleError(f"{path}: {INDEX}: no benchmark record (its file name and SHA-256)")
    sha = _text(path, INDEX, bench, "sha256")
    if not _HEX64.fullmatch(sha):
        raise BundleError(f"{path}: {INDEX}: benchmark sha256 {sha!r} is not 64 hexadecimal digits")
    listed = index.get("problems")
    if not isinstance(listed, list) or not listed:
        raise BundleError(f"{path}: {INDEX}: no problems listed; a bundle holds at least one proof")
    entries = tuple(_entry(path, files, prover, item) for item in listed)
    seen = [e.problem for e in entries]
    if len(set(seen)) != len(seen):
        raise BundleError(f"{path}: {INDEX}: a problem is listed twice")
    toolchain = index.get("toolchain") if isinstance(index.get("toolchain"), dict) else {}
    fingerprints = toolchain.get("fingerprints", []) if isinstance(toolchain, dict) else []
    return Bundle(
        path=path,
        prover=prover.name,
        track=track,
        benchmark_name=_text(path, INDEX, bench, "name"),
        benchmark_sha256=sha,
        benchmark_pin=bench.get("pin") if isinstance(bench.get("pin"), str) else None,
        toolchains=tuple(str(f) for f in fingerprints) if isinstance(fingerprints, list) else (),
        index=index,
        entries=entries,
    )


def _entry(path: Path, files: Mapping[str, bytes], prover: Prover, item: Any) -> BundleEntry:
    if not isinstance(item, dict):
        raise BundleError(f"{path}: {INDEX}: each problem is a JSON object, found {type(item).__name__}")
    problem = _text(path, INDEX, item, "problem")
    candidate_file = proof_name(problem, prover.suffix)
    candidate = files.get(candidate_file)
    if candidate is None:
        raise BundleError(f"{path}: {candidate_file} (problem {problem}): missing; the bundle lists the problem")
    try:
        decode_candidate(f"{path}: {candidate_file} (problem {problem})", candidate)
    except InputError as exc:
        raise BundleError(str(exc)) from exc
    verdicts = _json_object(path, verdict_name(problem), files.get(verdict_name(problem)), problem)
    claim = verdicts.get("submission")
    if not isinstance(claim, dict):
        raise BundleError(f"{path}: {verdict_name(problem)} (problem {problem}): no verdict at submission")
    audit = verdicts.get("audit")
    toolchain = item.get("toolchain")
    return BundleEntry(
        problem=problem,
        candidate=candidate,
        candidate_file=candidate_file,
        challenge=files.get(challenge_name(problem, prover.suffix)),
        claim=claim,
        audit=audit if isinstance(audit, dict) else None,
        toolchain=toolchain if isinstance(toolchain, str) else None,
    )


def check_manifest(path: Path, files: Mapping[str, bytes]) -> None:
    """Every file is listed in the manifest with its SHA-256, and every listed file is there."""
    manifest = _json_object(path, MANIFEST, files.get(MANIFEST))
    listed = manifest.get("files")
    if manifest.get("format") != FORMAT or not isinstance(listed, dict):
        raise BundleError(f"{path}: {MANIFEST} is not a {FORMAT} manifest (no file list)")
    problems = []
    for name in sorted(set(files) - {MANIFEST}):
        expected = listed.get(name)
        if expected is None:
            problems.append(f"{file_label(name)}: not in the manifest")
        elif sha256_hex(files[name]) != expected:
            problems.append(
                f"{file_label(name)}: SHA-256 {sha256_hex(files[name])}, the manifest says {expected} "
                "(changed after export)"
            )
    problems += [f"{file_label(n)}: in the manifest, missing from the bundle" for n in sorted(set(listed) - set(files))]
    if problems:
        shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
        raise BundleError(f"{path}: the bundle does not match its manifest: {shown}")


def _json_object(path: Path, name: str, data: bytes | None, problem: str | None = None) -> dict[str, Any]:
    where = f"{path}: {name}{f' (problem {problem})' if problem else ''}"
    if data is None:
        raise BundleError(f"{where}: missing; not a proof bundle written by `putnam export`")
    try:
        value = bounded_json.loads(data, where, MAX_FILE_BYTES)
    except InputError as exc:
        raise BundleError(str(exc)) from exc
    if not isinstance(value, dict):
        raise BundleError(f"{where}: expected a JSON object")
    return value


def _text(path: Path, name: str, record: Mapping[str, Any], key: str) -> str:
    value = record.get(key)
    if not isinstance(value, str) or not value:
        raise BundleError(f"{path}: {name}: {key!r} must be a non-empty string")
    return value


# --------------------------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class BundleCheck:
    """One claimed proof, verified again here."""

    entry: BundleEntry
    verdict: Verdict
    challenge_matches: bool | None
    """Whether the bundle's copy of the challenge is the one derived here (None: it has none)."""

    def line(self, width: int) -> str:
        verdict = self.verdict
        shown = verdict.status if verdict.accepted else verdict.status.upper()
        notes = []
        if verdict.cached:
            notes.append("cached verdict")
        if self.challenge_matches is False:
            notes.append("the bundle's challenge differs from the one derived here (ignored)")
        if (first := verdict.first_problem()) is not None:
            # one row per problem: a detail's later lines (a cluster node's name, a compiler's message) are its own
            notes.append(f"{first.id} {first.name} {first.status.value}: {one_line(first.detail)[:300]}")
        notes += [f"statement known defective: {e.get('kind')}: {e.get('defect')}" for e in defects(verdict)]
        tail = f"  {'; '.join(notes)}" if notes else ""
        return f"{self.entry.problem:<{width}}  {self.entry.claimed:<12}  {shown:<12}{tail}".rstrip()


def check_bundle(
    bundle: Bundle,
    benchmark: Benchmark,
    options: VerifyOptions,
    jobs: int | None = None,
    cache: VerdictCache | None = None,
    on_check: Callable[[BundleCheck], None] | None = None,
    verifier: Verifier = LOCAL,
) -> list[BundleCheck]:
    """Verify every candidate of ``bundle`` against ``benchmark`` (the user's own pinned file, whose
    SHA-256 must be the bundle's), each challenge derived here; results in the bundle's order."""
    prover = get_prover(bundle.prover)
    if benchmark.sha256 != bundle.benchmark_sha256:
        raise BundleError(
            f"{bundle.path}: made against {bundle.benchmark_name} with SHA-256 {bundle.benchmark_sha256}, but "
            f"{benchmark.path} has SHA-256 {benchmark.sha256}; give that benchmark file with --benchmark PATH"
        )
    candidates = []
    for entry in bundle.entries:
        problem = benchmark.problems.get(entry.problem)
        if problem is None:
            raise BundleError(f"{bundle.path}: {entry.candidate_file}: no problem {entry.problem} in {benchmark.path}")
        if not benchmark.in_split(problem):
            # the checker named a split (`--benchmark NAME:test`): a proof of another split's problem is no
            # result on it, and counting it made the line "re-verified here: N accepted" hold other problems
            raise BundleError(
                f"{bundle.path}: {entry.candidate_file} (problem {entry.problem}): in the {problem.split} split, not "
                f"{benchmark.split}; check the bundle against its whole benchmark (drop :{benchmark.split}) or a "
                "bundle of that split's proofs"
            )
        candidates.append(Candidate(bundle.path / entry.candidate_file, problem, entry.candidate))
    by_problem = {e.problem: e for e in bundle.entries}
    derived = {
        e.problem: prover.challenge(benchmark.problems[e.problem], bundle.track).encode("utf-8") for e in bundle.entries
    }

    def check(verdict: Verdict) -> BundleCheck:
        entry = by_problem[verdict.problem]
        copy = entry.challenge
        return BundleCheck(entry, verdict, None if copy is None else copy == derived[entry.problem])

    def report(verdict: Verdict) -> None:
        if on_check is not None:
            on_check(check(verdict))

    verdicts = verify_candidates(candidates, prover, benchmark, bundle.track, options, jobs, cache, report, verifier)
    return [check(v) for v in verdicts]


def table_lines(checks: Sequence[BundleCheck]) -> list[str]:
    """The table ``putnam verify --bundle`` prints: claimed vs re-verified, one line per problem."""
    width = max([len("problem"), *(len(c.entry.problem) for c in checks)])
    return [f"{'problem':<{width}}  {'claimed':<12}  re-verified", *(c.line(width) for c in checks)]
