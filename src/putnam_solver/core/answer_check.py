"""The no-answer answer check: is the candidate's answer the official one? A record and an alarm.

On the no-answer track G5/G6 already decide whether the candidate proves the statement with its own
answer; whether that answer equals the official one is a separate question that users of the verdict
ask. Each prover tries to establish ``candidate = official`` (and, failing that, its negation) with a
few automatic tactics, in the sandbox, after the candidate compiled, and records one of three statuses.
Limits (integrals, series, choice) are not closed forms: tactics cannot compare them, so they are
``unknown`` with that reason before anything runs.

It never makes a candidate accepted. It is an alarm the other way: the gates cannot have seen a sound
proof of a correct statement whose answer is provably not the official one, so such a verdict is
``disputed`` (``verify.Verdict.status``), never counted as solved, never cached, listed as a candidate
erratum.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum


class AnswerStatus(StrEnum):
    CONFIRMED = "confirmed"
    """``candidate = official`` was proved."""
    DIFFERS = "differs"
    """``candidate <> official`` was proved."""
    UNKNOWN = "unknown"
    """Neither was established; ``reason`` says why."""


@dataclass(frozen=True)
class AnswerCheck:
    status: AnswerStatus
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"status": self.status.value, "reason": self.reason}


def unknown(reason: str) -> AnswerCheck:
    return AnswerCheck(AnswerStatus.UNKNOWN, reason)


def non_closed_form(words: Iterable[str], markers: Mapping[str, str]) -> AnswerCheck | None:
    """``unknown`` naming the first word of ``words`` that ``markers`` lists (with what it is), else None."""
    for word in words:
        if word in markers:
            return unknown(f"not a closed form: uses `{word}` ({markers[word]}); no tactic compares it")
    return None


__all__ = ["AnswerCheck", "AnswerStatus", "non_closed_form", "unknown"]
