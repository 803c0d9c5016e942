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


SETTLED_UNKNOWN: tuple[str, ...] = ("not a closed form:", "the answer check runs only with the")
"""How the reasons of the ``unknown`` outcomes that no cap, load or crash decided begin (made by
:func:`non_closed_form` and by the pipeline for a profile without the check): any other ``unknown`` may
come from a tactic's time limit on a loaded host, an exhausted memory cap or a crash, and a run with
more room may prove the answer different (``disputed``)."""


def settled(check: object) -> bool:
    """Whether a recorded answer check (``AnswerCheck.to_json()``) would come out the same on any run:
    ``confirmed`` or ``differs``, or an ``unknown`` of :data:`SETTLED_UNKNOWN`. The verdict cache keeps an
    acceptance only when every check is settled: else a later run with more memory, time or a quieter
    host must run it again, or an acceptance would be reused where that run finds it ``disputed``."""
    if not isinstance(check, dict):
        return False
    status, reason = check.get("status"), check.get("reason")
    if status in (AnswerStatus.CONFIRMED, AnswerStatus.DIFFERS):
        return True
    return status == AnswerStatus.UNKNOWN and isinstance(reason, str) and reason.startswith(SETTLED_UNKNOWN)


def non_closed_form(words: Iterable[str], markers: Mapping[str, str]) -> AnswerCheck | None:
    """``unknown`` naming the first word of ``words`` that ``markers`` lists (with what it is), else None."""
    for word in words:
        if word in markers:
            return unknown(f"not a closed form: uses `{word}` ({markers[word]}); no tactic compares it")
    return None


__all__ = ["SETTLED_UNKNOWN", "AnswerCheck", "AnswerStatus", "non_closed_form", "settled", "unknown"]
