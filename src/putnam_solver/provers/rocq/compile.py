"""The compiled Rocq gates: G4 (``coqc``), G5 (trusted type check and assumptions), G6 (``coqchk``).

Every tool run goes through ``sandbox.run_sandboxed`` on a fresh copy under ``sub.scratch``, with the
time and memory caps of ``sub.options``. Files are compiled as modules of the logical root ``Putnam``
under names the harness chooses (``Candidate``, ``Reference``, ``Trusted``), never the candidate's.

G4 compiles the candidate. The verdict is the exit code (and the ``.vo`` it must leave); coqc's
``File "...", line N, characters a-b:`` messages are diagnostics only, since a candidate can print
anything (``idtac``) on the same streams.

G5 compiles the reference (challenge.py: the pinned statement inside a section, so its assumptions
become arguments) and then the harness's trusted file, which ``Require``s (never ``Import``s) both::

    Lemma __putnam_answer : @Putnam.Candidate.sol = @Putnam.Reference.__putnam_official_solution
                              Putnam.Candidate.R.
    Proof. unfold Putnam.Candidate.sol, Putnam.Reference.__putnam_official_solution. reflexivity. Qed.
                                                                             (with-answer only)
    Definition __putnam_check :
      ltac:(let t := type of (@Putnam.Reference.thm Putnam.Candidate.R Putnam.Candidate.sol) in exact t)
      := @Putnam.Candidate.thm.

The statement is elaborated by the harness from the pinned text before the candidate is loaded, so the
candidate's notations, instances, coercions or redefinitions cannot change what it says; only its
top-level assumptions (``Variable R : realType``) and its solution are plugged in, and the kernel checks
that the candidate's theorem has that type (up to conversion: a proof of a convertible type is a proof
of the statement). With the solution plugged in as well, a faithful candidate's type is syntactically
the expected one, so the kernel accepts it without reducing anything (comparing ``X 2007`` for a
let-bound ``fix`` by reduction exhausts memory in ``putnam_2007_b3``); on the with-answer track
``__putnam_answer`` separately makes the kernel check the candidate's solution against the official one.
Then ``Print Assumptions`` of the check and of every
plugged-in assumption: each assumption must be an axiom (not a definition picking a concrete model), and
everything else must be on the allow-list. Output is read only after a random marker the trusted file
prints once both ``Require``s are done: loading a ``.vo`` prints nothing of the candidate (its
``idtac``/``Print`` ran when it was compiled), and the marker makes that irrelevant anyway. Options a
candidate exports with ``Global Set`` do reach the trusted file, so it re-enables the kernel checks.

G6 runs ``coqchk -o`` on the three ``.vo`` files (libraries admitted, as installed): exit 0, no
type-in-type, unsafe fixpoint or assumed positivity, and every axiom in the environment on the
allow-list, a plugged-in assumption, or the reference's own placeholder theorem. Names are fully
qualified there. Built ``.vo`` files are kept under ``sub.scratch`` (where no sandboxed run can write)
and reused by later gates of the same verification; each gate builds what it lacks, so each also works
alone.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import shutil
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from putnam_solver.provers.rocq.challenge import (
    OFFICIAL_SOLUTION,
    instantiation,
    reference_source,
    solution_arguments,
    statement_of,
)
from putnam_solver.provers.rocq.syntax import Statement
from putnam_solver.provers.rocq.toolchain import (
    BOOTSTRAP_HINT,
    allowed_full_name,
    allowed_printed_name,
    detected_version,
    kernel_bug_evidence,
)
from putnam_solver.sandbox import SandboxLimits, SandboxResult, SandboxUnavailable, fresh_copy, run_sandboxed
from putnam_solver.verify import GateResult, GateStatus, Submission, Track

ROOT = "Putnam"
CANDIDATE = "Candidate"
REFERENCE = "Reference"
TRUSTED = "Trusted"
MESSAGE = re.compile(
    r'^File "[^"\n]*", line (\d+), characters (\d+)-(\d+):\n(Error|Warning):?\s?(.*?)(?=^File "|\Z)',
    re.M | re.S,
)
UNSAFE_ENTRY = re.compile(r" is assumed to be | relies on ")


class ToolMissing(Exception):
    """coqc or coqchk is not installed."""


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


def parse_messages(output: str) -> list[CoqMessage]:
    return [
        CoqMessage(m.group(4), int(m.group(1)), int(m.group(2)), int(m.group(3)), " ".join(m.group(5).split()))
        for m in MESSAGE.finditer(output)
    ]


@dataclass(frozen=True)
class Built:
    """A harness compile: the run (None when a kept ``.vo`` was reused) and the ``.vo`` kept on success."""

    module: str
    result: SandboxResult | None
    vo: Path | None

    @property
    def messages(self) -> list[CoqMessage]:
        return [] if self.result is None else parse_messages(self.result.stderr + "\n" + self.result.stdout)

    def failure(self) -> str:
        """Why this compile produced no ``.vo`` (empty when it did)."""
        if self.vo is not None:
            return ""
        result = self.result
        if result is None:
            return "not compiled"
        if result.timed_out:
            return f"timed out after {result.wall_seconds:.0f}s"
        if result.killed_reason:
            return f"killed ({result.killed_reason})"
        errors = [m for m in self.messages if m.level == "Error"]
        first = str(errors[0]) if errors else (result.stderr.strip()[-400:] or "no message")
        return f"exit code {result.exit_code}: {first}"


def _artifacts(sub: Submission) -> Path:
    path = sub.scratch / "rocq-artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _sandboxed(sub: Submission, argv: list[str], files: dict[str, bytes]) -> tuple[SandboxResult, Path]:
    if shutil.which(argv[0]) is None:
        raise ToolMissing(f"{argv[0]} not found on PATH; {BOOTSTRAP_HINT}")
    workdir = fresh_copy(files, sub.scratch / "rocq-runs")
    limits = SandboxLimits(timeout_seconds=sub.options.timeout_seconds, memory_mb=sub.options.memory_mb)
    result = run_sandboxed(argv, workdir=workdir, limits=limits, unsafe_no_sandbox=sub.options.unsafe_no_sandbox)
    return result, workdir


def build(sub: Submission, module: str, source: str, deps: Sequence[Path] = (), reuse: bool = True) -> Built:
    """Compile ``source`` as ``Putnam.<module>`` next to copies of ``deps`` and keep the ``.vo``."""
    kept = _artifacts(sub) / f"{module}.vo"
    if reuse and kept.is_file():
        return Built(module, None, kept)
    files = {f"{module}.v": source.encode("utf-8"), **{d.name: d.read_bytes() for d in deps}}
    result, workdir = _sandboxed(sub, ["coqc", "-q", "-Q", ".", ROOT, f"{module}.v"], files)
    produced = workdir / f"{module}.vo"
    if not (result.ok and produced.is_file()):
        return Built(module, result, None)
    shutil.copyfile(produced, kept)
    return Built(module, result, kept)


def build_candidate(sub: Submission, reuse: bool = True) -> Built:
    return build(sub, CANDIDATE, sub.candidate, reuse=reuse)


def build_reference(sub: Submission) -> Built:
    return build(sub, REFERENCE, reference_source(statement_of(sub.problem)))


def trusted_source(statement: Statement, track: Track, marker: str) -> str:
    """The harness's check file (see the module docstring); ``marker`` precedes the output it reads."""
    thm = statement.theorem_name
    candidate = f"{ROOT}.{CANDIDATE}"
    args = "".join(f" {candidate}.{n}" for n in instantiation(statement))
    uses = "".join(f", __putnam_uses {candidate}.{n}" for _, n in statement.assumptions)
    lines = [
        f"Require {ROOT}.{REFERENCE}.",
        f"Require {candidate}.",
        "Set Guard Checking.",
        "Set Positivity Checking.",
        "Set Universe Checking.",
    ]
    if track is Track.WITH_ANSWER and statement.solution is not None:
        official = "".join(f" {candidate}.{n}" for n in solution_arguments(statement))
        # Unfold both definitions, then compare: a plain `eq_refl` lets conversion evaluate the answer
        # (putnam_2017_b6's `fact 2016` exhausts memory), while the unfolded bodies are equal as written.
        ours, theirs = f"{candidate}.{statement.solution_name}", f"{ROOT}.{REFERENCE}.{OFFICIAL_SOLUTION}"
        lines.append(
            f"Lemma __putnam_answer : @{ours} = @{theirs}{official}.\n"
            f"Proof. unfold {ours}, {theirs}. reflexivity. Qed."
        )
    lines += [
        "Definition __putnam_check :",
        f"  ltac:(let t := type of (@{ROOT}.{REFERENCE}.{thm}{args}) in exact t)",
        f"  := @{candidate}.{thm}.",
        "Definition __putnam_uses {A : Type} (_ : A) : unit := tt.",
        f"Definition __putnam_assumptions := (__putnam_uses __putnam_check{uses}).",
        f'Goal True. idtac "{marker}". Abort.',
        "Print Assumptions __putnam_assumptions.",
        "",
    ]
    return "\n".join(lines)


