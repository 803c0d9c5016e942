"""The gate pipeline: turn a candidate file into a Verdict.

A Verdict is computed by the harness alone, from the pinned benchmark record, the candidate's bytes and
the exit codes and files of tools run by the provers. This module is pure orchestration: it decides which
gates of a prover run for a profile, runs them in order and folds their results into a Verdict. It never
looks at the candidate's content itself, so it has nothing a candidate could influence except the
results the gates return. What the compiled gates declare they need (``Gate.needs``, ``artifacts``) is
started when they begin, so independent tool runs overlap; their results are still folded in order.

Fail closed: a gate that raises, or reports anything other than ``passed``, keeps the candidate from
being accepted.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from putnam_solver.core import text_gates
from putnam_solver.core.answer_check import AnswerCheck, unknown
from putnam_solver.core.artifacts import Artifacts
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.submission import Gate, GateCheck, ScratchDir, Submission, VerifyOptions, run_gate
from putnam_solver.core.util import InputError, sha256_hex
from putnam_solver.core.verdict import (
    AXLE_GATE,
    DEFAULT_MAX_CANDIDATE_BYTES,
    DEFAULT_TEXT_GATE_SECONDS,
    PROFILE_GATES,
    TEXT_GATES,
    GateResult,
    GateStatus,
    Profile,
    Track,
    Verdict,
)

# the pipeline's public names, with the types of ``submission`` and ``verdict`` its callers use (one import)
__all__ = [
    "AXLE_GATE",
    "DEFAULT_MAX_CANDIDATE_BYTES",
    "DEFAULT_TEXT_GATE_SECONDS",
    "PROFILE_GATES",
    "TEXT_GATES",
    "Gate",
    "GateCheck",
    "GateResult",
    "GateStatus",
    "Profile",
    "ScratchDir",
    "Submission",
    "Track",
    "Verdict",
    "VerifyOptions",
    "decode_candidate",
    "gate_ids",
    "provenance_gate",
    "provenance_gate_def",
    "run_gate",
    "run_gates",
    "size_gate",
    "toolchain_match",
    "unusable_verdict",
    "verdict_benchmark",
]

if TYPE_CHECKING:
    from putnam_solver.core.provers import Prover


def gate_ids(options: VerifyOptions) -> tuple[str, ...]:
    """The gates a profile requires, in the order they run."""
    ids = PROFILE_GATES[options.profile]
    return (*ids, AXLE_GATE) if options.axle else ids


def provenance_gate(sub: Submission) -> GateResult:
    """G1: the statement bytes are the pinned ones, and the challenge was derived here from them."""
    problem, bench = sub.problem, sub.benchmark
    actual = sha256_hex(problem.formal_statement.encode("utf-8"))
    evidence: dict[str, Any] = {
        "statement_sha256": actual,
        "challenge_sha256": sha256_hex(sub.challenge.encode("utf-8")),
        "benchmark": str(bench.path),
        "benchmark_sha256": bench.sha256,
        "benchmark_pin": bench.pin_name,
    }
    if problem.declared_sha256 is not None and problem.declared_sha256 != actual:
        hashes = (
            f" to {actual}, the record declares {problem.declared_sha256}" if sub.track is Track.WITH_ANSWER else ""
        )
        detail = f"statement of {problem.id} does not hash to the SHA-256 its record declares{hashes}"
        return GateResult("G1", "provenance", GateStatus.FAILED, detail, evidence)
    pin = f"pinned as {bench.pin_name}" if bench.pinned else "UNPINNED benchmark (no SHA-256 pin)"
    # on no-answer the record holds the official answer: a model shown its hash could hash guesses
    # until one matches (a yes/no or small-number answer falls at once), so no detail names it there
    named = f"statement {actual[:12]}" if sub.track is Track.WITH_ANSWER else "statement as pinned"
    return GateResult("G1", "provenance", GateStatus.PASSED, f"{named}; {pin}", evidence)


def decode_candidate(path_label: str, data: bytes) -> str:
    """Candidates are UTF-8 text; anything else is the user's input error, not a rejection."""
    if not data.strip():
        raise InputError(f"{path_label}: the candidate file is empty; write the whole proof file there")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(
            f"{path_label}: not UTF-8 text (byte {exc.start}: {exc.reason}); save the file as UTF-8"
        ) from exc


