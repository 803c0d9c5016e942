"""What the head sends a node and what it takes back: the pinned task, the node's result, and the head's
own checks of it (``Request.checked``).

A node is trusted for what only it ran: the compile and kernel gates (G4-G6, and G7's request) and the
answer check, on the toolchain whose fingerprint it shares with the head. Nothing else it says is
taken as it comes:

- every input hash anywhere in its verdict (the verdict's and each gate's evidence: candidate,
  statement, challenge, benchmark) must be the hash of what the head sent, as the head computes it;
- problem, prover, profile, track and the gates the profile requires must be what was asked;
- the text gates G1-G3 are run again at the head, on the bytes it sent, and replace the node's; a node
  whose text gates disagree with the head's is refused (no further task) and its verdict is an error,
  or the head's rejection when the head's own gates failed; the candidate's and the official answers
  are the head's reading too, only the answer check is the node's (kept as the node ran it: a ``differs``
  there makes the verdict ``disputed``);
- a node that calls the input no candidate at all (empty, not UTF-8) is held to the head's own reading
  of it (``input_error_checked``);
- the verdict records the node (``ran_on``: node id, host, toolchain, and the gates the head re-ran);
  everything else it records (the benchmark's record, ``cached``, the candidate's label, the rules lifted)
  is the head's own account, never the node's (``NODE_OWNED``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from putnam_solver.core.answer_check import unknown
from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.provers import Prover
from putnam_solver.core.util import sha256_hex
from putnam_solver.core.verify import (
    TEXT_GATES,
    GateResult,
    GateStatus,
    Profile,
    Track,
    Verdict,
    VerifyOptions,
    decode_candidate,
    gate_ids,
    run_gates,
)
from putnam_solver.kits.interactive import ProofState
from putnam_solver.kits.sessions import CheckOutcome

DISPATCH_GATE = "D0"
"""The pseudo-gate of a verdict the cluster could not produce (it is an ``error``, never a pass)."""
INPUT_HASHES = ("candidate_sha256", "statement_sha256", "challenge_sha256", "benchmark_sha256")
"""Hashes of what the head sent, wherever they appear in a node's verdict."""


@dataclass(frozen=True)
class PinnedTask:
    """Everything a node is sent for one verification; nothing the node could not check itself."""

    kind: str
    """``verify`` (``run_gates``), ``check`` (``check_file``, cold) or ``goals`` (``proof_state``, a
    session for this task only)."""
    prover: str
    benchmark_name: str
    benchmark_path: str
    benchmark_sha256: str
    benchmark_pin: str | None
    problem: str
    candidate: bytes
    track: Track
    options: VerifyOptions
    label: str
    expected_toolchain: str
    line: int = 0
    """For ``goals``: the line whose proof state is asked."""


@dataclass(frozen=True)
class NodeResult:
    """What a node returns: its identity, its toolchain fingerprint, and the outcome (or why none)."""

    node_id: str
    hostname: str
    toolchain: str
    outcome: Verdict | CheckOutcome | ProofState | str | None = None
    """A verdict, a check, or a proof state (a ``str`` says why there is none)."""
    refused: str | None = None
    """The node would not run the task: another toolchain, or no copy of the pinned benchmark."""
    input_error: str | None = None
    """The candidate is not a candidate at all (empty, not UTF-8): the caller's InputError."""


