"""G6 kernel check: ``coqchk`` re-checks the candidate, beside G5's trusted file.

G6 runs ``coqchk -o`` on the candidate's ``.vo`` (libraries admitted, as installed) as soon as it is
compiled, so that it overlaps G5's trusted file (and, on a problem's first verification, the reference's
compile) rather than waiting for it. The reference is not given to coqchk: it is the harness's compile of
the pinned text, and re-checking it would say nothing of the candidate. Nor is the trusted file's own
``.vo``: what coqchk would re-check there is the conversion of the candidate's
theorem's type with the statement's type as the trusted file's coqc elaborated it: the same kernel code
(coqchk's ``checker/mod_checking.ml``, ``check_constant_declaration``, types with ``Typeops.infer`` and
compares with ``Reduction.conv_leq``) on a type coqchk cannot judge for itself. Every constant of the
candidate's own, each proof included, is re-checked here, in a process that loads no plugin. Then: exit 0, no
type-in-type, unsafe fixpoint or assumed positivity, and every axiom in the environment on the
allow-list, a plugged-in assumption, or another theorem the statement itself leaves admitted (kept
verbatim by G2 in the candidate: G5's ``Print Assumptions`` of the theorem is what shows that the proof
does not use it), or a library's specification of a kernel primitive that loading the library brings in
(``toolchain.PRIMITIVE_SPECIFICATIONS``: G5 refuses its use). Names are fully
qualified there. The run is judged by the gate kit (``gatekit.judge_run``): a cap or a signal is an
``error``; a non-zero exit with an error coqchk reported is a rejection.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from putnam_solver.core.artifacts import Artifact
from putnam_solver.core.gatekit import ResolvedTool, guarded, read_product, run_evidence, sandbox_limits
from putnam_solver.core.provers.rocq.build import (
    CANDIDATE,
    ROOT,
    judge_tool_run,
    run_tool,
    tool_evidence,
)
from putnam_solver.core.provers.rocq.challenge import statement_of
from putnam_solver.core.provers.rocq.products import compiled_candidate
from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.provers.rocq.toolchain import COQCHK, allowed_full_name, find_tool, primitive_specification
from putnam_solver.core.sandbox import SandboxResult
from putnam_solver.core.verify import GateResult, GateStatus, Submission

G6 = ("G6", "kernel check")


COQCHK_GC = {"OCAMLRUNPARAM": "o=1000"}
"""The OCaml runtime's space overhead for coqchk: coqc sets its own garbage-collector parameters at start
(``sysinit/coqinit.ml``, ``init_gc``: minor heap and ``space_overhead = 120``), coqchk keeps OCaml's
defaults, and it spends most of its run loading library files whose contents all stay live, so the
major collector's work there is wasted. Measured with coqchk 8.16 on a published Coquelicot proof:
processor time 0.56 s at ``o=1000`` against 0.69 s at ``o=200`` and 0.90 s at OCaml's default, peak
memory 210 MB against 200 MB; on a proof checked by evaluating ``2^17`` in unary, 0.92 s against 1.21 s,
333 MB against 283 MB. It changes when memory is reclaimed, never what is checked; the sandbox's memory
cap still holds, and an exhausted cap is an ``error``, never a rejection."""

COQCHK_SECTIONS = (
    "Constants/Inductives relying on type-in-type",
    "Constants/Inductives relying on unsafe (co)fixpoints",
    "Inductives whose positivity is assumed",
)


def read_coqchk(output: str) -> dict[str, list[str]] | None:
    """coqchk's CONTEXT SUMMARY: section title -> entries (None if there is no summary)."""
    if "CONTEXT SUMMARY" not in output:
        return None
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in output.split("CONTEXT SUMMARY", 1)[1].splitlines():
        if line.startswith("* "):
            title, _, rest = line[2:].partition(":")
            current = sections.setdefault(title.strip(), [])
            if rest.strip() and rest.strip() != "<none>":
                current.append(rest.strip())
        elif current is not None and line.strip():
            current.append(line.strip())
    return sections


def coqchk_problems(sections: dict[str, list[str]], statement: Statement) -> list[str]:
    """Everything in a coqchk summary that keeps the candidate from being accepted."""
    problems: list[str] = []
    if sections.get("Theory") != ["Set is predicative"]:
        problems.append(f"unexpected theory: {sections.get('Theory')}")
    for title in COQCHK_SECTIONS:
        if title not in sections:
            problems.append(f"coqchk printed no `{title}` section")
        problems += [f"{title}: {name}" for name in sections.get(title, [])]
    if "Axioms" not in sections:
        problems.append("coqchk printed no `Axioms` section")
    axioms = set(sections.get("Axioms", []))
    variables = {f"{ROOT}.{CANDIDATE}.{n}" for _, n in statement.assumptions}
    context = {f"{ROOT}.{CANDIDATE}.{n}" for n in statement.admitted_context}
    for name in sorted(axioms - variables - context):
        if not allowed_full_name(name) and not primitive_specification(name):
            problems.append(f"axiom `{name}` is not on the allow-list")
    problems += [f"the statement's `{v}` is not an axiom of the candidate" for v in sorted(variables - axioms)]
    return problems


