"""Interactive checking for the agent's tools: warm checker sessions, proof states and lemma holes.

What lives here never decides acceptance. ``submit`` and ``putnam verify`` always run the cold gates of
``verify``; this module only makes the agent's own ``check`` faster and lets it ask for the proof state
at a line. Each prover contributes its piece behind the ``Interactive`` protocol (``Prover.interactive``):
how to start a session with a file's imports loaded (``coqtop`` with the ``Require``s done, a
``lean --server`` with the header elaborated), how to compile a whole file in it, how to read the proof
state at the end of a line, and how to find the helper declarations a file left as holes.

Every session is a ``sandbox.SandboxSession``: the same sandbox and caps as a gate's compile, a deadline
on every exchange, and a session that misbehaves (dies, floods, times out, answers out of protocol) is
closed and never reused. A session serves one exchange at a time and at most ``max_uses`` of them, then
is replaced; sessions are keyed by the exact import header and toolchain, so two files share a session
only when a cold compile would load the same libraries for both.

Failing closed: a compile result here is ``passed`` only when the session ran the whole file and reported
no error; anything else is ``failed`` (an error the tool reported) or ``error`` (it could not tell). A
``NotWarm`` answer sends the caller back to the cold gates.
"""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from putnam_solver.core.gatekit import ToolUnavailable
from putnam_solver.core.sandbox import SandboxUnavailable
from putnam_solver.core.verify import (
    GateResult,
    GateStatus,
    Profile,
    Verdict,
    VerifyOptions,
    gate_ids,
    run_gates,
)
from putnam_solver.kits.interactive import (
    DEFAULT_MAX_SESSIONS,
    DEFAULT_MAX_USES,
    ColdOnly,
    Compiled,
    Hole,
    Interactive,
    Message,
    NotWarm,
    ProofSession,
    ProofState,
    Searching,
    SearchingSession,
    T,
)
from putnam_solver.kits.kit import get_kit
from putnam_solver.kits.sandbox_session import SessionError, SessionTimeout

if TYPE_CHECKING:
    from putnam_solver.core.benchmark import Benchmark, Problem
    from putnam_solver.core.provers import Prover
    from putnam_solver.core.verify import Track


@dataclass
class _Idle:
    key: str
    session: ProofSession
    scratch: Path


class SessionPool:
    """Warm sessions per key, each serving one exchange at a time, at most ``max_uses`` exchanges.

    ``reuse=False`` makes every exchange start and end its own session (warm checking off: the same code
    path, none of the reuse). Thread-safe; ``close`` stops every session.
    """

    def __init__(
        self, max_sessions: int = DEFAULT_MAX_SESSIONS, max_uses: int = DEFAULT_MAX_USES, reuse: bool = True
    ) -> None:
        if max_sessions < 1 or max_uses < 1:
            raise ValueError("a session pool needs at least one session and one use per session")
        self.max_sessions = max_sessions
        self.max_uses = max_uses
        self.reuse = reuse
        self._cond = threading.Condition()
        self._idle: list[_Idle] = []
        self._busy = 0
        self._closed = False
        self.started = 0
        self.reused = 0

    def run(
        self,
        interactive: Interactive,
        problem: Problem,
        challenge: str,
        options: VerifyOptions,
        use: Callable[[ProofSession], T],
    ) -> T:
        """``use(session)`` on a session for ``challenge`` (an idle one with the same key, else a new
        one). A session whose exchange raised SessionError is closed, never returned to the pool."""
        key = interactive.session_key(problem, challenge, options)
        entry = self._acquire(key)
        if entry is None:
            scratch = Path(tempfile.mkdtemp(prefix="putnam-session-"))
            try:
                session = interactive.open_session(problem, challenge, options, scratch)
            except BaseException:
                shutil.rmtree(scratch, ignore_errors=True)
                self._release(None)
                raise
            entry = _Idle(key, session, scratch)
            with self._cond:
                self.started += 1
        broken = True
        try:
            result = use(entry.session)
            broken = False
            return result
        except NotWarm:
            broken = False
            raise
        finally:
            entry.session.uses += 1
            keep = self.reuse and not broken and entry.session.alive and entry.session.uses < self.max_uses
            self._release(entry if keep else None, closing=None if keep else entry)

    def close(self) -> None:
        """Stop every idle session; sessions in use stop when their exchange ends."""
        with self._cond:
            self._closed = True
            idle, self._idle = self._idle, []
            self._cond.notify_all()
        for entry in idle:
            _stop(entry)

    def _acquire(self, key: str) -> _Idle | None:
        """An idle session with ``key`` (None: the caller starts one; a slot is reserved for it)."""
        with self._cond:
            while True:
                if self._closed:
                    raise SessionError("the session pool is closed")
                for i, entry in enumerate(self._idle):
                    if entry.key == key:
                        self._busy += 1
                        self.reused += 1
                        return self._idle.pop(i)
                if self._busy + len(self._idle) < self.max_sessions:
                    self._busy += 1
                    return None
                if self._idle:  # every slot is taken: the least recently used idle session makes room
                    victim = self._idle.pop(0)
                    self._busy += 1
                    break
                self._cond.wait()
        _stop(victim)
        return None

    def _release(self, keep: _Idle | None, closing: _Idle | None = None) -> None:
        if closing is not None:
            _stop(closing)
        with self._cond:
            self._busy -= 1
            if keep is not None and not self._closed:
                self._idle.append(keep)
                keep = None
            self._cond.notify_all()
        if keep is not None:
            _stop(keep)


