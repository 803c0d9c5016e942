"""G4 compile: the candidate must compile with `lean` in the sandbox, with no error and no `sorry`.

The candidate's bytes are written, under the module's file name, into a fresh directory under
``sub.scratch`` and compiled there by ``lean --json -o <Module>.olean`` in the sandbox, with the
verification's time and memory caps. It is accepted only when all of these hold:

- `lean` exited 0 on its own (not killed for time, memory or output);
- none of the JSON messages it printed has severity ``error`` or reports a ``sorry``;
- the output was not truncated (a dropped line could have been an error or a ``sorry`` warning);
- the ``.olean`` exists, written by this run into a directory that did not exist before, and is a
  regular file under the disk cap (it is the run's only output, read with ``safe_files``; a link, a FIFO
  or an oversized file is an ``error``).

Messages are parsed from ``--json`` lines and kept as evidence (counts, the first errors), but success
is never read from text: a candidate can make `lean` print anything (``#print "..."``), yet it cannot
make `lean` exit 0 while an error is logged, nor remove a line `lean` itself prints. Lines that are not
messages are counted and otherwise ignored.

``compile_lean`` is the reusable step: G5 compiles its trusted harness file with it, and the bench times it.
The candidate is compiled once per verification (``CANDIDATE_OLEAN``, declared by G4, G5 and the answer
check through ``Gate.needs``): G5 and the answer check import the ``.olean`` of that run, never compile
the candidate again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.core.artifacts import Artifact
from putnam_solver.core.gatekit import guarded, judge_run, read_product, run_evidence, sandbox_limits
from putnam_solver.core.provers.lean.project import lean_option_flags
from putnam_solver.core.provers.lean.toolchain import LeanCommand, find_lean
from putnam_solver.core.safe_files import UnsafeFile
from putnam_solver.core.sandbox import SandboxLimits, SandboxResult, fresh_copy, run_sandboxed
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import GateResult, GateStatus, Submission

GATE_ID, GATE_NAME = "G4", "compile"
ERRORS_KEPT = 5
LEAN_THREADS = 1
"""`lean --threads`. The memory cap limits address space, and Lean reserves about 1 GB of it per worker
thread (measured with Lean 4.35: one thread starts within 4.5 GB, the default of one per core needs 7 GB
on two cores and more on bigger machines). A fixed count makes the cap mean the same everywhere; a
single-theorem file gains little from more threads."""


@dataclass(frozen=True)
class LeanMessage:
    """One message `lean --json` reported. ``text`` is whatever the file made `lean` print."""

    file_name: str
    severity: str
    line: int | None
    column: int | None
    kind: str
    text: str

    @property
    def is_sorry(self) -> bool:
        """The "declaration uses sorry" warning (tagged ``hasSorry``; older releases only say it)."""
        return self.kind == "hasSorry" or (self.text.startswith("declaration uses") and "sorry" in self.text[:40])

    def where(self) -> str:
        return f"{self.file_name}:{self.line}:{self.column}"

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file_name,
            "line": self.line,
            "column": self.column,
            "severity": self.severity,
            "kind": self.kind,
            "text": self.text[:1000],
        }


@dataclass(frozen=True)
class LeanRun:
    """One sandboxed `lean` run: the sandbox's result, the parsed messages and the produced .olean."""

    result: SandboxResult
    messages: tuple[LeanMessage, ...]
    unparsed_lines: int
    workdir: Path
    olean: Path | None

    @property
    def errors(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.severity == "error")

    @property
    def sorries(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.is_sorry)

    def evidence(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for message in self.messages:
            counts[message.severity] = counts.get(message.severity, 0) + 1
        return {
            **run_evidence(self.result),
            "workdir": str(self.workdir),
            "messages_by_severity": counts,
            "unparsed_lines": self.unparsed_lines,
            "first_errors": [m.to_json() for m in self.errors[:ERRORS_KEPT]],
        }


def parse_messages(stdout: str) -> tuple[tuple[LeanMessage, ...], int]:
    """The messages among `lean --json` output lines, and how many lines were not messages."""
    messages: list[LeanMessage] = []
    unparsed = 0
    for line in stdout.splitlines():
        message = _message(line) if line.strip() else None
        if message is None:
            unparsed += bool(line.strip())
        else:
            messages.append(message)
    return tuple(messages), unparsed


def _message(line: str) -> LeanMessage | None:
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict):
        return None
    pos = data.get("pos")
    severity, file_name, text = data.get("severity"), data.get("fileName"), data.get("data")
    if not (isinstance(severity, str) and isinstance(file_name, str) and isinstance(text, str)):
        return None
    line_no, column = (pos.get("line"), pos.get("column")) if isinstance(pos, dict) else (None, None)
    return LeanMessage(
        file_name=file_name,
        severity=severity,
        line=line_no if isinstance(line_no, int) else None,
        column=column if isinstance(column, int) else None,
        kind=str(data.get("kind", "")),
        text=text,
    )