def unusable_verdict(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    candidate_bytes: bytes,
    track: Track,
    options: VerifyOptions,
    reason: str,
) -> Verdict:
    """The verdict of a file that cannot be a candidate (unreadable, empty, not UTF-8, over the cap):
    an ``error`` whose one gate, G0, says why; no other gate looks at it."""
    gates = [GateResult("G0", "input", GateStatus.ERROR, reason)]
    challenge = prover.challenge(problem, track)
    return _verdict(prover, benchmark, problem, candidate_bytes, challenge, track, options, gates, {})


def size_gate(candidate_bytes: bytes, options: VerifyOptions) -> GateResult | None:
    """A refusal when the candidate is over the size cap (no gate then looks at it), else None."""
    size, cap = len(candidate_bytes), options.max_candidate_bytes
    if size <= cap:
        return None
    return GateResult(
        "G0",
        "size",
        GateStatus.FAILED,
        f"the candidate is {size} bytes, over the cap of {cap} bytes; no gate looked at it "
        "(raise the cap with --max-candidate-bytes if the proof really is this long)",
        {"candidate_bytes": size, "max_candidate_bytes": cap},
    )


def run_gates(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    candidate_bytes: bytes,
    track: Track,
    options: VerifyOptions,
    candidate_label: str = "<candidate>",
) -> Verdict:
    """Verify one candidate against one pinned problem and return the Verdict.

    Text gates always all run, so a rejection lists every textual problem at once, each under a time
    bound. A candidate over the size cap is refused before any gate sees it. A gate that compiles
    or calls out runs only while everything before it passed (unless ``keep_going``): there is no point
    in, and some risk to, compiling a file the text gates already rejected.
    """
    oversized = size_gate(candidate_bytes, options)
    candidate = "" if oversized else decode_candidate(candidate_label, candidate_bytes)
    challenge = prover.challenge(problem, track)
    wanted = gate_ids(options)
    gates: Sequence[Gate] = [provenance_gate_def, *prover.gates()]
    by_id = {g.id: g for g in gates}
    missing = [g for g in wanted if g not in by_id]
    results: list[GateResult] = [
        GateResult(g, g, GateStatus.UNAVAILABLE, f"prover {prover.name} has no gate {g}") for g in missing
    ]
    if oversized:
        results.append(oversized)
        wanted_now: tuple[str, ...] = ()
    else:
        wanted_now = wanted
    scratch = ScratchDir(prefix=f"putnam-{problem.id}-")
    artifacts = Artifacts()

    def submission(prior: Sequence[GateResult] | None = None) -> Submission:
        return Submission(
            problem=problem,
            benchmark=benchmark,
            track=track,
            candidate_bytes=candidate_bytes,
            candidate=candidate,
            challenge=challenge,
            scratch_dir=scratch,
            options=options,
            prior=tuple(results if prior is None else prior),
            artifacts=artifacts,
        )

    job = text_gates.TextJob(
        prover,
        tuple(by_id[g] for g in wanted_now if g in TEXT_GATES and g in by_id),
        problem,
        replace(benchmark, problems={problem.id: problem}),
        track,
        candidate_bytes,
        candidate,
        challenge,
        options,
        tuple(results),
    )
    answers: dict[str, Any] = {}
    try:
        if not oversized:
            done, answers = text_gates.run_text_gates(job)
            results += done
        compiled = [g for gate_id in wanted_now if gate_id not in TEXT_GATES and (g := by_id.get(gate_id))]
        if options.keep_going or all(r.passed for r in results):
            _start_needs(compiled, submission())
        for gate_id in wanted_now:
            gate = by_id.get(gate_id)
            if gate is None or gate_id in TEXT_GATES:
                continue
            blocked = any(not r.passed for r in results)
            if blocked and not options.keep_going:
                break
            results.append(run_gate(gate, submission()))
        for name, check in _answer_checks(prover, submission(), answers).items():
            answers[name]["check"] = check.to_json()
    except (KeyboardInterrupt, SystemExit):
        artifacts.abandon()  # the process is stopping: a producer's compile must not keep it alive
        raise
    finally:
        artifacts.close()
        scratch.cleanup()
    return _verdict(
        prover, benchmark, problem, candidate_bytes, challenge, track, options, results, answers, candidate_label
    )


