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

import gzip
import io
import json
import os
import re
import shutil
import tarfile
import tempfile
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from putnam_solver.core import bounded_json
from putnam_solver.core.benchmark import IDENTIFIER, Benchmark
from putnam_solver.core.cache import VerdictCache
from putnam_solver.core.provers import Prover, get_prover
from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verify import Track, Verdict, VerifyOptions, decode_candidate
from putnam_solver.safe_write import write_under
from putnam_solver.verifier.candidates import Candidate, verify_candidates
from putnam_solver.verifier.dispatch import LOCAL, Verifier

FORMAT = "putnam-proof-bundle"
VERSION = 1
MANIFEST = "manifest.json"
INDEX = "bundle.json"
MAX_FILES = 10_000
MAX_FILE_BYTES = 32 << 20
MAX_TOTAL_BYTES = 512 << 20
_TAR_OVERHEAD = 64 << 20  # headers and padding a tar stream may add to its files' bytes
_HEX64 = re.compile(r"[0-9a-f]{64}")
_FOLDERS = ("proofs/", "challenges/", "verdicts/")


class BundleError(InputError):
    """The bundle cannot be read or does not describe itself; the message names the file and problem."""


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


def is_archive_name(path: Path) -> bool:
    """Whether ``putnam export -o PATH`` writes an archive (by its name) rather than a directory."""
    return path.name.endswith((".tar.gz", ".tgz", ".tar"))


# ----------------------------------------------------------------------------------------------- writing


def write_bundle(target: Path, files: Mapping[str, bytes]) -> None:
    """Write ``files`` and their manifest as a directory, or an archive when the name says so
    (``is_archive_name``): reproducibly (sorted, no times or owners) and atomically (a temporary beside
    the target, renamed). An existing target is refused, never overwritten."""
    if target.exists() or target.is_symlink():
        raise BundleError(f"{target}: already exists; choose another output path or remove it")
    manifest = {
        "format": FORMAT,
        "version": VERSION,
        "algorithm": "sha256",
        "files": {name: sha256_hex(data) for name, data in sorted(files.items())},
    }
    everything = {**files, MANIFEST: _dump(manifest)}
    target.parent.mkdir(parents=True, exist_ok=True)
    if is_archive_name(target):
        _write_archive(target, everything)
    else:
        _write_directory(target, everything)