def compile_lean(
    lean: LeanCommand,
    module: str,
    source: bytes,
    *,
    scratch: Path,
    limits: SandboxLimits,
    unsafe_no_sandbox: bool = False,
    extra_lean_path: Sequence[Path] = (),
    emit_olean: bool = True,
    lean_options: Mapping[str, object] | None = None,
) -> LeanRun:
    """Compile ``source`` as module ``module`` in a fresh directory under ``scratch``, in the sandbox.

    ``extra_lean_path`` directories are appended to ``LEAN_PATH`` and exposed read-only (G5 passes the
    candidate's compiled module this way). ``lean_options`` (the benchmark's, else the pinned project's
    ``leanOptions``) are passed as Lake passes them, so every gate elaborates with the options
    comparator's build uses. Paths on the
    command line are relative to the fresh directory, which is also `lean`'s package root, so the
    module name is ``module``.
    Raises SandboxUnavailable when the sandbox cannot run.
    """
    source_name, olean_name = f"{module}.lean", f"{module}.olean"
    workdir = fresh_copy({source_name: source}, scratch)
    flags = ["-o", olean_name] if emit_olean else []
    result = run_sandboxed(
        [*lean.argv, "--json", f"--threads={LEAN_THREADS}", *lean_option_flags(lean_options), *flags, source_name],
        workdir=workdir,
        readonly=(*lean.readonly, *extra_lean_path),
        env=lean.run_env(tuple(extra_lean_path)),
        limits=limits,
        unsafe_no_sandbox=unsafe_no_sandbox,
        outputs=[olean_name] if emit_olean else [],
    )
    messages, unparsed = parse_messages(result.stdout)
    olean = workdir / olean_name
    return LeanRun(result, messages, unparsed, workdir, olean if emit_olean and os.path.lexists(olean) else None)


class ShadowedModule(Exception):
    """A module the harness put on `lean`'s path also lies in a directory `lean` may search first."""


def shadowing_module(lean: LeanCommand, library: Path) -> str | None:
    """Why an import of a module in ``library`` could read another file, or None.

    Lean takes a module from the first directory of its search path that holds it (leanprover/lean4
    src/Lean/Util/Path.lean, ``SearchPath.findWithExt``), and ``library`` comes after the toolchain's,
    the caller's ``LEAN_PATH`` and, through ``lake env``, the project's packages: a ``<Module>.olean``
    there (a stale build of the same problem) would be imported instead of the one G4 compiled."""
    for olean in sorted(p.name for p in library.iterdir() if p.name.endswith(".olean")):
        for directory in lean.search_dirs:
            if os.path.lexists(directory / olean):
                return (
                    f"{directory / olean} on lean's search path would be imported instead of the {olean} compiled here"
                )
    return None


def compile_against_candidate(
    sub: Submission, lean: LeanCommand, module: str, source: str, scratch: Path, library: Path, limits: SandboxLimits
) -> LeanRun:
    """A harness-written module (G5's axiom report, the answer check) compiled with the candidate's
    ``.olean`` in ``library`` on its path; nothing of it is kept. Raises ShadowedModule when a module of
    ``library`` could be found elsewhere first (``shadowing_module``), SandboxUnavailable as
    ``compile_lean`` does."""
    shadowed = shadowing_module(lean, library)
    if shadowed is not None:
        raise ShadowedModule(shadowed)
    return compile_lean(
        lean,
        module,
        source.encode("utf-8"),
        scratch=scratch,
        limits=limits,
        unsafe_no_sandbox=sub.options.unsafe_no_sandbox,
        extra_lean_path=(library,),
        emit_olean=False,
        lean_options=dict(sub.problem.format.lean_options),
    )