def _start_needs(gates: Sequence[Gate], sub: Submission) -> None:
    """Start what the compiled gates about to run declare they need, so independent runs overlap."""
    for gate in gates:
        for artifact in gate.needs:
            sub.artifacts.start(artifact, sub)


def _verdict(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    candidate_bytes: bytes,
    challenge: str,
    track: Track,
    options: VerifyOptions,
    gates: list[GateResult],
    answers: dict[str, Any],
    candidate_label: str | None = None,
) -> Verdict:
    """The Verdict of ``gates`` on these inputs, with every hash derived here from them."""
    return Verdict(
        problem=problem.id,
        prover=prover.name,
        track=track,
        profile=options.profile,
        gates=gates,
        expected_gates=gate_ids(options),
        candidate_sha256=sha256_hex(candidate_bytes),
        statement_sha256=problem.statement_sha256,
        challenge_sha256=sha256_hex(challenge.encode("utf-8")),
        benchmark_sha256=benchmark.sha256,
        benchmark_pinned=benchmark.pinned,
        candidate_path=candidate_label,
        answers=answers,
        unsafe_no_sandbox=options.unsafe_no_sandbox,
        allow_recursion=options.recursion_allowed,
        benchmark=verdict_benchmark(prover, benchmark, problem, options),
    )


def verdict_benchmark(prover: Prover, benchmark: Benchmark, problem: Problem, options: VerifyOptions) -> dict[str, Any]:
    """What a verdict records of the benchmark (``Benchmark.verdict_record``) and of the toolchain: the
    release the benchmark states, the one the gates ran, and whether they differ (then said in so many
    words: a statement judged with another library than it was written for may mean something else)."""
    record = benchmark.verdict_record(problem)
    if benchmark.file is not None:
        stated = benchmark.file.toolchain
        record["toolchain"] = toolchain_match(stated.prover, stated.version, prover.toolchain_version(options))
    return record


def toolchain_match(prover: str, stated: str, used: str | None) -> dict[str, Any]:
    """The stated release against the one in use: equal, or the used one refines it (``8.16`` / ``8.16.1``)."""
    matches = used is not None and (used == stated or used.startswith(stated.rstrip(".") + "."))
    record: dict[str, Any] = {"stated": stated, "used": used, "matches": matches}
    if used is None:
        record["note"] = f"no {prover} toolchain found; the benchmark was written for {stated}"
    elif not matches:
        record["note"] = f"the benchmark was written for {prover} {stated}; judged with {used}"
    return record


def _answer_checks(prover: Prover, sub: Submission, answers: dict[str, Any]) -> dict[str, AnswerCheck]:
    """The answer check of each recorded answer (``answer_check``). It changes a verdict in one way only:
    an acceptance whose answer is proved different from the official one is ``disputed`` (``Verdict.status``).

    It runs only in an acceptance (full profile) whose candidate compiled: the agent's own checks
    must not learn from it whether an answer is the official one.
    """
    if not answers:
        return {}
    compiled = any(r.id == "G4" and r.passed for r in sub.prior)
    if sub.options.profile is not Profile.FULL or sub.options.acceptance is not None:
        why = f"the answer check runs only with the {Profile.FULL} profile"
    elif not compiled:
        why = "the candidate did not compile"
    else:
        try:
            return prover.check_answers(sub)
        except Exception as exc:  # a record, not a gate: a crash is recorded, never raised
            why = f"the answer check crashed: {type(exc).__name__}: {exc}"
    return {name: unknown(why) for name in answers}


provenance_gate_def = Gate("G1", "provenance", provenance_gate)
