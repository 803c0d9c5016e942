"""Sandboxed Rocq compiles shared by the compiled gates (G4, G5, G6) and the answer check.

Every tool run goes through ``sandbox.run_sandboxed`` on a fresh copy under ``sub.scratch``, with the
caps of ``gatekit.sandbox_limits``, running the ``coqc``/``coqchk`` file resolved (and hashed) by
``toolchain.find_tool``, so the file recorded in the evidence is the file that ran. Files are compiled
as modules of the logical root ``Putnam`` under names the harness chooses (``Candidate``,
``Reference``, ``Trusted``), never the candidate's. coqc's ``File "...", line N, characters a-b:``
messages are diagnostics only: a candidate can print anything (``idtac``) on the same streams.

A compile may run the candidate's code (a plugin), so the ``.vo`` a run leaves is the only file taken
back from it (the sandbox's one output), and it is copied out with ``safe_files``: a link, a FIFO or a
file over the disk cap raises UnsafeFile (a gate ``error``), never read. Built ``.vo`` files are kept
under ``sub.scratch`` (where no sandboxed run can write), hashed from the bytes read; which gate builds
what, once per verification, is said in ``products``.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from putnam_solver.core.gatekit import Judgement, ResolvedTool, judge_run, read_product, run_evidence, sandbox_limits
from putnam_solver.core.provers.rocq.kernel_bugs import kernel_bug_evidence
from putnam_solver.core.provers.rocq.syntax import Kind, LexError, tokenize
from putnam_solver.core.provers.rocq.toolchain import COQC, detected_version, find_tool, sandbox_paths
from putnam_solver.core.safe_files import copy_regular_file
from putnam_solver.core.sandbox import SandboxResult, fresh_copy, run_sandboxed
from putnam_solver.core.verify import GateStatus, Submission

ROOT = "Putnam"
CANDIDATE = "Candidate"
REFERENCE = "Reference"
TRUSTED = "Trusted"
MESSAGE = re.compile(
    r'^File "[^"\n]*", line (\d+), characters (\d+)-(\d+):\n(Error|Warning):?\s?(.*?)(?=^File "|\Z)',
    re.M | re.S,
)
OUT_OF_MEMORY = "Out of memory"
"""How coqc and coqchk (OCaml) report an exhausted address space before exiting non-zero."""
STACK_OVERFLOW = "Stack overflow"
"""How they report an exhausted stack (``SandboxLimits.stack_mb``): ``Error: Stack overflow.``"""
FINDLIB_CONFIG = (Path("/etc/ocamlfind.conf"), Path("/etc/ocamlfind.conf.d"))
"""Host configuration coqc needs in the sandbox's otherwise empty ``/etc``: it loads its plugins (ssreflect,
ltac ...) through OCaml findlib, which reads its search path there (Debian's build; others keep it
under the toolchain's own prefix)."""


COQC_MACHINES_OFF = ("-bytecode-compiler", "no", "-native-compiler", "no")
"""Every harness ``coqc`` kernel-checks ``vm_compute``/``native_compute`` casts (``<:``, ``<<:``, and
those ``lia`` and ``ring`` leave) by the kernel's own conversion, as coqchk does: Coq 8.16.1's VM computes
``addmuldiv 64 1 0`` as 1 where the kernel says 0 (rocq#19402, fixed in 8.20; ``kernel_bugs.json`` lists
the VM and native bugs coqchk does not share), which proves ``False`` from mathcomp's headers with no
axiom. Without a G6 (``fast``) nothing else would see it; with these flags the candidate's compile
refuses it. The tactics still compute with the machines; only the kernel's check of their casts
changes, to the conversion coqchk applies on ``full`` anyway (measured: ``lia``, ``lra``, ``ring``,
``nia`` and ``vm_compute`` on binary numbers take the same time; a heavy computation does not: naive
recursion to a 27th Fibonacci number and ``3 ^ 20000 mod 7`` by ``vm_compute`` took 16 s checked by the
VM, 674 s by conversion, which on ``full`` coqchk also needed)."""

TIMEOUT_ERRORS = ("Timeout!", "Tactic timeout!")
"""How coqc reports the expiry of a ``Timeout n`` command or a ``timeout n`` tactic (Coq 8.16: ``Error:
Timeout!``; ``Error: Tactic failure: [Proofview.tclTIMEOUT] Tactic timeout!.``). They count wall-clock
seconds, so on a loaded host a sound proof can run out: an exhausted resource, an ``error`` that is never
cached, not a rejection (a candidate that prints such a message only makes its own verdict an error)."""


@dataclass(frozen=True)
class CoqMessage:
    """One ``File ..., line N, characters a-b:`` message (untrusted text, for diagnostics only)."""

    level: str
    line: int
    start: int
    end: int
    text: str

    def __str__(self) -> str:
        return f"line {self.line}, characters {self.start}-{self.end}: {self.level}: {self.text}"

    @property
    def timed_out(self) -> bool:
        """Whether this is coqc's report of a ``Timeout``/``timeout`` that ran out (``TIMEOUT_ERRORS``)."""
        return self.text.rstrip(" .").endswith(TIMEOUT_ERRORS)


def parse_messages(output: str) -> list[CoqMessage]:
    return [
        CoqMessage(m.group(4), int(m.group(1)), int(m.group(2)), int(m.group(3)), " ".join(m.group(5).split()))
        for m in MESSAGE.finditer(output)
    ]


CLOCK_WORD = "timeout"
"""The last segment of every name of coqc's wall-clock limits: the tactic ``timeout n``, the command
``Timeout n``, the option ``Default Timeout`` (Ltac2's ``Control.timeout`` in later releases). The tactic
fails like any tactic, so ``first``/``try``/``||`` catch its expiry and the compile then fails with
another branch's error (``No applicable tactic``, ``Attempt to save an incomplete proof``)."""
CATCH_ALL = "Fail"
"""The command prefix that turns any failure of its command into success: coqc 8.16's ``Fail`` catches
``Out of memory`` and ``Stack overflow`` too (measured), so what follows it depends on the memory cap,
which the verdict cache's key leaves out, and ``Fail Timeout n`` on the clock."""


def may_have_caught_exhaustion(source: str, failed: CoqMessage) -> bool:
    """Whether the failure ``failed`` of ``source`` may follow an exhausted limit that the file caught, so
    that it may be the host's speed or the caps, not the candidate (red team 36 of the sandbox, measured
    with coqc 8.16.1): a ``CLOCK_WORD`` up to the end of the failing sentence, or a ``CATCH_ALL`` that
    begins before it (``Fail X.`` failing itself means ``X`` ran its course). Read by tokens; a text or a
    position coqc's message does not fit counts, since this only keeps a failure from being a verdict."""
    lines = source.split("\n")
    try:
        tokens = tokenize(source)
    except LexError:
        return True
    if not 1 <= failed.line <= len(lines):
        return True
    line_start = sum(len(line) + 1 for line in lines[: failed.line - 1])
    encoded = lines[failed.line - 1].encode("utf-8")  # coqc counts a line's characters in bytes
    start, end = (line_start + len(encoded[:n].decode("utf-8", "ignore")) for n in (failed.start, failed.end))
    return any(
        t.kind is Kind.WORD
        and ((t.last_segment.lower() == CLOCK_WORD and t.start < end) or (t.text == CATCH_ALL and t.start < start))
        for t in tokens
    )


def judge_tool_run(result: SandboxResult, tool: str, sub: Submission, reported_error: str | None) -> Judgement | None:
    """``gatekit.judge_run`` for a Rocq tool, which reports an exhausted memory cap as ``Out of memory``
    and an exhausted stack as ``Stack overflow`` (OCaml's exceptions, printed as an ``Error:`` that
    would otherwise read as a rejection)."""
    failed = result.exit_code not in (0, None)
    output = result.stderr + result.stdout
    limits = sandbox_limits(sub.options)
    out_of_memory, stack_overflow = failed and OUT_OF_MEMORY in output, failed and STACK_OVERFLOW in output
    return judge_run(
        result, tool, limits, reported_error=reported_error, out_of_memory=out_of_memory, stack_overflow=stack_overflow
    )


@dataclass(frozen=True)
class Built:
    """A harness compile: the run (None when a cached ``.vo`` was reused), the ``.vo`` kept on success,
    the SHA-256 of its bytes as read, the coqc that ran, and the source when it is the candidate's, whose
    caught limits make a failure no verdict (``may_have_caught_exhaustion``; the harness's files judge
    their own steps)."""

    module: str
    result: SandboxResult | None
    vo: Path | None
    vo_sha256: str | None = None
    coqc: ResolvedTool | None = None
    candidate_source: str | None = None

    @property
    def messages(self) -> list[CoqMessage]:
        return [] if self.result is None else parse_messages(self.result.stderr + "\n" + self.result.stdout)

    def judgement(self, sub: Submission) -> Judgement | None:
        """The gate kit's status for this compile, or None when it left its ``.vo`` cleanly."""
        if self.result is None:
            return None if self.vo is not None else (GateStatus.ERROR, "not compiled")
        errors = [m for m in self.messages if m.level == "Error"]
        if errors and errors[0].timed_out:
            return GateStatus.ERROR, f"{errors[0]}: a wall-clock time limit written in the file ran out; not a verdict"
        judged = judge_tool_run(self.result, "coqc", sub, str(errors[0]) if errors else None)
        if judged is None and self.vo is None:
            return GateStatus.ERROR, "coqc exited 0 but left no .vo"
        source = self.candidate_source
        failed = judged is not None and judged[0] is GateStatus.FAILED
        if failed and source is not None and may_have_caught_exhaustion(source, errors[0]):
            why = "a `timeout` or a `Fail` (which catches running out of memory) before it may have caught a limit"
            return GateStatus.ERROR, f"{errors[0]}: {why}, so it may be the host's; not a verdict"
        return judged

    def evidence(self) -> dict[str, Any]:
        evidence: dict[str, Any] = {"module": f"{ROOT}.{self.module}"}
        if self.coqc is not None:
            evidence |= tool_evidence(self.coqc)
        if self.result is not None:
            evidence |= run_evidence(self.result) | {"messages": [str(m) for m in self.messages[:20]]}
        if self.vo_sha256 is not None:
            evidence["vo_sha256"] = self.vo_sha256
        return evidence


def tool_evidence(*tools: ResolvedTool) -> dict[str, Any]:
    """The files that ran and what the first one (coqc or coqchk) says its version's kernel bugs are."""
    return {"tools": {t.name: t.evidence() for t in tools}, **kernel_bug_evidence(detected_version(tools[0]))}


def kept_dir(sub: Submission) -> Path:
    path = sub.scratch / "rocq-artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path


@cache
def _findlib_config() -> tuple[Path, ...]:
    return tuple(p for p in FINDLIB_CONFIG if p.exists())


def run_tool(
    sub: Submission,
    tool: ResolvedTool,
    args: list[str],
    files: dict[str, bytes],
    outputs: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> tuple[SandboxResult, Path]:
    """Run exactly ``tool`` with ``args`` (and ``env`` beside the sandbox's minimal environment) in the
    sandbox on a fresh copy of ``files``."""
    workdir = fresh_copy(files, sub.scratch / "rocq-runs")
    result = run_sandboxed(
        [str(tool.path), *args],
        workdir=workdir,
        env=env,
        readonly=(*_findlib_config(), *sandbox_paths(tool)),
        limits=sandbox_limits(sub.options),
        unsafe_no_sandbox=sub.options.unsafe_no_sandbox,
        outputs=outputs,
    )
    return result, workdir


def build(sub: Submission, module: str, source: str, deps: Sequence[Path] = (), candidate: bool = False) -> Built:
    """Compile ``source`` as ``Putnam.<module>`` next to copies of ``deps`` and keep the ``.vo``.
    ``candidate``: the source is the candidate's, whose caught limits make a failure no verdict.

    ``-noglob``: the cross-reference file coqdoc reads (often ten times the ``.vo``) is of no use to a
    verdict, and written into the run's tmpfs it would count against ``disk_mb`` and memory.

    Raises ToolUnavailable without coqc, UnsafeFile when the run left something other than a regular
    ``.vo`` under the cap.
    """
    coqc = find_tool(COQC, sub.options)
    kept = kept_dir(sub) / f"{module}.vo"
    limits = sandbox_limits(sub.options)
    files = {f"{module}.v": source.encode("utf-8"), **{d.name: read_product(d, limits) for d in deps}}
    vo_name = f"{module}.vo"
    args = ["-q", "-noglob", *COQC_MACHINES_OFF, "-Q", ".", ROOT, f"{module}.v"]
    result, workdir = run_tool(sub, coqc, args, files, [vo_name])
    produced = workdir / vo_name
    own = source if candidate else None
    if not (result.ok and os.path.lexists(produced)):
        return Built(module, result, None, coqc=coqc, candidate_source=own)
    kept.unlink(missing_ok=True)
    data = copy_regular_file(produced, kept, limits.disk_bytes)
    return Built(module, result, kept, hashlib.sha256(data).hexdigest(), coqc, own)