def failure_detail(run: LeanRun, limits: SandboxLimits) -> tuple[GateStatus, str] | None:
    """Why a `lean` run does not count as a clean success, or None when it does (olean aside).

    The gate kit's rule (``gatekit.judge_run``) first: a cap, a signal or cut output is an ``error``, a
    non-zero exit with a reported error a rejection, a silent one an ``error``. Then Lean's own: an
    error message or a ``sorry`` even at exit 0 is a rejection (``--json`` severities are Lean's, not
    text the candidate can forge).
    """
    judged = judge_run(run.result, "lean", limits, reported_error=_first_error(run), out_of_memory=_out_of_memory(run))
    if judged is not None:  # an error message, at any exit code, is a rejection there
        return judged
    if run.sorries:
        return GateStatus.FAILED, f"declaration uses sorry at {run.sorries[0].where()}"
    return None


def _first_error(run: LeanRun) -> str | None:
    if not run.errors:
        return None
    first = run.errors[0]
    more = f" (and {len(run.errors) - 1} more errors)" if len(run.errors) > 1 else ""
    return f"error at {first.where()}: {first.text.strip()[:500]}{more}"


def _out_of_memory(run: LeanRun) -> bool:
    """Lean reports an exhausted address space on stderr or as a message ("out of memory", "failed to
    allocate", "failed to create thread"), then exits nonzero or aborts."""
    if run.result.exit_code == 0:
        return False
    text = run.result.stderr + "\n".join(m.text for m in run.errors)
    return any(sign in text for sign in ("out of memory", "failed to allocate", "failed to create thread"))


@dataclass(frozen=True)
class CompiledCandidate:
    """G4's compile of the candidate's exact bytes in this verification: the `lean` that ran, its run,
    and the SHA-256 of the ``.olean`` it left as read right after the run (None when it left none, or
    ``refused`` says why it was not read). G5 and the answer check use this ``.olean`` only when its
    bytes still hash to ``olean_sha256``."""

    lean: LeanCommand
    run: LeanRun
    olean_sha256: str | None
    refused: str | None = None


def compile_candidate(sub: Submission) -> CompiledCandidate:
    """Compile the candidate once for every gate of this verification that needs it (``CANDIDATE_OLEAN``)."""
    lean = find_lean(sub.options)
    limits = sandbox_limits(sub.options)
    run = compile_lean(
        lean,
        sub.problem.module,
        sub.candidate_bytes,
        scratch=sub.scratch / "compile",
        limits=limits,
        unsafe_no_sandbox=sub.options.unsafe_no_sandbox,
        lean_options=dict(sub.problem.format.lean_options),
    )
    if run.olean is None:
        return CompiledCandidate(lean, run, None)
    try:
        return CompiledCandidate(lean, run, sha256_hex(read_product(run.olean, limits)))
    except UnsafeFile as exc:
        return CompiledCandidate(lean, run, None, str(exc))


CANDIDATE_OLEAN: Artifact[CompiledCandidate] = Artifact("lean.candidate", compile_candidate)
"""The candidate's compile: G4 judges it, G5 and the answer check import its ``.olean`` (``Gate.needs``)."""


def compile_gate(sub: Submission) -> GateResult:
    """G4: compile the candidate; see the module docstring for what counts as success."""
    evidence: dict[str, Any] = {"module": sub.problem.module, "candidate_sha256": sha256_hex(sub.candidate_bytes)}
    return guarded(GATE_ID, GATE_NAME, lambda: _judge(sub, sub.artifacts.get(CANDIDATE_OLEAN, sub), evidence))


def _judge(sub: Submission, compiled: CompiledCandidate, evidence: dict[str, Any]) -> GateResult:
    run, limits = compiled.run, sandbox_limits(sub.options)
    evidence["toolchain"] = compiled.lean.evidence()
    evidence["lean_options"] = dict(sub.problem.format.lean_options)
    evidence.update(run.evidence())
    if compiled.refused is not None:
        detail = f"refused the compiled module lean left behind ({compiled.refused}); the candidate is not accepted"
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, detail, evidence)
    if run.olean is not None and compiled.olean_sha256 is not None:  # recorded even on failure
        evidence["olean"] = str(run.olean)
        evidence["olean_sha256"] = compiled.olean_sha256
    failure = failure_detail(run, limits)
    if failure is not None:
        return GateResult(GATE_ID, GATE_NAME, failure[0], failure[1], evidence)
    if run.olean is None:
        return GateResult(GATE_ID, GATE_NAME, GateStatus.ERROR, "lean exited 0 but wrote no .olean", evidence)
    warnings = sum(m.severity == "warning" for m in run.messages)
    return GateResult(
        GATE_ID,
        GATE_NAME,
        GateStatus.PASSED,
        f"compiled in {run.result.wall_seconds:.1f} s ({warnings} warnings)",
        evidence,
    )