def _stop(entry: _Idle) -> None:
    try:
        entry.session.close()
    finally:
        shutil.rmtree(entry.scratch, ignore_errors=True)


def refused_for_holes(forbidden: GateResult, holes: frozenset[str]) -> bool:
    """Whether G3 failed and every violation it lists (``gatekit.text_gate_result``'s evidence) is one of
    the prover's ``holes`` (``sorry``, ``Admitted``): a draft, which may still be compiled."""
    violations = forbidden.evidence.get("violations")
    if forbidden.status is not GateStatus.FAILED or not isinstance(violations, list) or not violations:
        return False
    return all(isinstance(v, dict) and str(v.get("construct", "")).strip("`") in holes for v in violations)


def line_count(text: str) -> int:
    """Lines of a file as an editor numbers them (a final newline starts no new line)."""
    return max(1, len(text.splitlines()))


def outside(text: str, line: int) -> ProofState | None:
    """The answer for a line outside the file, or None when ``line`` is in it."""
    count = line_count(text)
    if 1 <= line <= count:
        return None
    return ProofState(line, None, (), f"line {line} is outside the file (lines 1 to {count})")


def deadline(timeout: float) -> float:
    """A ``time.monotonic()`` deadline ``timeout`` seconds from now."""
    return time.monotonic() + timeout


@dataclass(frozen=True)
class CheckOutcome:
    """The agent's ``check`` of one file: the verdict of profile ``fast`` (never an acceptance), how G4
    was decided (``warm``), and for a file refused only for its holes, the compile of that draft and the
    holes left."""

    verdict: Verdict
    warm: bool = False
    draft: Compiled | None = None
    holes: tuple[Hole, ...] = ()
    suggestions: tuple[Message, ...] = ()
    """What the prover's search tactics found (Lean's ``exact?``, ``apply?``, ``rw?``, ``simp?``,
    ``hint``: "Try this: ..."), for the model to paste in; never part of the verdict."""


SUGGESTION = "Try this"
MAX_SUGGESTIONS = 8


def suggestions(messages: Iterable[Message]) -> tuple[Message, ...]:
    """The information messages of a compile that suggest a replacement, in order, at most a few."""
    return tuple(m for m in messages if m.severity == "info" and SUGGESTION in m.text)[:MAX_SUGGESTIONS]


