"""Long histories compacted under a per-attempt token budget (``Budgets.history_tokens``).

Every turn of the react worker sends its whole history, so a long attempt pays for its early turns again
at every later one. Once the history sent would pass the budget, it is compacted: the prompt (system and
task messages) stays, the last few turns stay whole, and the turns before them become one digest that
keeps what the model needs to go on: its plan (its first reply), the latest answer of each of ``check``,
``submit``, ``goals`` and ``sketch`` (the latest errors and goals) and the last file it checked or
submitted. The full history stays in the sample (Inspect's transcript); only what is sent is compacted.
Between compactions the compacted view only grows, so a provider's prompt cache keeps working.

Inspect AI (0.3.285) has a compaction facility: ``inspect_ai.model.compaction()`` with strategies such as
``CompactionEdit`` and ``CompactionTrim``. ``KeepLatest`` is written to its ``CompactionStrategy``
interface. Its orchestration is not used: it counts tokens with tiktoken's ``o200k_base`` (every provider
but Anthropic and Google), which tiktoken downloads at first use, and offline that count raises
``ConnectionError``. ``HistoryBudget`` counts what the provider itself reported instead: the input tokens
of the last call, per character of what was sent, applied to what is sent next.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from inspect_ai.log import transcript
from inspect_ai.model import (
    ChatMessage,
    ChatMessageAssistant,
    ChatMessageTool,
    ChatMessageUser,
    CompactionStrategy,
    Model,
    ModelOutput,
)
from inspect_ai.tool import ToolInfo

from putnam_solver.run.agent.toolkit import clip
from putnam_solver.run.agent.types import SolveConfig

KEEP_TURNS = 4
"""The most recent turns kept whole; fewer when they alone pass the compaction's target."""
LOW_WATER = 0.5
"""A compaction aims at this share of the budget, so that the next one is many turns away."""
DEFAULT_TOKENS_PER_CHAR = 0.3
"""Before the first call has reported its tokens: about one token per 3.3 characters (English and code)."""
KEPT_RESULTS = ("check", "submit", "goals", "sketch")
"""The tools whose latest answer a digest keeps: errors, goals and the state of the sketch."""
MAX_PLAN_CHARS = 3000
MAX_RESULT_CHARS = 2500
MAX_FILE_CHARS = 8000
DIGEST_HEAD = "EARLIER TURNS COMPACTED."


def history_budget(config: SolveConfig) -> HistoryBudget | None:
    """The compaction of one react (sub-)attempt's history, or None (``--without compact``, no budget)."""
    tokens = config.budgets.history_tokens
    return HistoryBudget(tokens) if config.parts.compact and tokens else None


def chars(messages: Sequence[ChatMessage]) -> int:
    """The characters a history sends: texts, and the arguments of each tool call."""
    total = 0
    for message in messages:
        total += len(message.text)
        if isinstance(message, ChatMessageAssistant):
            total += sum(len(json.dumps(call.arguments)) for call in message.tool_calls or [])
    return total


def turns_of(messages: Sequence[ChatMessage]) -> tuple[list[ChatMessage], list[list[ChatMessage]]]:
    """The prompt (the messages before the first reply) and the turns: each reply with the tool answers
    and reminders that follow it, so that no tool call is ever separated from its answer."""
    first = next((i for i, m in enumerate(messages) if isinstance(m, ChatMessageAssistant)), len(messages))
    turns: list[list[ChatMessage]] = []
    for message in messages[first:]:
        if isinstance(message, ChatMessageAssistant) or not turns:
            turns.append([])
        turns[-1].append(message)
    return list(messages[:first]), turns


@dataclass
class Latest:
    """What a digest keeps of the turns it replaces."""

    plan: str | None = None
    results: dict[str, str] = field(default_factory=dict)
    file: str | None = None

    @classmethod
    def of(cls, dropped: Sequence[Sequence[ChatMessage]], kept: Sequence[Sequence[ChatMessage]]) -> Latest:
        """The plan when the first reply is dropped; the latest answer of each kept tool and the latest
        file, where the kept turns do not hold a later one."""
        latest = cls()
        if dropped and dropped[0][0].text.strip():
            latest.plan = dropped[0][0].text.strip()
        later = {
            c.function for turn in kept for m in turn if isinstance(m, ChatMessageAssistant) for c in m.tool_calls or []
        }
        for turn in dropped:
            reply = turn[0]
            calls = {c.id: c for c in reply.tool_calls or []} if isinstance(reply, ChatMessageAssistant) else {}
            for message in turn[1:]:
                call = calls.get(message.tool_call_id or "") if isinstance(message, ChatMessageTool) else None
                if call is None or call.function not in KEPT_RESULTS or call.function in later:
                    continue
                latest.results[call.function] = message.text
                proof = call.arguments.get("proof") or call.arguments.get("skeleton")
                if isinstance(proof, str) and not later & {"check", "submit", "sketch"}:
                    latest.file = proof
        return latest

    def digest(self, dropped: int, budget: int) -> str:
        lines = [
            f"{DIGEST_HEAD} {dropped} earlier turns were removed from this conversation to keep it under the "
            f"attempt's history budget of {budget:,} tokens. What they left you:"
        ]
        if self.plan:
            lines += ["", "Your plan (your first reply):", clip(self.plan, MAX_PLAN_CHARS)]
        for tool in KEPT_RESULTS:
            if tool in self.results:
                lines += ["", f"The latest answer of `{tool}`:", clip(self.results[tool], MAX_RESULT_CHARS)]
        if self.file:
            lines += ["", "The file you checked or submitted last:", "```", clip(self.file, MAX_FILE_CHARS), "```"]
        return "\n".join(lines)