@dataclass(frozen=True)
class Assumptions:
    """What the trusted ``Print Assumptions`` reported, split by verdict."""

    allowed: list[str]
    plugged: list[str]
    unsafe: list[str]
    other: list[str]


def read_assumptions(output: str, marker: str, variables: Sequence[str]) -> Assumptions | None:
    """Classify the entries printed after ``marker`` (None if the marker never appeared)."""
    lines = output.splitlines()
    if marker not in lines:
        return None
    found = Assumptions([], [], [], [])
    plugged_names = {f"{CANDIDATE}.{v}": v for v in variables} | {f"{ROOT}.{CANDIDATE}.{v}": v for v in variables}
    for line in lines[lines.index(marker) + 1 :]:
        if not line or line[0].isspace() or line in ("Axioms:", "Closed under the global context"):
            continue
        name = line.split(" : ", 1)[0].strip()
        if UNSAFE_ENTRY.search(line):
            found.unsafe.append(line.strip())
        elif name in plugged_names:
            found.plugged.append(plugged_names[name])
        elif allowed_printed_name(name, reserved=(CANDIDATE, ROOT)):
            found.allowed.append(name)
        else:
            found.other.append(name)
    return found


def _unavailable_or_error(gate: tuple[str, str], body: Callable[[], GateResult]) -> GateResult:
    try:
        return body()
    except (SandboxUnavailable, ToolMissing) as exc:
        return GateResult(gate[0], gate[1], GateStatus.UNAVAILABLE, str(exc))


