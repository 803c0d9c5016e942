"""The reviewer: a second model that may veto an accepted candidate, and can never accept one.

It is shown the statement, the candidate and the full verdict, read-only (no tools). Only a reply that
starts with ``APPROVE`` lets the accepted candidate stand; ``VETO: <feedback>``, anything unparsable, an
error or a timeout is a veto whose feedback goes to the worker's next turn. A reviewer that was fooled
(e.g. by a prompt injection in the candidate) can therefore only cost a pass, never create one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from inspect_ai.model import ChatMessage, ChatMessageSystem, ChatMessageUser, Model
from inspect_ai.util import LimitExceededError, time_limit

from putnam_solver.agent.tools import render
from putnam_solver.verify import Verdict


@dataclass(frozen=True)
class Review:
    vetoed: bool
    feedback: str


async def review(
    model: Model, statement: str, candidate: str, verdict: Verdict, timeout: float | None
) -> Review:
    """Ask the reviewer about one accepted candidate; every failure to get a clear approval is a veto."""
    messages: list[ChatMessage] = [
        ChatMessageSystem(content=render("reviewer_system.md")),
        ChatMessageUser(
            content=render(
                "reviewer_task.md",
                statement=statement,
                candidate=candidate,
                verdict=json.dumps(verdict.to_json(), indent=1, default=str),
            )
        ),
    ]
    try:
        with time_limit(timeout):
            output = await model.generate(messages)
    except LimitExceededError:
        return Review(True, f"the reviewer did not answer within {timeout} s")
    except Exception as exc:  # a reviewer that cannot answer cannot approve
        return Review(True, f"the reviewer failed: {type(exc).__name__}: {exc}")
    return parse_review(output.completion)


def parse_review(reply: str) -> Review:
    """``APPROVE`` on the first non-empty line approves; everything else vetoes with the reply as feedback."""
    text = reply.strip()
    first = text.splitlines()[0].strip().upper() if text else ""
    if first.startswith("APPROVE"):
        return Review(False, text)
    if first.startswith("VETO"):
        feedback = text.split(":", 1)[1].strip() if ":" in text.splitlines()[0] else text[4:].strip()
        return Review(True, feedback or "the reviewer vetoed without saying why")
    return Review(True, f"the reviewer's reply was neither APPROVE nor VETO: {text[:2000]}")