@dataclass(frozen=True)
class Request:
    """One verification as the head holds it; what is sent (``pinned``) and what is accepted back
    (``checked``) are both derived from it."""

    kind: str
    prover: Prover
    benchmark: Benchmark
    problem: Problem
    data: bytes
    track: Track
    options: VerifyOptions
    label: str
    line: int = 0

    def pinned(self, expected_toolchain: str) -> PinnedTask:
        bench = self.benchmark
        return PinnedTask(
            self.kind, self.prover.name, bench.path.name, str(bench.path), bench.sha256, bench.pin_name,
            self.problem.id, self.data, self.track, self.options, self.label, expected_toolchain, self.line,
        )  # fmt: skip

    def checked(
        self, result: NodeResult, lost: list[dict[str, str]]
    ) -> Verdict | CheckOutcome | ProofState | str | NodeDisagrees:
        """The node's outcome, with where it ran, if its verdict is about exactly what was sent and agrees
        with the head's own text gates (the module's docstring); else an error verdict, or
        ``NodeDisagrees`` (the node is not to be used again). A proof state is the agent's to read,
        never a verdict, and is passed on as it is."""
        outcome = result.outcome
        if self.kind == "goals":
            if isinstance(outcome, (ProofState, str)):
                return outcome
            return self.undecided(f"node {result.hostname} returned {type(outcome).__name__}, not a proof state", {})
        verdict = outcome.verdict if isinstance(outcome, CheckOutcome) else outcome
        expected_kind = CheckOutcome if self.kind == "check" else Verdict
        ran_on = {
            "backend": "ray",
            "node_id": result.node_id,
            "hostname": result.hostname,
            "toolchain": result.toolchain,
            **({"lost_attempts": lost} if lost else {}),
        }
        if not isinstance(outcome, expected_kind) or not isinstance(verdict, Verdict):
            why = f"node {result.hostname} returned {type(outcome).__name__}, not a {expected_kind.__name__}"
            return self.undecided(why, ran_on)
        reference = self.undecided("", {})
        wanted = {**reference.to_json(), "expected_gates": list(reference.expected_gates)}
        got = {**verdict.to_json(), "expected_gates": list(verdict.expected_gates)}
        differ = sorted(k for k in SAME_AS_SENT if got.get(k) != wanted[k])
        if differ:
            why = f"node {result.hostname} returned a verdict on other inputs ({', '.join(differ)} differ)"
            return self.undecided(why, ran_on)
        return self._head_checked(outcome, verdict, result, ran_on)

    def input_error_checked(self, result: NodeResult) -> NodeDisagrees:
        """A node's claim that the input is no candidate at all (``NodeResult.input_error``), held against
        the head's own reading of the same bytes and pinned record: raises the head's InputError when it
        agrees, else the node disagrees (its claim would turn a sound proof into a refusal nobody re-ran:
        an audit under ``--ray`` records such a pass as rejected)."""
        decode_candidate(self.label, self.data)  # raises the head's own InputError when it agrees
        self.prover.challenge(self.problem, self.track)
        claim = str(result.input_error)[:300]
        why = f"node {result.hostname} called the input unusable, which the head reads as a candidate: {claim}"
        ran_on = {"node_id": result.node_id, "hostname": result.hostname, "toolchain": result.toolchain}
        return NodeDisagrees(self.undecided(why, {**ran_on, "disagreed": why}), why)

    def _head_checked(
        self, outcome: Verdict | CheckOutcome, verdict: Verdict, result: NodeResult, ran_on: dict[str, Any]
    ) -> Verdict | CheckOutcome | NodeDisagrees:
        """The node's outcome with G1-G3 and the answers as the head computes them, or why it is not
        taken (see the module's docstring)."""
        sent = self.undecided("", {}).to_json()
        foreign = sorted(set(foreign_hashes(verdict.to_json(), {k: sent[k] for k in INPUT_HASHES})))
        if foreign:
            why = f"node {result.hostname} returned hashes of inputs it was not sent ({', '.join(foreign)})"
            return NodeDisagrees(self.undecided(why, ran_on), why)
        head = self._head_text_gates()
        ours = {g.id: g for g in head.gates}
        differ = [g.id for g in verdict.gates if g.id in ours and g.status is not ours[g.id].status]
        if differ:
            shown = ", ".join(f"{g}: node {_status(verdict, g)}, head {ours[g].status.value}" for g in differ)
            why = f"node {result.hostname} disagrees with the head's own text gates ({shown})"
            judged = head if not head.accepted else self.undecided(why, ran_on)
            judged.ran_on = {**ran_on, "disagreed": why}
            return NodeDisagrees(judged, why)
        verdict.gates = [*head.gates, *(g for g in verdict.gates if g.id not in TEXT_GATES)]
        verdict.answers = {name: _answer(verdict.answers.get(name), mine) for name, mine in head.answers.items()}
        verdict.ran_on = {**ran_on, "head_checked": [g.id for g in head.gates]}
        # the rest is the head's own account (red team 16): the record of its benchmark, whether a cache
        # answered, the candidate's label; a field added to Verdict later is the head's too unless listed
        own = dataclasses.replace(self.undecided("", {}), benchmark=head.benchmark)
        for name in (f.name for f in dataclasses.fields(Verdict) if f.name not in NODE_OWNED):
            setattr(verdict, name, getattr(own, name))
        return outcome

    def _head_text_gates(self) -> Verdict:
        """G1-G3 run here on the bytes sent, under the rules of the profile the node was asked for."""
        options = dataclasses.replace(
            self.options, profile=Profile.TEXT, axle=False, acceptance=self.options.acceptance or self.options.profile
        )
        return run_gates(self.prover, self.benchmark, self.problem, self.data, self.track, options, self.label)

    def verdict_of(self, outcome: Verdict | CheckOutcome | ProofState | str) -> Verdict:
        """The verdict an outcome holds; an error verdict when it holds none."""
        if isinstance(outcome, CheckOutcome):
            return outcome.verdict
        if isinstance(outcome, Verdict):
            return outcome
        return self.undecided(f"the cluster answered with {type(outcome).__name__}, not a verdict", {})

    def undecided(self, why: str, evidence: dict[str, Any]) -> Verdict:
        """An ``error`` verdict for a candidate the cluster could not judge: never a pass or a rejection."""
        prover, problem, options = self.prover, self.problem, self.options
        return Verdict(
            problem=problem.id,
            prover=prover.name,
            track=self.track,
            profile=options.profile,
            gates=[GateResult(DISPATCH_GATE, "dispatch", GateStatus.ERROR, why, evidence)],
            expected_gates=gate_ids(options),
            candidate_sha256=sha256_hex(self.data),
            statement_sha256=problem.statement_sha256,
            challenge_sha256=sha256_hex(prover.challenge(problem, self.track).encode("utf-8")),
            benchmark_sha256=self.benchmark.sha256,
            benchmark_pinned=self.benchmark.pinned,
            candidate_path=self.label,
            unsafe_no_sandbox=options.unsafe_no_sandbox,
            allow_recursion=options.recursion_allowed,
            ran_on={"backend": "ray", **evidence},
        )