def _run_evidence(built: Built) -> dict[str, Any]:
    evidence: dict[str, Any] = {"module": f"{ROOT}.{built.module}", **kernel_bug_evidence(detected_version())}
    if built.result is not None:
        r = built.result
        evidence |= {
            "argv": list(r.argv),
            "exit_code": r.exit_code,
            "timed_out": r.timed_out,
            "wall_seconds": round(r.wall_seconds, 3),
            "sandboxed": r.sandboxed,
            "messages": [str(m) for m in built.messages[:20]],
        }
    if built.vo is not None:
        evidence["vo_sha256"] = hashlib.sha256(built.vo.read_bytes()).hexdigest()
    return evidence


G4 = ("G4", "compile")
G5 = ("G5", "statement and assumptions")
G6 = ("G6", "kernel check")


def compile_gate(sub: Submission) -> GateResult:
    """G4: the candidate compiles with coqc (exit code 0 and a ``.vo``) within the caps."""

    def body() -> GateResult:
        built = build_candidate(sub, reuse=False)
        evidence = _run_evidence(built)
        if built.vo is None:
            return GateResult(*G4, GateStatus.FAILED, f"coqc: {built.failure()}", evidence)
        return GateResult(*G4, GateStatus.PASSED, "coqc exit code 0", evidence)

    return _unavailable_or_error(G4, body)


def _prerequisites(sub: Submission, gate: tuple[str, str]) -> tuple[Built, Built] | GateResult:
    """The candidate's and the reference's ``.vo``, or the result that says why they are missing."""
    candidate = build_candidate(sub)
    if candidate.vo is None:
        return GateResult(
            *gate, GateStatus.FAILED, f"the candidate does not compile: {candidate.failure()}", _run_evidence(candidate)
        )
    reference = build_reference(sub)
    if reference.vo is None:
        # the reference holds the official solution, which coqc's message may quote: on no-answer that
        # message stays in the evidence (harness-side), out of the detail that models are shown
        why = reference.failure() if sub.track is Track.WITH_ANSWER else "coqc's message is in the evidence"
        return GateResult(
            *gate,
            GateStatus.ERROR,
            f"the harness's reference module does not compile: {why}",
            _run_evidence(reference),
        )
    return candidate, reference


def _mismatch(statement: Statement, built: Built) -> str:
    return (
        f"the candidate's `{statement.theorem_name}` does not prove the challenge statement "
        f"(or a statement assumption is missing or retyped): {built.failure()}"
    )