def _write_archive(target: Path, files: Mapping[str, bytes]) -> None:
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw:
            packed = gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) if target.suffix != ".tar" else None
            with tarfile.open(fileobj=packed or raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
                for name, data in sorted(files.items()):
                    info = tarfile.TarInfo(name)
                    info.size, info.mode, info.mtime = len(data), 0o644, 0
                    tar.addfile(info, io.BytesIO(data))
            if packed is not None:
                packed.close()
            raw.flush()
            os.fsync(raw.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_directory(target: Path, files: Mapping[str, bytes]) -> None:
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
    try:
        for name, data in files.items():
            write_under(tmp, name, data)
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


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
        status = str(self.claim.get("status", "none"))
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
    if index.get("format") != FORMAT or index.get("version") != VERSION:
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


def read_bundle_files(path: Path) -> dict[str, bytes]:
    """Every file of the bundle by its name inside it, read safely (see the module docstring)."""
    if path.is_dir():
        files = _read_directory(path)
    elif path.is_file():
        files = _read_archive(path)
    else:
        raise BundleError(f"{path}: no such bundle (a directory or .tar.gz written by `putnam export`)")
    return _strip_top_folder(files)


def _read_directory(root: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = seen = 0
    stack: list[tuple[Path, str]] = [(root, "")]
    while stack:
        directory, prefix = stack.pop()
        with os.scandir(directory) as listing:
            for item in listing:
                name = f"{prefix}{item.name}"
                seen += 1
                if seen > MAX_FILES:
                    raise BundleError(f"{root}: more than {MAX_FILES} entries; not a proof bundle")
                if item.is_symlink():
                    raise BundleError(f"{root}: {name}: a symbolic link; a bundle holds only regular files")
                if item.is_dir(follow_symlinks=False):
                    stack.append((Path(item.path), f"{name}/"))
                    continue
                try:
                    data = read_regular_file(Path(item.path), MAX_FILE_BYTES)
                except UnsafeFile as exc:
                    raise BundleError(f"{root}: {name}{_problem_note(name)}: {_after_path(exc)}") from exc
                total += len(data)
                if total > MAX_TOTAL_BYTES:
                    raise BundleError(f"{root}: more than {MAX_TOTAL_BYTES} bytes in all; not a proof bundle")
                files[name] = data
    return files


class _Reader(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Capped:
    """A read-only stream that fails once more than ``cap`` bytes have come through it (a gzip bomb, or
    a tar header claiming gigabytes, stops here instead of filling memory)."""

    def __init__(self, inner: _Reader, cap: int, where: Path) -> None:
        self.inner, self.cap, self.where, self.count = inner, cap, where, 0

    def read(self, size: int | None = -1) -> bytes:
        room = self.cap - self.count + 1
        data = self.inner.read(room if size is None or size < 0 or size > room else size)
        self.count += len(data)
        if self.count > self.cap:
            raise BundleError(f"{self.where}: the archive holds more than {self.cap} bytes; not a proof bundle")
        return data


def _read_archive(path: Path) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    total = seen = 0
    try:
        with path.open("rb") as raw:
            compressed = raw.read(2) == b"\x1f\x8b"
            raw.seek(0)
            inner: _Reader = gzip.GzipFile(fileobj=raw, mode="rb") if compressed else raw
            stream = _Capped(inner, MAX_TOTAL_BYTES + _TAR_OVERHEAD, path)
            with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
                for member in tar:
                    seen += 1
                    if seen > MAX_FILES:
                        raise BundleError(f"{path}: more than {MAX_FILES} entries; not a proof bundle")
                    name = _member_name(path, member)
                    if name is None or member.isdir():
                        continue
                    if name in files:
                        raise BundleError(f"{path}: {name}{_problem_note(name)}: appears twice in the archive")
                    if member.size > MAX_FILE_BYTES:
                        raise BundleError(
                            f"{path}: {name}{_problem_note(name)}: {member.size} bytes, over the cap of "
                            f"{MAX_FILE_BYTES} bytes per file"
                        )
                    total += member.size
                    if total > MAX_TOTAL_BYTES:
                        raise BundleError(f"{path}: more than {MAX_TOTAL_BYTES} bytes in all; not a proof bundle")
                    handle = tar.extractfile(member)
                    data = handle.read(MAX_FILE_BYTES + 1) if handle is not None else b""
                    if len(data) != member.size:
                        raise BundleError(f"{path}: {name}{_problem_note(name)}: truncated in the archive")
                    files[name] = data
    except (tarfile.TarError, EOFError, OSError, zlib.error) as exc:
        raise BundleError(
            f"{path}: not a readable bundle archive ({type(exc).__name__}: {exc}); a bundle is a directory or a "
            ".tar.gz written by `putnam export`"
        ) from exc
    return files


def _member_name(path: Path, member: tarfile.TarInfo) -> str | None:
    """The member's name inside the bundle, or None for the archive's own root; anything that could
    point outside the bundle or is not a file or directory is refused."""
    raw = member.name
    if "\x00" in raw or "\\" in raw:
        raise BundleError(f"{path}: {raw!r}: a member name with a NUL or backslash")
    if raw.startswith("/"):
        raise BundleError(f"{path}: {raw}: an absolute path; a bundle holds only relative names")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise BundleError(f"{path}: {raw}: a name with '..'; a bundle holds only names inside itself")
    name = "/".join(parts)
    if not (member.isreg() or member.isdir()) or member.issparse():
        kind = (
            "a symbolic link"
            if member.issym()
            else "a hard link"
            if member.islnk()
            else "a device or FIFO"
            if member.isdev()
            else "not a regular file"
        )
        raise BundleError(f"{path}: {name or raw}{_problem_note(name)}: {kind}; a bundle holds only regular files")
    return name or None


def _strip_top_folder(files: dict[str, bytes]) -> dict[str, bytes]:
    """Accept a bundle packed with its folder (``tar czf b.tgz bundle/``): drop a single top folder."""
    if MANIFEST in files or not files:
        return files
    tops = {name.split("/", 1)[0] for name in files}
    if len(tops) != 1 or any("/" not in name for name in files):
        return files
    top = next(iter(tops))
    return {name[len(top) + 1 :]: data for name, data in files.items()}


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
            problems.append(f"{name}{_problem_note(name)}: not in the manifest")
        elif sha256_hex(files[name]) != expected:
            problems.append(
                f"{name}{_problem_note(name)}: SHA-256 {sha256_hex(files[name])}, the manifest says {expected} "
                "(changed after export)"
            )
    problems += [
        f"{n}{_problem_note(n)}: in the manifest, missing from the bundle" for n in sorted(set(listed) - set(files))
    ]
    if problems:
        shown = "; ".join(problems[:10]) + (f"; and {len(problems) - 10} more" if len(problems) > 10 else "")
        raise BundleError(f"{path}: the bundle does not match its manifest: {shown}")


def _problem_note(name: str) -> str:
    """`` (problem X)`` for a file of a problem's folder, else nothing."""
    for folder in _FOLDERS:
        if name.startswith(folder):
            stem = name[len(folder) :].split(".", 1)[0]
            return f" (problem {stem})" if stem else ""
    return ""


def _after_path(exc: Exception) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


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


def _dump(value: Any) -> bytes:
    return (json.dumps(value, indent=2, sort_keys=True, default=str) + "\n").encode("utf-8")


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
            notes.append(f"{first.id} {first.name} {first.status.value}: {first.detail[:300]}")
        notes += [f"statement known defective: {e.get('kind')}: {e.get('defect')}" for e in verdict.defects]
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