SAME_AS_SENT = (
    "problem",
    "prover",
    "profile",
    "track",
    "expected_gates",
    "candidate_sha256",
    "statement_sha256",
    "challenge_sha256",
    "benchmark_sha256",
    "benchmark_pinned",
    "unsafe_no_sandbox",
    "allow_recursion",
)
"""What a node's verdict must share with the head's own account of the inputs it sent, the rules it lifted
among them: a node that says it judged with a rule lifted or held other than the head asked judged other
settings (a node saying the rule held hid ``confirmed only with --allow-recursion`` beside an audit's count)."""
NODE_OWNED = ("gates", "answers", "ran_on")
"""The only fields of a node's verdict the head keeps (its gates past G3, its answer checks, where it ran: each
merged with the head's own by ``Request._head_checked``); every other field is the head's."""


@dataclass(frozen=True)
class NodeDisagrees:
    """A node's verdict the head's own checks contradict: ``verdict`` is what the caller gets (the head's
    rejection, or an error), and the node gets no further task."""

    verdict: Verdict
    why: str


def foreign_hashes(value: Any, sent: dict[str, str], where: str = "") -> Iterator[str]:
    """Where in a verdict's JSON an input hash (``INPUT_HASHES``) is not the one of what was sent."""
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{where}.{key}" if where else str(key)
            if key in sent and item != sent[key]:
                yield here
            yield from foreign_hashes(item, sent, here)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            yield from foreign_hashes(item, sent, f"{where}[{n}]")


def _answer(node: object, head: dict[str, Any]) -> dict[str, Any]:
    """One answer as the verdict records it: the candidate's and the official answers as the head read
    them, the answer check as the node ran it. The head's own record holds a check too (its text-profile
    run says the check runs only with the full profile), which must not stand for the node's: a node's
    ``differs`` is what makes the verdict ``disputed``. A node that recorded no check leaves it
    ``unknown``, never settled, so the verdict is not cached (``cache.reusable``)."""
    check = node.get("check") if isinstance(node, dict) else None
    if not isinstance(check, dict):
        check = unknown(NO_NODE_CHECK).to_json()
    return {**{k: v for k, v in head.items() if k != "check"}, "check": check}


NO_NODE_CHECK = "the node that ran the gates recorded no answer check"


def _status(verdict: Verdict, gate_id: str) -> str:
    return next((g.status.value for g in verdict.gates if g.id == gate_id), "missing")