def statement_gate(sub: Submission) -> GateResult:
    """G5: kernel-checked statement identity, then the assumptions against the allow-list."""

    def body() -> GateResult:
        statement = statement_of(sub.problem)
        ready = _prerequisites(sub, G5)
        if isinstance(ready, GateResult):
            return ready
        marker = f"PUTNAM-TRUSTED-{secrets.token_hex(16)}"
        source = trusted_source(statement, sub.track, marker)
        trusted = build(sub, TRUSTED, source, [v for b in ready if (v := b.vo)], reuse=False)
        evidence = _run_evidence(trusted)
        if trusted.vo is None or trusted.result is None:
            return GateResult(*G5, GateStatus.FAILED, _mismatch(statement, trusted), evidence)
        if trusted.result.truncated:  # a cut-off list could hide an axiom
            return GateResult(*G5, GateStatus.ERROR, "the trusted file's output exceeded the output cap", evidence)
        variables = [n for _, n in statement.assumptions]
        found = read_assumptions(trusted.result.stdout, marker, variables)
        if found is None:
            return GateResult(*G5, GateStatus.ERROR, "the trusted file printed no assumptions", evidence)
        evidence |= {"allowed": found.allowed, "plugged": found.plugged}
        problems = _assumption_problems(found, variables)
        if problems:
            return GateResult(*G5, GateStatus.FAILED, "; ".join(problems), evidence)
        return GateResult(
            *G5,
            GateStatus.PASSED,
            f"same statement (kernel-checked); assumptions: {len(found.allowed)} allowed axioms"
            + (f", statement variables {', '.join(found.plugged)}" if found.plugged else ""),
            evidence,
        )

    return _unavailable_or_error(G5, body)


def _assumption_problems(found: Assumptions, variables: Sequence[str]) -> list[str]:
    problems = [f"relies on a disabled kernel check: {u}" for u in found.unsafe]
    problems += [f"axiom `{o}` is not on the allow-list" for o in found.other]
    counts = Counter(found.plugged)
    for v in variables:
        if counts[v] != 1:
            problems.append(
                f"the statement's `{v}` must be the candidate's own axiom, declared as in the "
                f"challenge (found {counts[v]} times among the assumptions)"
            )
    return problems


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
    placeholder = f"{ROOT}.{REFERENCE}.{statement.theorem_name}"
    for name in sorted(axioms - variables - {placeholder}):
        if not allowed_full_name(name):
            problems.append(f"axiom `{name}` is not on the allow-list")
    problems += [f"the statement's `{v}` is not an axiom of the candidate" for v in sorted(variables - axioms)]
    return problems


def kernel_gate(sub: Submission) -> GateResult:
    """G6: coqchk re-checks the candidate and the trusted statement check; axioms against the allow-list."""

    def body() -> GateResult:
        statement = statement_of(sub.problem)
        ready = _prerequisites(sub, G6)
        if isinstance(ready, GateResult):
            return ready
        deps = [v for b in ready if (v := b.vo)]
        trusted = build(sub, TRUSTED, trusted_source(statement, sub.track, "unused"), deps)
        if trusted.vo is None:
            return GateResult(*G6, GateStatus.FAILED, _mismatch(statement, trusted), _run_evidence(trusted))
        files = {p.name: p.read_bytes() for p in [*deps, trusted.vo]}
        argv = ["coqchk", "-silent", "-o", "-Q", ".", ROOT]
        for module in (REFERENCE, CANDIDATE, TRUSTED):
            argv += ["-norec", f"{ROOT}.{module}"]
        result, _ = _sandboxed(sub, argv, files)
        evidence: dict[str, Any] = {
            "argv": argv,
            "exit_code": result.exit_code,
            "wall_seconds": round(result.wall_seconds, 3),
            "sandboxed": result.sandboxed,
            "vo_sha256": {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in [*deps, trusted.vo]},
            **kernel_bug_evidence(detected_version()),
        }
        if not result.ok:
            why = (
                f"timed out after {result.wall_seconds:.0f}s"
                if result.timed_out
                else (f"exit code {result.exit_code}: {(result.stderr or result.stdout).strip()[-400:]}")
            )
            return GateResult(*G6, GateStatus.FAILED, f"coqchk: {why}", evidence)
        if result.truncated:  # a cut-off summary could hide an axiom
            return GateResult(*G6, GateStatus.ERROR, "coqchk's output exceeded the output cap", evidence)
        sections = read_coqchk(result.stdout + "\n" + result.stderr)
        if sections is None:
            return GateResult(*G6, GateStatus.ERROR, "coqchk printed no context summary", evidence)
        evidence["axioms"] = sections.get("Axioms", [])
        problems = coqchk_problems(sections, statement)
        if problems:
            return GateResult(*G6, GateStatus.FAILED, "; ".join(problems), evidence)
        return GateResult(
            *G6,
            GateStatus.PASSED,
            f"coqchk exit code 0; {len(evidence['axioms'])} axioms in the environment, all allowed",
            evidence,
        )

    return _unavailable_or_error(G6, body)


__all__ = [
    "Built",
    "CoqMessage",
    "build",
    "compile_gate",
    "kernel_gate",
    "parse_messages",
    "read_assumptions",
    "read_coqchk",
    "statement_gate",
    "trusted_source",
]
