"""The rows a run ledger holds (``putnam_solver.run.ledger``), and how a row is read back from SQLite.

A ledger is evidence that anyone may hand over, edited with plain ``sqlite3``: SQLite stores whatever a
column is given (text in an INTEGER column, any text as a problem id). So every row is checked as it is
read: a problem id must be an id (the benchmark's grammar, ``IDENTIFIER``), a campaign or row number an
integer, a JSON column bounded JSON (``bounded_json``) of the expected shape. A ledger that fails a
check is refused whole (``LedgerError``, exit code 2): nothing of it becomes a path, nothing is confirmed.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from putnam_solver import bounded_json
from putnam_solver.core.benchmark import ID_RULE, IDENTIFIER
from putnam_solver.core.untrusted import MalformedFlag, stored_flag
from putnam_solver.core.util import InputError
from putnam_solver.exit_codes import ExitCode

MAX_COLUMN_BYTES = 64 << 20
"""The largest JSON column read back (a verdict with every gate's capped detail is far smaller)."""


INTERRUPTED = "interrupted"
"""The status of an attempt stopped by an interruption: no outcome, run again on ``--resume``."""
IN_FLIGHT = "in flight: what it has spent by its last model call (replaced by its outcome when recorded)"
"""The error of the ``interruptions`` row that holds an attempt's spend while it runs (``Ledger.record_spend``)."""
LOST = "lost with the harness (kill -9, a crash) before its outcome was recorded: what it spent by its last model call"
"""The error of such a row left by a process that ended without recording the attempt: its spend was real."""


class LedgerError(Exception):
    """The ledger cannot be used (wrong schema, unreadable, disk full). The message says what to do."""


@dataclass(frozen=True)
class ProblemRow:
    id: str
    statement_sha256: str
    challenge: str
    challenge_sha256: str


@dataclass(frozen=True)
class CampaignRow:
    number: int
    fresh: bool
    started_at: str
    finished_at: str | None
    problems: tuple[str, ...]

    @property
    def finished(self) -> bool:
        return self.finished_at is not None


@dataclass(frozen=True)
class AttemptRow:
    """One stored attempt with its verdict (``verdict`` is the stored ``Verdict.to_json()``)."""

    id: int
    campaign: int
    problem: str
    status: str
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    candidate: str | None
    candidate_sha256: str | None
    reviewer_feedback: str | None
    error: str | None
    transcript: str | None
    verdict: dict[str, Any] | None
    recorded_at: str = ""
    sample: int = 1
    """Which of the campaign's independent samples of the problem this is (``putnam solve --samples``)."""

    @property
    def verdict_status(self) -> str:
        return str(self.verdict["status"]) if self.verdict else ""

    @property
    def verified_pass(self) -> bool:
        """Passed, and the stored accepted verdict is for exactly the stored candidate bytes."""
        if self.status != "passed" or self.candidate is None or self.verdict is None:
            return False
        actual = sha256_text(self.candidate)
        return (
            self.verdict.get("status") == "accepted"
            and self.verdict.get("candidate_sha256") == actual
            and self.candidate_sha256 == actual
        )


@dataclass(frozen=True)
class AuditRow:
    """One re-verification of a stored pass (``putnam audit``): its verdict, afresh, on this toolchain.

    ``toolchain_changed``: the toolchain fingerprint differed from the run's and the user allowed it."""

    id: int
    attempt_id: int
    audited_at: str
    status: str
    candidate_sha256: str
    toolchain: str
    benchmark_sha256: str
    toolchain_changed: bool
    verdict: dict[str, Any]
    own: bool = True
    """Written by this account's ``putnam audit`` (its seal checks, ``audit_seal``): only such a row counts as
    an audit; any other is history."""

    def confirms(self, attempt: AttemptRow) -> bool:
        """Whether this audit accepted ``attempt``: exactly its stored bytes, as a proof of its problem. The
        seal binds the attempt's id, not the attempt row: an attempt relabelled with another problem kept
        its audit, so a candidate that proves one problem was counted as an audited pass of another (red
        team round 7); the audit's own verdict, sealed with it, names the problem it judged."""
        return (
            self.status == "accepted"
            and self.attempt_id == attempt.id
            and self.candidate_sha256 == attempt.candidate_sha256
            and self.verdict.get("problem") == attempt.problem
        )


@dataclass(frozen=True)
class SubAttemptRow:
    """One stored lemma sub-attempt (``prove_lemma``) of the attempt ``parent`` (its run key) of
    ``problem`` in ``campaign``; ``verdict`` is the stored ``Verdict.to_json()`` of its lemma file."""

    id: int
    campaign: int
    problem: str
    parent: str
    lemma: str
    status: str
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float
    statement: str
    statement_sha256: str
    candidate: str | None
    candidate_sha256: str | None
    lemma_text: str | None
    verdict: dict[str, Any] | None
    error: str | None
    recorded_at: str

    @property
    def proved(self) -> bool:
        """Passed, with a stored accepted verdict for exactly the stored lemma file's bytes."""
        if self.status != "passed" or self.candidate is None or self.verdict is None or not self.lemma_text:
            return False
        actual = sha256_text(self.candidate)
        return (
            self.verdict.get("status") == "accepted"
            and self.verdict.get("candidate_sha256") == actual
            and self.candidate_sha256 == actual
            and self.statement_sha256 == sha256_text(self.statement)
        )


@dataclass(frozen=True)
class RateLimitRow:
    """What the provider's rate limiting looked like at one moment of a campaign.

    ``retries``: the campaign's requests the provider had rate-limited so far (a running count, as Inspect
    counts them); ``connections``: the adaptive connection limit then (e.g. "16 of 64 connections")."""

    campaign: int
    observed_at: str
    retries: int
    connections: str | None


@dataclass(frozen=True)
class Usage:
    attempts: int
    turns: int
    input_tokens: int
    output_tokens: int
    cost_dollars: float

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def strict_text(path: Path) -> Callable[[bytes], str]:
    """SQLite's text as ``str`` (the connection's ``text_factory``): bytes that are not UTF-8, which only an
    edit can put in a ledger putnam wrote, are refused by the ledger's name, where sqlite3's own decoding
    error ended every reader in "unexpected OperationalError ... a bug in putnam"."""

    def decode(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            shown = raw[max(0, exc.start - 20) : exc.start + 20]
            raise LedgerError(
                f"{path}: a text column is not UTF-8 (byte {exc.start}, near {shown!r}); {EDITED}"
            ) from exc

    return decode


def checked_id(value: Any, where: str) -> str:
    """``value`` if it is a problem id (``IDENTIFIER``), else LedgerError: ids become folder names."""
    if not isinstance(value, str) or not IDENTIFIER.fullmatch(value):
        shown = value[:80] + "..." if isinstance(value, str) and len(value) > 80 else value
        raise LedgerError(f"{where}: problem id {shown!r} is not an id ({ID_RULE}); {EDITED}")
    return value


def checked_number(value: Any, where: str) -> int:
    """``value`` if it is an integer (SQLite keeps text in an INTEGER column), else LedgerError."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise LedgerError(f"{where}: {value!r} is not a number; {EDITED}")
    return value


def checked_count(value: Any, where: str) -> int:
    """``value`` if it is a whole number of 0 or more (a count), else LedgerError: a negative count was taken
    as it came (rate limits' ``retries``; red team round 12)."""
    if (count := checked_number(value, where)) < 0:
        raise LedgerError(f"{where}: {value!r} is not a count (0 or more); {EDITED}")
    return count


def checked_flag(value: Any, where: str, stored_as_json: bool = False) -> bool:
    """``value`` as a flag, read as every stored flag is (``untrusted.stored_flag``: 0 or 1 in a column,
    ``true`` or ``false`` in JSON), else LedgerError naming where (campaigns' ``fresh``, red team round 12;
    audits' ``toolchain_changed``, round 13)."""
    try:
        return stored_flag(value, stored_as_json)
    except MalformedFlag as exc:
        raise LedgerError(f"{where}: {_shown(value)} is {exc} (a flag); {EDITED}") from exc


def _shown(value: Any) -> str:
    """A stored value as an error shows it: its repr, cut short (a column may hold megabytes)."""
    text = repr(value)
    return text if len(text) <= 80 else f"{text[:77]}..."


def rate_limit_row(row: tuple[Any, ...], where: str) -> RateLimitRow:
    """A ``rate_limits`` row (campaign, observed_at, retries, connections), checked column by column."""
    campaign, observed_at, retries, connections = row
    return RateLimitRow(
        checked_number(campaign, where),
        checked_time(observed_at, where),
        checked_count(retries, f"{where}: retries"),
        optional_text(connections, where),
    )


def meta_number(text: str | None, where: str) -> int | None:
    """A number the ledger's ``meta`` table keeps as text (None when absent), else LedgerError: text that is
    not one ended ``putnam report`` in "unexpected ValueError ... a bug in putnam" (red team round 11)."""
    if text is None:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 18):
        raise LedgerError(f"{where}: {text[:40]!r} is not a number; {EDITED}")
    return int(text)


def checked_time(value: Any, where: str, optional: bool = False) -> Any:
    """``value`` if it is a time as the ledger records it (ISO 8601 text: ``now``), else LedgerError; the
    report computes with it (wall time, rates over time), where other text crashed ``putnam report``."""
    if value is None and optional:
        return None
    try:
        datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise LedgerError(f"{where}: {value!r} is not a time (ISO 8601, as putnam records it); {EDITED}") from None
    return value


def optional_text(value: Any, where: str) -> str | None:
    """``value`` if it is text or absent, else LedgerError."""
    if value is not None and not isinstance(value, str):
        raise LedgerError(f"{where}: {value!r} is not text; {EDITED}")
    return value


def outcome_record(text: Any, where: str) -> dict[str, Any] | None:
    """The run's stored outcome (``{"exit_code": int, "message": text}``, or none yet), else LedgerError."""
    value = json_column(text if text is not None else "null", where)
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("message"), str):
        raise LedgerError(f"{where}: not a run's outcome (an exit code and a message); {EDITED}")
    code = checked_number(value.get("exit_code"), where)
    if code not in set(ExitCode):  # any number was taken into SUMMARY.md and the report (red team round 12)
        shown = code if abs(code) < 10**18 else "past 10**18"
        raise LedgerError(
            f"{where}: exit code {shown} is not one putnam solve exits with "
            f"({', '.join(str(int(c)) for c in ExitCode)}); {EDITED}"
        )
    return value


def json_column(text: Any, where: str) -> Any:
    """A JSON column parsed within size and depth limits (``bounded_json``), else LedgerError."""
    if not isinstance(text, str | bytes):
        raise LedgerError(f"{where}: not JSON text; {EDITED}")
    try:
        return bounded_json.loads(text, where, MAX_COLUMN_BYTES)
    except InputError as exc:
        raise LedgerError(f"{exc}; {EDITED}") from exc


def json_object(text: Any, where: str) -> dict[str, Any]:
    """A JSON column that must hold an object (settings, a verdict, an audit)."""
    value = json_column(text, where)
    if not isinstance(value, dict):
        raise LedgerError(f"{where}: expected a JSON object; {EDITED}")
    return value


def verdict_column(text: Any, where: str) -> dict[str, Any] | None:
    """A stored ``Verdict.to_json()`` (None when there is none): an object whose gates are objects."""
    if text is None:
        return None
    verdict = json_object(text, where)
    gates = verdict.get("gates", [])
    if not isinstance(gates, list) or not all(isinstance(g, dict) for g in gates):
        raise LedgerError(f"{where}: the verdict's gates are not a list of objects; {EDITED}")
    for gate in gates:  # as ``GateResult.to_json`` writes one; a key missing crashed every reader (red team 11)
        if not all(isinstance(gate.get(key), str) for key in GATE_TEXT) or not isinstance(
            gate.get("evidence", {}), dict
        ):
            raise LedgerError(
                f"{where}: a gate of the verdict lacks its {'/'.join(GATE_TEXT)} text or evidence; {EDITED}"
            )
    if not isinstance(verdict.get("status", ""), str) or not isinstance(verdict.get("answers", {}), dict):
        raise LedgerError(f"{where}: the verdict's status or answers are not what putnam writes; {EDITED}")
    for key in VERDICT_FLAGS:
        if key in verdict:
            checked_flag(verdict[key], f"{where}: the verdict's `{key}`", stored_as_json=True)
    return verdict


GATE_TEXT = ("id", "name", "status", "detail")
"""The text every gate of a stored verdict holds (``GateResult.to_json``), beside its ``evidence`` object."""
VERDICT_FLAGS = ("needs_full_profile", "benchmark_pinned", "unsafe_no_sandbox", "allow_recursion", "cached")
"""The flags of a stored verdict (``Verdict.to_json``): the report names a pass judged with a rule lifted
only when its flag is ``true``, so text there (``"yes"``) hid the lifted rule."""


EDITED = (
    "the ledger was edited after the run (or is not putnam's): refused, nothing of it is used; ask whoever "
    "handed it over for the run directory as putnam wrote it, or start a new run with --run-dir"
)


MAX_TOKENS = 10**12
"""The most tokens (and turns) one attempt is counted with: far beyond any real attempt, and small enough
that a run's sums stay exact in SQLite's 64-bit integers and in a float (a model server's usage is not
trusted: ``run.agent.pricing.counted_usage`` holds what it reports to this bound)."""
MAX_DOLLARS = 1e12
"""The most dollars one attempt is counted with, for the same reason."""


def checked_spend(turns: Any, input_tokens: Any, output_tokens: Any, cost: Any, where: str) -> None:
    """What an attempt spent must be counts and an amount a run can record: integers from 0 to
    ``MAX_TOKENS`` and a finite amount from 0 to ``MAX_DOLLARS``, else LedgerError. SQLite keeps any value
    in these columns; a negative cost lowered the run's cost in SUMMARY.md, the report and the audit's
    SUMMARY.md, text in one was summed as 0."""
    for name, value in (("turns", turns), ("input tokens", input_tokens), ("output tokens", output_tokens)):
        if checked_number(value, where) < 0 or value > MAX_TOKENS:
            raise LedgerError(f"{where}: {name} {value!r} is not between 0 and {MAX_TOKENS}; {EDITED}")
    amount = float(cost) if isinstance(cost, int | float) and not isinstance(cost, bool) else None
    if amount is None or not math.isfinite(amount) or not 0 <= amount <= MAX_DOLLARS:
        raise LedgerError(f"{where}: cost {cost!r} is not an amount of dollars from 0 to {MAX_DOLLARS:g}; {EDITED}")


def problem_row(r: tuple[Any, ...], where: str) -> ProblemRow:
    """A stored problem (id, statement SHA-256, challenge, challenge SHA-256), else LedgerError: its challenge
    becomes an evidence file and ``audit`` judges the run's passes against its hash, so the text must be the
    one its hash names (``record_problems`` stores both together), as a run directory handed over may hold
    another challenge under the same hash."""
    at = f"{where}: problem {checked_id(r[0], where)}"
    if not isinstance(r[2], str) or r[3] != sha256_text(r[2]):
        raise LedgerError(f"{at}: the challenge is not the text its SHA-256 names; {EDITED}")
    return ProblemRow(*r)


def attempt_row(r: tuple[Any, ...], where: str) -> AttemptRow:
    at = f"{where}: attempt {r[0]!r}"
    verdict = verdict_column(r[13], f"{at}: verdict")
    checked_number(r[0], at), checked_number(r[1], at), checked_id(r[2], at), checked_sample(r[15], at)
    checked_spend(r[4], r[5], r[6], r[7], at)
    head = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12])
    return AttemptRow(*head, verdict, checked_time(r[14], f"{at}: recorded_at"), r[15])