def check_file(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    candidate: str,
    track: Track,
    options: VerifyOptions,
    pool: SessionPool | None,
    label: str = "<candidate>",
    warm: bool = True,
) -> CheckOutcome:
    """The ``fast`` profile on ``candidate``, with G4 in a warm session where one can decide it.

    The text gates run exactly as in ``run_gates`` (so a check never refuses what the acceptance would
    accept, nor passes what it refuses); G4 is the session's compile of the same bytes. The cold gates
    decide instead when ``warm`` is off, there is no pool or interactive piece, the file must go cold
    (``NotWarm``) or the session broke; a session that ran out of time is a G4 ``error``, as a cold
    timeout is. A file whose only refusal is its holes (``sorry``, ``Admitted`` in G3) is compiled as a
    draft in a session of ``pool`` (warm or not), to report what else is wrong and which holes remain.
    """
    interactive = get_kit(prover.name).interactive()
    data = candidate.encode("utf-8")

    def cold() -> CheckOutcome:
        return CheckOutcome(run_gates(prover, benchmark, problem, data, track, options, label))

    if pool is None or interactive is None or options.profile is not Profile.FAST:
        return cold()
    text = run_gates(prover, benchmark, problem, data, track, dataclasses.replace(options, profile=Profile.TEXT), label)
    challenge = prover.challenge(problem, track)
    failed = [g for g in text.gates if not g.passed]
    fast = dataclasses.replace(text, profile=Profile.FAST, expected_gates=gate_ids(options))
    if failed:
        holes = tuple(interactive.holes(challenge, candidate))
        draftable = holes and len(failed) == 1 and failed[0].id == "G3" and interactive.only_holes(failed[0])
        if not draftable:
            return CheckOutcome(fast, holes=holes)
        try:
            draft = pool.run(
                interactive, problem, challenge, options, lambda s: s.compile(candidate, options.timeout_seconds)
            )
        except (NotWarm, SessionError, ToolUnavailable, SandboxUnavailable):
            return CheckOutcome(fast, holes=holes)
        return CheckOutcome(fast, pool.reuse, draft, holes, suggestions(draft.messages))
    if not warm or (isinstance(interactive, ColdOnly) and interactive.cold_only(problem, track, options)):
        return cold()
    try:
        compiled = pool.run(
            interactive, problem, challenge, options, lambda s: s.compile(candidate, options.timeout_seconds)
        )
    except SessionTimeout as exc:
        compiled = Compiled(GateStatus.ERROR, f"{exc}; not a verdict on the candidate", evidence={"warm": True})
    except (NotWarm, SessionError, ToolUnavailable, SandboxUnavailable):
        return cold()
    g4 = GateResult("G4", "compile", compiled.status, compiled.detail, compiled.evidence)
    return CheckOutcome(
        dataclasses.replace(fast, gates=[*fast.gates, g4]), warm=True, suggestions=suggestions(compiled.messages)
    )


def proof_state(
    prover: Prover,
    benchmark: Benchmark,
    problem: Problem,
    candidate: str,
    line: int,
    track: Track,
    options: VerifyOptions,
    pool: SessionPool,
) -> ProofState | str:
    """The proof state at the end of ``line`` of ``candidate``, from a session of ``pool``.

    The file reaches a session only when G3 finds nothing forbidden in it but holes (a proof state is
    asked of unfinished files); otherwise the answer is G3's refusal, as text. When no session can
    answer, the text says why: it is the agent's ``goals`` answer either way, and what a cluster node
    returns (exceptions do not cross the cluster).
    """
    interactive = get_kit(prover.name).interactive()
    if interactive is None:
        return f"no proof state: the {prover.label} prover offers no proof states"
    text_options = dataclasses.replace(options, profile=Profile.TEXT)
    text = run_gates(prover, benchmark, problem, candidate.encode("utf-8"), track, text_options)
    forbidden = next((g for g in text.gates if g.id == "G3"), None)
    if forbidden is None or not (forbidden.passed or interactive.only_holes(forbidden)):
        why = forbidden.detail if forbidden is not None else "the forbidden-construct gate did not run"
        return f"the file is refused before any proof state is computed (G3): {why}"
    challenge = prover.challenge(problem, track)
    try:
        return pool.run(
            interactive, problem, challenge, options, lambda s: s.goals(candidate, line, options.timeout_seconds)
        )
    except (NotWarm, SessionError, ToolUnavailable, SandboxUnavailable) as exc:
        return f"no proof state: {exc}"


def library_search(
    prover: Prover,
    problem: Problem,
    track: Track,
    options: VerifyOptions,
    pool: SessionPool,
    command: str,
    query: str,
) -> str:
    """The prover's own search (``Searching``) for ``query``, in a warm session with the problem's imports
    and the statement's preamble; a refused query or a session that cannot answer is the answer's text."""
    interactive = get_kit(prover.name).interactive()
    if not isinstance(interactive, Searching):
        return f"the {prover.label} prover offers no library search command here"
    try:
        sentence = interactive.search_sentence(command, query)
    except ValueError as exc:
        return f"refused: {exc}"
    challenge = prover.challenge(problem, track)
    preamble = interactive.preamble(challenge, track)

    def search(session: ProofSession) -> str:
        if not isinstance(session, SearchingSession):
            raise NotWarm("this session cannot search")
        return session.search(preamble, sentence, options.timeout_seconds)

    try:
        return pool.run(interactive, problem, challenge, options, search)
    except (NotWarm, SessionError, ToolUnavailable, SandboxUnavailable) as exc:
        return f"the search could not run: {exc}"


__all__ = [
    "CheckOutcome",
    "SessionPool",
    "check_file",
    "deadline",
    "library_search",
    "line_count",
    "outside",
    "proof_state",
    "refused_for_holes",
]