class KeepLatest(CompactionStrategy):
    """Keep the prompt and the last ``keep_turns`` turns; replace the turns before them by a digest."""

    def __init__(self, budget: int, keep_turns: int = KEEP_TURNS) -> None:
        super().__init__(type="edit", threshold=budget, memory=False)
        self.budget = budget
        self.keep_turns = keep_turns

    async def compact(
        self, model: Model, messages: list[ChatMessage], tools: list[ToolInfo]
    ) -> tuple[list[ChatMessage], ChatMessageUser | None]:
        return self.kept(messages), None

    def kept(self, messages: Sequence[ChatMessage]) -> list[ChatMessage]:
        prompt, turns = turns_of(messages)
        if len(turns) <= self.keep_turns:
            return list(messages)
        dropped, kept = turns[: -self.keep_turns], turns[-self.keep_turns :]
        digest = ChatMessageUser(content=Latest.of(dropped, kept).digest(len(dropped), self.budget))
        return [*prompt, digest, *(m for turn in kept for m in turn)]


class HistoryBudget:
    """What one attempt's model calls are sent: its history, compacted whenever it would pass ``budget``
    tokens (as the provider counts them)."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.per_char = DEFAULT_TOKENS_PER_CHAR
        self.fixed = 0  # tokens every call costs whatever its messages: the tool definitions, the framing
        self.last: tuple[int, int] | None = None  # (characters, tokens) of the last call the provider counted
        self.head: list[ChatMessage] | None = None  # the compacted view of messages[:upto]
        self.upto = 0
        self.compactions: list[tuple[int, int]] = []  # (estimated tokens before, after) of each compaction

    def estimate(self, messages: Sequence[ChatMessage]) -> int:
        return self.fixed + math.ceil(chars(messages) * self.per_char)

    def view(self, messages: list[ChatMessage]) -> list[ChatMessage]:
        """What to send for the full history ``messages``: the last compacted view and what came after it,
        compacted afresh (from the full history) when that passes the budget."""
        sent = messages if self.head is None else [*self.head, *messages[self.upto :]]
        before = self.estimate(sent)
        if before <= self.budget:
            return sent
        target = int(self.budget * LOW_WATER)
        for keep in range(KEEP_TURNS, 0, -1):
            compacted = KeepLatest(self.budget, keep).kept(messages)
            if self.estimate(compacted) <= target:
                break
        after = self.estimate(compacted)
        if after >= before:
            return sent  # nothing left to drop: the turn's own token limit still bounds its spend
        self.head, self.upto = compacted, len(messages)
        self.compactions.append((before, after))
        transcript().info(
            {"history compacted": {"tokens_before": before, "tokens_after": after, "budget": self.budget}},
            source="putnam",
        )
        return compacted

    def record(self, sent: Sequence[ChatMessage], output: ModelOutput) -> None:
        """Calibrate the estimate on what the provider counted for ``sent``."""
        usage = output.usage
        sent_chars = chars(sent)
        if usage is None or sent_chars == 0:
            return
        tokens = usage.input_tokens + (usage.input_tokens_cache_read or 0) + (usage.input_tokens_cache_write or 0)
        if tokens <= 0:
            return
        # Two counts of different sizes tell the tokens per character of the messages apart from the fixed
        # cost of every call (the tool definitions): with the fixed cost folded into the rate, a compacted
        # (shorter) history would be underestimated and could pass the budget.
        if self.last is not None and sent_chars > self.last[0] and tokens > self.last[1]:
            self.per_char = (tokens - self.last[1]) / (sent_chars - self.last[0])
            self.fixed = max(0, tokens - math.ceil(sent_chars * self.per_char))
        else:
            self.per_char, self.fixed = tokens / sent_chars, 0
        self.last = (sent_chars, tokens)