MAX_SAMPLES = 64
"""The most samples per problem a campaign runs (``putnam solve --samples``)."""


def checked_sample(value: Any, where: str) -> int:
    """A sample index (1..``MAX_SAMPLES``), else LedgerError: it names an evidence folder."""
    if checked_number(value, where) < 1 or value > MAX_SAMPLES:
        raise LedgerError(f"{where}: sample {value!r} is not between 1 and {MAX_SAMPLES}; {EDITED}")
    return int(value)


SUBATTEMPT_COLUMNS = (
    "id, campaign, problem, parent, lemma, status, turns, input_tokens, output_tokens, cost_dollars, statement, "
    "statement_sha256, candidate, candidate_sha256, lemma_text, verdict, error, recorded_at"
)


def subattempt_row(r: tuple[Any, ...], where: str) -> SubAttemptRow:
    at = f"{where}: sub-attempt {r[0]!r}"
    verdict = verdict_column(r[15], f"{at}: verdict")
    checked_number(r[0], at), checked_number(r[1], at), checked_id(r[2], at)
    checked_spend(r[6], r[7], r[8], r[9], at)
    if not isinstance(r[4], str):
        raise LedgerError(f"{at}: lemma name {r[4]!r} is not text; {EDITED}")
    head = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14])
    return SubAttemptRow(*head, verdict, r[16], checked_time(r[17], f"{at}: recorded_at"))