KERNEL_REJECTIONS = ("Fatal Error: Type error", "Fatal Error: Error related to inductive types")
"""How coqchk 8.16 reports a constant or inductive its kernel refuses: ``checker/checker.ml`` prints the
exception as ``Fatal Error: ...`` and, the kernel's type errors having no registered printer, exits 129 as
for an anomaly, which the sandbox's convention reads as signal 1. It is coqchk's verdict on the candidate
(what coqc's VM or a section's discharge let through, red team 11), a rejection, not an ``error``."""
ANOMALY_EXIT = 129


def kernel_rejection(result: SandboxResult) -> str | None:
    """coqchk's own report that its kernel refused the candidate (None for any other end of the run)."""
    if result.exit_code != ANOMALY_EXIT or result.timed_out or result.killed_reason is not None or result.truncated:
        return None
    lines = result.stderr.splitlines()
    return next((f"coqchk: {line.strip()[:400]}" for line in lines if line.startswith(KERNEL_REJECTIONS)), None)


def reported_error(result: SandboxResult) -> str | None:
    """The first line where coqchk says it found an error (for the detail; the exit code decides)."""
    lines = (result.stderr + "\n" + result.stdout).splitlines()
    return next((f"coqchk: {line.strip()[:400]}" for line in lines if "Error" in line), None)


@dataclass(frozen=True)
class CoqchkRun:
    """coqchk's run on the two ``.vo`` files (``COQCHK_RUN``) and the bytes it was given."""

    result: SandboxResult
    coqchk: ResolvedTool
    files: dict[str, bytes]


def run_coqchk(sub: Submission) -> CoqchkRun | GateResult:
    """coqchk on the candidate's ``.vo`` as soon as it is compiled (a G6 result when it is missing),
    beside G5's trusted file."""
    candidate = compiled_candidate(sub, G6)
    if isinstance(candidate, GateResult):
        return candidate
    assert candidate.vo is not None, "a compile judged clean left its .vo (Built.judgement)"
    coqchk = find_tool(COQCHK, sub.options)
    files = {candidate.vo.name: read_product(candidate.vo, sandbox_limits(sub.options))}
    args = ["-silent", "-o", "-Q", ".", ROOT, "-norec", f"{ROOT}.{CANDIDATE}"]
    result, _ = run_tool(sub, coqchk, args, files, env=COQCHK_GC)
    return CoqchkRun(result, coqchk, files)


COQCHK_RUN: Artifact[CoqchkRun | GateResult] = Artifact("rocq.coqchk", run_coqchk)


def kernel_gate(sub: Submission) -> GateResult:
    """G6: coqchk re-checks the candidate and the reference; axioms against the allow-list."""

    def body() -> GateResult:
        statement = statement_of(sub.problem)
        run = sub.artifacts.get(COQCHK_RUN, sub)
        if isinstance(run, GateResult):
            return run
        result = run.result
        evidence: dict[str, Any] = {
            **run_evidence(result),
            **tool_evidence(run.coqchk),
            "vo_sha256": {name: hashlib.sha256(data).hexdigest() for name, data in run.files.items()},
        }
        refused = kernel_rejection(result)
        if refused is not None:
            return GateResult(*G6, GateStatus.FAILED, refused, evidence)
        judged = judge_tool_run(result, "coqchk", sub, reported_error(result))
        if judged is not None:
            return GateResult(*G6, *judged, evidence)
        sections = read_coqchk(result.stdout + "\n" + result.stderr)
        if sections is None:
            return GateResult(*G6, GateStatus.ERROR, "coqchk printed no context summary", evidence)
        evidence["axioms"] = sections.get("Axioms", [])
        problems = coqchk_problems(sections, statement)
        if problems:
            return GateResult(*G6, GateStatus.FAILED, "; ".join(problems), evidence)
        specifications = sum(1 for name in evidence["axioms"] if primitive_specification(name))
        loaded = f" ({specifications} of them specifications of kernel primitives, whose use G5 refuses)"
        count = len(evidence["axioms"])
        return GateResult(
            *G6,
            GateStatus.PASSED,
            f"coqchk exit code 0; {count} axioms in the environment, all allowed{loaded if specifications else ''}",
            evidence,
        )

    return guarded(*G6, body)
