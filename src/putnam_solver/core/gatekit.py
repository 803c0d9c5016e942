"""The gate kit: the one way a gate finds a tool, runs it under caps and turns the run into a status.

Every compiled gate of every prover uses these, so that one rule decides what a run means:

1. A run the harness stopped, or that could not finish, says nothing about the candidate: a timeout, an
   output flood, a signal (``killed_reason``, or an exit code above 128, which is how bubblewrap reports
   a signal: an exhausted CPU or file-size limit ends so), an exhausted memory cap or stack (the prover
   recognises its tool's allocation failure or stack overflow; the stack limit is the same on every
   host, ``SandboxLimits.stack_mb``), a full work dir (``NO_SPACE``) and an output cut at the cap (a
   dropped line could have been an error) are ``error``, never ``failed``. ``error`` verdicts are never
   cached, so a larger cap decides afresh.
2. Otherwise, an error the tool itself reported (a compile error, a kernel rejection) is ``failed``.
3. Otherwise, a non-zero exit with no reported error is ``error``: nobody can tell whose fault it is.
4. Otherwise (exit 0, nothing reported, nothing cut) the run is clean; the gate then checks the files
   it expects.

Tools are resolved once (the user's ``--tool NAME=PATH`` or the tool's environment variable, else the
user's ``PATH``) to an absolute file, hashed, and
recorded in the evidence; the gates run exactly that file, exposing its directory to the sandbox when
it lies outside the system directories. A missing tool or sandbox makes a gate ``unavailable``; a file a
sandboxed run left that is not a plain file under the cap makes it ``error``.

The text gates of every prover report each thing they refuse as a :class:`Violation` and turn those
into a result with :func:`text_gate_result`, so a rejection reads the same whichever prover made it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from putnam_solver.core.safe_files import UnsafeFile, read_regular_file
from putnam_solver.core.sandbox import SandboxLimits, SandboxResult, SandboxUnavailable, outside_system_dirs
from putnam_solver.core.submission import VerifyOptions
from putnam_solver.core.util import InputError, path_variable, sha256_file
from putnam_solver.core.verdict import LEFT_TO_SEMANTIC_CHECK, GateResult, GateStatus

STDERR_KEPT = 2000
SIGNAL_EXIT = 128
NO_SPACE = "no space left on device"
"""glibc's ``strerror(ENOSPC)``, which every tool's report of a write into a full tmpfs quotes: coqc as
``System error: "No space left on device"`` (OCaml's ``Sys_error``, measured with coqc 8.16.1), Lean as
``resource exhausted (error code: 28, no space left on device)`` (``IO.Error.toString`` in Lean's
``src/Init/System/IOError.lean``, which lower-cases its first letter)."""
Judgement = tuple[GateStatus, str]


class ToolUnavailable(Exception):
    """A tool a gate needs is not installed (or not usable); the message says how to fix it."""


class Violation(NamedTuple):
    """One reason a text gate refuses a candidate: where, what, and which rule (a tuple: a crafted file
    can commit one per token, so they must be cheap to make)."""

    line: int
    construct: str
    rule: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.construct}: {self.rule}"


LISTED_VIOLATIONS = 200
"""How many violations a text gate's result lists: a crafted file can commit one per token (a million
``@[`` lists), and a verdict that lists them all would be megabytes that nobody reads."""


def text_gate_result(
    gate_id: str, gate_name: str, violations: list[Violation], passed: str, deferred: str | None = None
) -> GateResult:
    """A text gate's outcome, the same for every prover: passed (saying ``passed``) when nothing was
    found, else failed with one violation a line. The evidence lists the violations as data, so an
    audit need not parse the detail: the first ``LISTED_VIOLATIONS`` of them, with their number when
    there are more (``violations_total``). ``deferred``: the words every refusal of an addition that only
    a semantic statement check can judge says; when all refusals say them, the evidence marks the gate
    (``Verdict.needs_full_profile``)."""
    listed = violations[:LISTED_VIOLATIONS]
    evidence: dict[str, Any] = {
        "violations": [{"line": v.line, "construct": v.construct, "rule": v.rule} for v in listed]
    }
    if not violations:
        return GateResult(gate_id, gate_name, GateStatus.PASSED, passed, evidence)
    if deferred is not None and all(deferred in v.rule for v in violations):
        evidence[LEFT_TO_SEMANTIC_CHECK] = True
    lines = [str(v) for v in listed]
    if len(violations) > len(listed):
        evidence["violations_total"] = len(violations)
        lines.append(f"... and {len(violations) - len(listed)} more violations ({len(violations)} in all)")
    return GateResult(gate_id, gate_name, GateStatus.FAILED, "\n".join(lines), evidence)


def sandbox_limits(options: VerifyOptions) -> SandboxLimits:
    """The caps of every sandboxed tool run of a verification, from the user's options."""
    return SandboxLimits(timeout_seconds=options.timeout_seconds, memory_mb=options.memory_mb, disk_mb=options.disk_mb)


@dataclass(frozen=True)
class ResolvedTool:
    """An external executable fixed for a verification: the absolute file run, its hash and where it
    was found. The argv of every run starts with ``path``, so what is recorded is what ran."""

    name: str
    path: Path
    sha256: str
    origin: str

    @property
    def readonly(self) -> tuple[Path, ...]:
        """What the sandbox must show for the tool to run: its directory, unless a system directory."""
        return (self.path.parent,) if outside_system_dirs(self.path.parent) else ()

    def evidence(self) -> dict[str, str]:
        return {"path": str(self.path), "sha256": self.sha256, "origin": self.origin}


@dataclass(frozen=True)
class ToolSpec:
    """An external executable a prover's gates run, and how a user points the gates at another copy:
    ``--tool NAME=PATH`` on the command line, else the environment variable ``env``."""

    name: str
    env: str
    description: str


def explicit_tool(spec: ToolSpec, options: VerifyOptions) -> tuple[Path, str] | None:
    """The file the user chose for ``spec`` and where they said so, or None (the prover finds its own)."""
    given = options.tools.get(spec.name)
    if given is not None:
        return given, f"--tool {spec.name}"
    try:
        from_env = path_variable(spec.env)  # never relative: a folder of someone else's proofs has its own tools
    except InputError as exc:
        raise ToolUnavailable(str(exc)) from exc
    return (from_env, spec.env) if from_env is not None else None


def resolve_tool(spec: ToolSpec, options: VerifyOptions) -> ResolvedTool:
    """The user's choice (``explicit_tool``) if any, else ``spec.name`` on the user's ``PATH``, as an
    absolute hashed file.

    Raises ToolUnavailable when there is none or it is not an executable file.
    """
    chosen = explicit_tool(spec, options)
    found = str(chosen[0]) if chosen else shutil.which(spec.name, path=absolute_path_entries())
    origin = chosen[1] if chosen else "PATH"
    if found is None:
        raise ToolUnavailable(f"{spec.name} not found on PATH (or give one with --tool {spec.name}=PATH)")
    path = Path(found).resolve()
    if not (path.is_file() and os.access(path, os.X_OK)):
        raise ToolUnavailable(f"{spec.name} ({origin}): {path} is not an executable file")
    return ResolvedTool(spec.name, path, file_sha256(path, named=Path(found)), origin)


def absolute_path_entries() -> str:
    """The user's ``PATH`` without its relative entries. An empty entry (``PATH=:/usr/bin``, which
    ``export PATH=$UNSET:$PATH`` makes) or ``.`` names the working directory, often a folder of proofs from
    someone else: its ``coqc`` was found first, hashed into the verdict's toolchain and run as the gates'
    compiler, and, as a wrapper compiling a sound proof in place of the candidate, made ``putnam verify``
    accept on the full profile a proof that does not compile (trust paths red team 18)."""
    entries = os.environ.get("PATH", os.defpath).split(os.pathsep)
    return os.pathsep.join(entry for entry in entries if os.path.isabs(entry))


def read_product(path: Path, limits: SandboxLimits) -> bytes:
    """A compiled module a sandboxed run left (an ``.olean``, a ``.vo``), read under the disk cap it ran
    with: UnsafeFile unless a regular file within it, since the run that wrote it ran the candidate."""
    return read_regular_file(path, limits.disk_bytes)


def file_sha256(path: Path, named: Path | None = None) -> str:
    """SHA-256 of a tool's file, remembered while the same file (device, inode) keeps its size, modification
    time and change time. Not its size and modification time alone (before red team 17): a tool rewritten
    in place with its old size and ``mtime`` set back (``cp --preserve``, ``touch -r``) kept the old hash in
    a long-running process (``serve``, a campaign), so verdicts and selftest records of the old binary
    answered for the new one; the change time cannot be set back.

    ``named``: the name the file was found by (a symbolic link, a ``PATH`` search), under which an open
    ``watched_tool_files`` block also keeps the state: a link pointed at B and back at A while the gates ran
    left A itself untouched (red team 20), and the name then shows two files."""
    info = path.stat()
    state = (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
    with _watch_lock:
        for watch in _watching:
            for key in dict.fromkeys([str(path), *([str(named)] if named else [])]):
                watch.seen.setdefault(key, set()).add((*state, info.st_nlink))
    return _sha256_cached(str(path), state)


class ToolWatch:
    """The states (device, inode, size, modification time, change time, link count) in which
    ``file_sha256`` hashed each tool file while a ``watched_tool_files`` block was open, in any thread."""

    def __init__(self) -> None:
        self.seen: dict[str, set[tuple[int, ...]]] = {}

    def rewritten(self) -> list[str]:
        """The files hashed so far that were written or replaced meanwhile, even when their bytes came back
        the same (see ``watched_tool_files``)."""
        with _watch_lock:
            return sorted(path for path, states in self.seen.items() if _rewritten(states))


_watching: list[ToolWatch] = []
"""The open ``watched_tool_files`` blocks."""
_watch_lock = threading.Lock()
"""Serves' threads hash tools while other threads open and close blocks."""


@contextlib.contextmanager
def watched_tool_files() -> Iterator[ToolWatch]:
    """A record of the tool files ``file_sha256`` hashes while the block runs, to tell which were written or
    replaced meanwhile (``ToolWatch.rewritten``). A selftest's fingerprint read before and after its
    canaries matched for a ``coqc`` replaced and put back while they ran (A, B, A), so its passing record
    spoke for A though a canary ran on B (trust paths red team 19); a verification's did the same for its
    verdict (``verifier.one_toolchain``, red team 20).

    A file is judged by its states (device, inode, size, modification time, change time, link count): one
    written back has a new modification time, or a new change time if that was set back; one renamed back
    a new inode or change time, which cannot be set back. A change time that moved with the link count
    alone is a hard link made or removed elsewhere (a package manager's backup, another copy of the
    toolchain), which leaves the file as it was."""
    watch = ToolWatch()
    with _watch_lock:
        _watching.append(watch)
    try:
        yield watch
    finally:
        with _watch_lock:
            _watching.remove(watch)


def _rewritten(states: set[tuple[int, ...]]) -> bool:
    """Whether these states of one file (as ``file_sha256`` keeps them, the link count last) show it written
    or replaced: another file or content, or two change times under the same link count."""
    if len({state[:4] for state in states}) > 1:
        return True
    times: dict[int, set[int]] = {}
    for *_, ctime, links in states:
        times.setdefault(links, set()).add(ctime)
    return any(len(ctimes) > 1 for ctimes in times.values())


@functools.lru_cache(maxsize=64)
def _sha256_cached(path: str, state: tuple[int, ...]) -> str:
    return sha256_file(Path(path))


def capped(
    result: SandboxResult, tool: str, limits: SandboxLimits, out_of_memory: bool = False, stack_overflow: bool = False
) -> str | None:
    """Why the run could not finish (rule 1 of the module docstring), or None when it ran its course."""
    code = result.exit_code
    if result.timed_out:
        return f"{tool} timed out after {limits.timeout_seconds:g} s"
    if result.killed_reason == "output":
        return f"{tool}'s output exceeded {limits.max_output_bytes} bytes"
    if out_of_memory:  # before signals: an allocation failure often ends in abort()
        return f"{tool} ran out of memory (cap {limits.memory_mb} MB)"
    if stack_overflow:
        return f"{tool} overflowed its stack (limit {limits.stack_mb} MB)"
    if code != 0 and NO_SPACE in (result.stderr + result.stdout).lower():
        return f"{tool} ran out of disk space (cap {limits.disk_mb} MB)"
    if result.killed_reason is not None:
        return f"{tool} was stopped ({result.killed_reason})"
    if code is not None and code > SIGNAL_EXIT:
        return f"{tool} died by signal {code - SIGNAL_EXIT}"
    if result.truncated:
        return f"{tool}'s output was truncated, so not every message could be checked"
    return None


def judge_run(
    result: SandboxResult,
    tool: str,
    limits: SandboxLimits,
    *,
    reported_error: str | None,
    out_of_memory: bool = False,
    stack_overflow: bool = False,
) -> Judgement | None:
    """The status of a run by the rule of the module docstring, or None for a clean run.

    ``reported_error`` is the first error the tool reported (parsed by the prover; untrusted text, for
    the detail only: a candidate can print a forged error, which only rejects itself). ``out_of_memory``
    and ``stack_overflow`` are the prover's reading of its tool's output (a candidate that prints such a
    message only makes its own verdict an ``error``).
    """
    cap = capped(result, tool, limits, out_of_memory, stack_overflow)
    if cap is not None:
        return GateStatus.ERROR, f"{cap}; not a verdict on the candidate"
    if reported_error is not None:
        return GateStatus.FAILED, reported_error
    if result.exit_code != 0:
        stderr = result.stderr.strip()[-500:] or "no output on stderr"
        return GateStatus.ERROR, f"{tool} failed (exit code {result.exit_code}) without reporting an error: {stderr}"
    return None


def run_evidence(result: SandboxResult) -> dict[str, Any]:
    """What every gate records about one tool run."""
    return {
        "argv": list(result.argv),
        "exit_code": result.exit_code,
        "killed_reason": result.killed_reason,
        "timed_out": result.timed_out,
        "wall_seconds": round(result.wall_seconds, 3),
        "peak_memory_kb": result.peak_memory_kb,
        "sandboxed": result.sandboxed,
        "uid": result.uid,
        "stdout_bytes": result.stdout_bytes,
        "truncated": result.truncated,
        "stderr_tail": result.stderr[-STDERR_KEPT:],
    }


def guarded(gate_id: str, gate_name: str, body: Callable[[], GateResult]) -> GateResult:
    """``body()``, with a missing tool or sandbox as ``unavailable`` and a refused output file as ``error``."""
    try:
        return body()
    except (ToolUnavailable, SandboxUnavailable) as exc:
        return GateResult(gate_id, gate_name, GateStatus.UNAVAILABLE, str(exc))
    except UnsafeFile as exc:
        detail = (
            f"refused a file a sandboxed run left behind ({exc}); it is never read, and the candidate is not accepted"
        )
        return GateResult(gate_id, gate_name, GateStatus.ERROR, detail)
