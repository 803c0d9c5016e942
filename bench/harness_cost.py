"""The harness's share of the cost of a solved problem: our tool set against a plain compile-only loop.

Usage: ``python bench/harness_cost.py [--problems N] [--all]`` (real coqc/coqtop, the sandbox, Inspect's
mock model; nothing leaves the machine).

The model is scripted, so what differs between the two loops is the harness alone. For each published
Rocq proof of the conformance corpus (``tests/fixtures/conformance``, accepted on the full profile; the
first N whose proofs, helper lemmas included, have 4 to 60 steps in all), one step in the middle is wrong
(``exact I.`` in its place), and the scripted model must repair it from the answer it is given:

- ``tools``: our whole tool set (warm sessions, goals, lemmas, plan). The model writes a one-line plan,
  then replays the file step by step, asking ``goals`` for the state after each step of the file as
  written so far (that proof and every later one ``Admitted``); at the wrong step the answer carries the
  error, the model puts the right step back and goes on, checks the whole file and submits it.
- ``compile-only``: every part off (``--without warm,goals,lemmas,plan``): the model checks the whole file
  with the wrong step (a cold compile), reads the error and submits the repaired file.

Per problem and loop it prints model calls (turns), tokens (what each call is sent, the tool definitions
included, and what it writes, counted as characters / 4 like ``bench/agent_tokens.py``: no tokenizer is
downloaded here, and the ratios are what counts) and wall time of the attempt, whether
the wrong step's error reached the model and whether the problem was solved; then medians per solved
problem and the ratios tools/compile-only side by side.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from inspect_ai.model import ChatMessage, ChatMessageTool, ModelOutput, ModelUsage  # noqa: E402

from putnam_solver.core.benchmark import load_benchmark  # noqa: E402
from putnam_solver.core.provers.rocq.syntax import PROOF_ENDS, sentences  # noqa: E402
from putnam_solver.run.agent.types import AgentParts, Budgets  # noqa: E402
from tests.fakes.scripted_agent import config, run, scripted  # noqa: E402
from tests.helpers import COQ_BENCH  # noqa: E402

CORPUS = REPO / "tests" / "fixtures" / "conformance"
WRONG = "exact I."
PLAN = "Plan: replay the proof step by step, checking each step, and repair what the checker refuses."


@dataclass(frozen=True)
class Block:
    """One proof of the file: where its ``Proof`` sentence ends, its steps, and where its end (``Qed``) ends."""

    opened: int
    steps: tuple[tuple[int, int], ...]  # (start, end) of each sentence between them
    closed: int


@dataclass(frozen=True)
class Replay:
    """One published proof file cut into the steps of its proofs (helper lemmas and the theorem), one wrong."""

    problem: str
    text: str
    blocks: tuple[Block, ...]
    wrong: tuple[int, int]  # (block, step) replaced by WRONG

    @property
    def steps(self) -> list[tuple[int, int]]:
        """Every step in file order, as (block, step)."""
        return [(b, j) for b, block in enumerate(self.blocks) for j in range(len(block.steps))]

    def cut(self, at: tuple[int, int], wrong: bool) -> str:
        """The file as written up to step ``at``: that proof stops there, every later proof is ``Admitted``
        (their statements kept, so the checker sees the whole file's shape)."""
        b, j = at
        pieces = [self.written_to(b, j, wrong), "\nAdmitted."]
        cursor = self.blocks[b].closed
        for block in self.blocks[b + 1 :]:
            pieces += [self.text[cursor : block.opened], "\nAdmitted."]
            cursor = block.closed
        return "".join([*pieces, self.text[cursor:]])

    def whole(self, wrong: bool) -> str:
        if not wrong:
            return self.text
        start, end = self.blocks[self.wrong[0]].steps[self.wrong[1]]
        return self.text[:start] + WRONG + self.text[end:]

    def written_to(self, b: int, j: int, wrong: bool) -> str:
        """The file up to the end of step ``(b, j)``, with the wrong step in it if asked and reached."""
        end = self.blocks[b].steps[j][1]
        if wrong and (b, j) >= self.wrong:
            start, stop = self.blocks[self.wrong[0]].steps[self.wrong[1]]
            return self.text[:start] + WRONG + self.text[stop:end]
        return self.text[:end]


def blocks_of(text: str) -> tuple[Block, ...]:
    """The file's proofs: each ``Proof`` sentence, the steps after it, and its ``Qed``/``Defined``."""
    sents, found, i = sentences(text), [], 0
    while i < len(sents):
        if sents[i].command == "Proof":
            end = next((k for k in range(i + 1, len(sents)) if sents[k].command in PROOF_ENDS), None)
            if end is None:
                break
            steps = tuple((s.start, s.end) for s in sents[i + 1 : end])
            found.append(Block(sents[i].end, steps, sents[end].end))
            i = end
        i += 1
    return tuple(found)


def replays(limit: int | None) -> list[Replay]:
    """The corpus's accepted Rocq proofs with 4 to 60 steps in all their proofs, the first ``limit``."""
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    found = []
    for entry in manifest["entries"]:
        if entry["prover"] != "rocq" or entry["expected"]["full/with-answer"]["verdict"] != "accepted":
            continue
        text = (CORPUS / entry["file"]).read_text(encoding="utf-8")
        blocks = blocks_of(text)
        steps = [(b, j) for b, block in enumerate(blocks) for j in range(len(block.steps))]
        plain = [(b, j) for b, j in steps if text[blocks[b].steps[j][0]] not in "{}-+*"]
        if 4 <= len(steps) <= 60 and plain:
            found.append(Replay(entry["problem_id"], text, blocks, plain[len(plain) // 2]))
    return found[:limit]


@dataclass
class Account:
    """What one attempt cost, as the scripted model saw it."""

    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    error_seen: bool = False
    answers: list[str] = field(default_factory=list)


def tokens(text: str) -> int:
    return (len(text) + 3) // 4


def sent_text(messages: list[ChatMessage]) -> str:
    """Everything a call is sent: each message's text and the arguments of the tool calls in it."""
    parts = []
    for message in messages:
        parts.append(message.text)
        for call in getattr(message, "tool_calls", None) or []:
            parts.append(json.dumps(call.arguments))
    return "\n".join(parts)


def model(actions: list[tuple[str, dict[str, Any]]], account: Account, wrong_at: int) -> Any:
    """A scripted model taking ``actions`` in order, one per call, counting what it is sent and writes;
    it notes whether the answer to action ``wrong_at`` (the check of the wrong step) named a failure."""

    def script(messages: list[ChatMessage], tools: list[Any]) -> ModelOutput:
        account.calls += 1
        answers = [m.text for m in messages if isinstance(m, ChatMessageTool)]
        if len(answers) > wrong_at and len(account.answers) <= wrong_at:
            account.error_seen = "rror" in answers[wrong_at] or "failed" in answers[wrong_at]
        account.answers = answers
        step = min(len(answers), len(actions) - 1)
        name, arguments = actions[step]
        output = ModelOutput.for_tool_call(model="mockllm/model", tool_name=name, tool_arguments=arguments)
        if step == 0:
            output.message.content = PLAN
        written = json.dumps(arguments) + (PLAN if step == 0 else "")
        schema = json.dumps([t.model_dump() for t in tools], default=str)
        usage = ModelUsage(input_tokens=tokens(sent_text(messages) + schema), output_tokens=tokens(written))
        usage.total_tokens = usage.input_tokens + usage.output_tokens
        account.input_tokens += usage.input_tokens
        account.output_tokens += usage.output_tokens
        output.usage = usage
        return output

    return scripted(script)


def line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def tool_actions(replay: Replay) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    """``goals`` after each step of the file as written so far (the wrong step, then its repair), one
    ``check`` of the whole file, then the submission; and where the wrong step's answer is."""

    def goals(at: tuple[int, int], wrong: bool) -> tuple[str, dict[str, Any]]:
        text = replay.cut(at, wrong)
        end = replay.written_to(*at, wrong)
        return "goals", {"proof": text, "line": line_of(text, len(end))}

    steps = replay.steps
    actions = [goals(at, wrong=False) for at in steps if at < replay.wrong]
    actions.append(goals(replay.wrong, wrong=True))
    wrong_at = len(actions) - 1
    actions += [goals(at, wrong=False) for at in steps if at >= replay.wrong]
    actions += [("check", {"proof": replay.whole(wrong=False)}), ("submit", {"proof": replay.whole(wrong=False)})]
    return actions, wrong_at


def compile_actions(replay: Replay) -> tuple[list[tuple[str, dict[str, Any]]], int]:
    return [("check", {"proof": replay.whole(wrong=True)}), ("submit", {"proof": replay.whole(wrong=False)})], 0


LOOPS = {
    "tools": (tool_actions, AgentParts()),
    "compile-only": (compile_actions, AgentParts.without(["warm", "goals", "lemmas", "plan"])),
}


MEASURES = ("turns", "input_tokens", "output_tokens", "seconds")


def attempt(replay: Replay, loop: str, work: Path) -> dict[str, Any]:
    make, parts = LOOPS[loop]
    actions, wrong_at = make(replay)
    account = Account()
    cfg = config(
        model(actions, account, wrong_at),
        budgets=Budgets(max_turns=len(actions) + 2),
        parts=parts,
        jobs=1,
    )
    start = time.perf_counter()
    result = run(work, cfg, [replay.problem], benchmark=load_benchmark(COQ_BENCH))[replay.problem]
    return {
        "problem": replay.problem,
        "loop": loop,
        "solved": result.status == "passed",
        "turns": account.calls,
        "input_tokens": account.input_tokens,
        "output_tokens": account.output_tokens,
        "seconds": time.perf_counter() - start,
        "error_seen": account.error_seen,
        "status": result.status,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--problems", type=int, default=4, help="how many proofs (default 4)")
    parser.add_argument("--all", action="store_true", help="every proof that qualifies")
    args = parser.parse_args(argv)
    chosen = replays(None if args.all else args.problems)
    rows = []
    with tempfile.TemporaryDirectory(prefix="harness-cost-") as work:
        for n, replay in enumerate(chosen):
            for loop in LOOPS:
                row = attempt(replay, loop, Path(work) / f"{n}-{loop}")
                rows.append(row)
                print(f"{row['problem']:18} {loop:12} {row['status']:8} turns {row['turns']:3}  tokens in "
                      f"{row['input_tokens']:7} out {row['output_tokens']:6}  {row['seconds']:6.1f} s  "
                      f"error seen: {row['error_seen']} ({len(replay.steps)} steps)", flush=True)  # fmt: skip
    medians = {}
    for loop in LOOPS:
        solved = [r for r in rows if r["loop"] == loop and r["solved"]]
        if not solved:
            print(f"{loop}: nothing solved")
            continue
        medians[loop] = {k: statistics.median(r[k] for r in solved) for k in MEASURES}
        shown = ", ".join(f"{k} {v:g}" for k, v in medians[loop].items())
        print(f"{loop}: {len(solved)} of {len(chosen)} solved; medians per solved problem: {shown}")
    if len(medians) == 2:
        tools, plain = medians["tools"], medians["compile-only"]
        ratios = ", ".join(f"{k} x{tools[k] / max(plain[k], 1e-9):.2f}" for k in MEASURES)
        print(f"tools / compile-only: {ratios}")
    return 0 if all(r["solved"] and r["error_seen"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
