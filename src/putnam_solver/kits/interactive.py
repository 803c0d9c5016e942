"""What a prover's interactive piece is (``Interactive``) and what it answers: compiles, proof states,
holes. The types only; ``sessions`` runs them in a pool for the agent's tools. Never part of acceptance.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

if TYPE_CHECKING:
    from putnam_solver.core.benchmark import Problem
    from putnam_solver.core.verify import GateResult, GateStatus, Track, VerifyOptions


T = TypeVar("T")

DEFAULT_MAX_SESSIONS = 4
"""Warm sessions kept at once. Each holds its imports in memory (a Lean session with Mathlib takes
several GB), and the agent's checks are bounded by the cores anyway."""
DEFAULT_MAX_USES = 50
"""Exchanges a session serves before it is replaced by a fresh one."""


class NotWarm(Exception):
    """This file must be checked by the cold gates (the message says why); not a verdict on it."""


@dataclass(frozen=True)
class Message:
    """One message a tool reported while checking a file (untrusted text: the file chose much of it)."""

    severity: str
    """``error``, ``warning`` or ``info``."""
    line: int | None
    column: int | None
    text: str

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line is not None else ""
        return f"{where}{self.severity}: {self.text}"


@dataclass(frozen=True)
class Compiled:
    """A whole file run through a session: ``passed`` only when it ran to the end with no error."""

    status: GateStatus
    detail: str
    messages: tuple[Message, ...] = ()
    seconds: float = 0.0
    evidence: dict[str, Any] = field(default_factory=dict)

    @property
    def errors(self) -> tuple[Message, ...]:
        return tuple(m for m in self.messages if m.severity == "error")


@dataclass(frozen=True)
class ProofState:
    """The proof state at the end of ``line``: ``goals`` is the tool's text of hypotheses and goals (None
    where no proof is open), ``messages`` the errors reported up to that line."""

    line: int
    goals: str | None
    messages: tuple[Message, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Hole:
    """A helper declaration whose proof is left as a hole (``sorry``, ``Admitted``)."""

    name: str
    line: int


class LemmaError(ValueError):
    """A lemma cannot be taken out of a file on its own; the message says why, for the model."""


class ProofSession(Protocol):
    """A warm checker holding one import header (one exchange at a time)."""

    uses: int

    @property
    def alive(self) -> bool: ...

    def compile(self, text: str, timeout: float) -> Compiled:
        """Check the whole file ``text``. Raises NotWarm (use the cold gates), SessionError (broken)."""
        ...

    def goals(self, text: str, line: int, timeout: float) -> ProofState:
        """The proof state at the end of ``line`` (1-based) of ``text``. Raises SessionError."""
        ...

    def close(self) -> None: ...


class Interactive(Protocol):
    """What a prover offers the agent beyond its gates (``Prover.interactive``)."""

    def session_key(self, problem: Problem, challenge: str, options: VerifyOptions) -> str:
        """What a session for files completing ``challenge`` is keyed by: the import header, the
        toolchain and whatever of ``problem``'s format the prover elaborates with (raises
        ToolUnavailable when the tool is missing)."""
        ...

    def open_session(self, problem: Problem, challenge: str, options: VerifyOptions, scratch: Path) -> ProofSession:
        """Start a sandboxed session with the challenge's imports loaded, elaborating as the gates do for
        ``problem``. Raises ToolUnavailable, SandboxUnavailable or SessionError (the imports did not load)."""
        ...

    def holes(self, challenge: str, candidate: str) -> list[Hole]:
        """The declarations of ``candidate`` (other than the challenge's theorem) left as holes."""
        ...

    def only_holes(self, forbidden: GateResult) -> bool:
        """Whether G3 refused the file for holes only (so a draft may still be compiled)."""
        ...

    def lemma_statement(self, challenge: str, candidate: str, name: str, track: Track) -> str:
        """A statement file for lemma ``name`` of ``candidate`` alone, in the benchmark's shape: the
        challenge's header, then the lemma with a hole for its proof. Raises LemmaError."""
        ...

    def lemma_text(self, statement: str, proved: str) -> str:
        """The part of a proved lemma file ``proved`` (completing ``statement``) to paste into a file:
        everything after the statement's header."""
        ...

    def paste_lemma(self, file: str, name: str, proved: str) -> str | None:
        """``file`` with the hole of its lemma ``name`` filled from ``proved`` (a ``lemma_text``), or None
        when ``file`` does not declare ``name`` once, as a lemma with a hole, or ``proved`` does not declare
        it with the same statement. Found by declaration (name and statement), not by layout: what
        ``file`` writes before the proof (doc comment, attributes, statement) is kept as it is."""
        ...


@runtime_checkable
class ColdOnly(Protocol):
    """An ``Interactive`` whose G4 judges some checks by more than the file's own compile (a harness file
    run after it: Lean's statement check where no G6 follows, its yes/no rule): those run the cold gates,
    so that a warm check never passes what the acceptance refuses."""

    def cold_only(self, problem: Problem, track: Track, options: VerifyOptions) -> str | None:
        """Why a check of ``problem`` on ``track`` under ``options`` must run the cold gates, or None."""
        ...


@runtime_checkable
class SearchingSession(ProofSession, Protocol):
    """A session that can run the prover's own library search."""

    def search(self, preamble: str, sentence: str, timeout: float) -> str:
        """The prover's answer to ``sentence`` after ``preamble``'s sentences. Raises SessionError."""
        ...


@runtime_checkable
class Searching(Protocol):
    """An ``Interactive`` whose sessions run the prover's own library search (Rocq's ``Search``)."""

    def search_sentence(self, command: str, query: str) -> str:
        """The one command ``command query`` as the prover reads it; raises ValueError (the message is
        the model's answer) for a query that could do more than search."""
        ...

    def preamble(self, challenge: str, track: Track) -> str:
        """What of ``challenge`` a search runs after (scopes and definitions the statement opens)."""
        ...
