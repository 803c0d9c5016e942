"""The informal-first stage: an informal proof, then a formal skeleton whose holes are proved in parallel.

The leading provers (DeepSeek-Prover-V2, Hilbert, Seed-Prover) credit much of their result to this order:
the model first proves the statement informally, from its informal text, then writes a formal skeleton
whose steps are lemma statements with their proofs left as holes and whose main proof uses them; the
holes are then proved separately. Here the task shows the informal statement as text, and the worker's
``sketch(informal_proof, skeleton)`` call is that stage: the harness stores both in the ledger at once
(``on_sketch``: stored when made, so that it outlives an interrupted attempt, then completed with how
many holes it had and were proved; offered to the later campaigns of the problem), ``check``s the
skeleton, and when the
skeleton compiles apart from its holes, runs a ``prove_lemma`` sub-attempt on every hole at once (each on
the fast profile, see ``lemmas.py``). It answers with the check and each hole's result and, when every
hole is proved, the skeleton with the lemmas pasted in and its check. Nothing here takes part in
acceptance: the final file is submitted and judged whole.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import anyio
from inspect_ai.tool import Tool, tool

from putnam_solver.core.untrusted import clean_text
from putnam_solver.kits.interactive import LemmaError
from putnam_solver.run.agent.lemmas import LemmaRunner
from putnam_solver.run.agent.toolkit import ProblemContext, check_text, format_check, render
from putnam_solver.run.agent.types import Sketch
from putnam_solver.run.agent.worker import AttemptState
from putnam_solver.run.ledger_rows import sha256_text
from putnam_solver.run.ledger_sketches import MAX_SKETCH_CHARS, SketchMade

NEXT = "Put each proved lemma in place of its hole, prove the others, check, then submit."
MAX_SKETCH_HOLES = 8
"""The most holes of one skeleton proved at once; the others are left to ``prove_lemma``."""


class SketchStage:
    """The ``sketch`` tool of one attempt (``sample`` of its problem in the campaign)."""

    def __init__(self, ctx: ProblemContext, state: AttemptState, lemmas: LemmaRunner, sample: int = 1) -> None:
        self.ctx = ctx
        self.state = state
        self.lemmas = lemmas
        self.sample = sample
        self.calls: list[SketchMade] = []  # each call as last reported (several may run at once)

    def tools(self) -> list[Tool]:
        on = self.ctx.parts.sketch and self.lemmas.interactive is not None
        return [sketch_tool(self)] if on else []

    async def sketch(self, informal_proof: str, skeleton: str) -> str:
        """Keep the sketch, check the skeleton, prove its holes concurrently; the answer for the worker."""
        informal_proof, skeleton = informal_proof.strip(), skeleton.strip() + "\n"
        if len(informal_proof) > MAX_SKETCH_CHARS or len(skeleton) > MAX_SKETCH_CHARS:
            return f"a sketch holds at most {MAX_SKETCH_CHARS:,} characters of proof and of skeleton; shorten it"
        if not informal_proof:
            return "write the informal proof first: sketch(informal_proof, skeleton) needs both"
        made = SketchMade(
            self.ctx.problem.id, self.sample, self.state.key, len(self.calls) + 1, informal_proof, skeleton
        )
        self.calls.append(made)
        self.report(made)  # before anything can stop the attempt: an interrupted attempt keeps its sketch
        self.state.remember(skeleton)
        outcome = await check_text(self.ctx, skeleton)
        if isinstance(outcome, str):
            return outcome
        checked = format_check(outcome, skeleton)
        self.update(made.call_index, lambda call: dataclasses.replace(call, holes=len(outcome.holes), proved=0))
        if not outcome.holes:
            return f"SKETCH kept. It has no holes to prove apart:\n{checked}"
        if outcome.draft is None or outcome.draft.errors:
            return f"SKETCH kept, its holes not proved: fix the skeleton first (sketch again or check).\n{checked}"
        names = [hole.name for hole in outcome.holes]
        answers = await self.prove_all(names[:MAX_SKETCH_HOLES], skeleton, made.call_index)
        left = names[MAX_SKETCH_HOLES:]
        more = [f"Not started (at most {MAX_SKETCH_HOLES} at once): {', '.join(left)}."] if left else []
        proved = sum(answer.startswith("PROVED") for answer in answers)
        head = f"SKETCH kept; {len(answers)} holes went to sub-attempts in parallel, {proved} proved."
        lines = [head, checked, *answers, *more]
        whole = self.assembled(skeleton, names) if proved == len(names) else None
        lines.append(await self.pasted(whole, made.call_index) if whole else NEXT)
        return "\n\n".join(lines)

    def update(self, call_index: int, progress: Callable[[SketchMade], SketchMade]) -> None:
        """Call ``call_index`` with ``progress`` made (holes, proved, assembled hash), reported."""
        made = progress(self.calls[call_index - 1])
        self.calls[call_index - 1] = made
        self.report(made)

    def report(self, made: SketchMade) -> None:
        """Hand the call as it stands now to the campaign, which stores it before this returns."""
        on_sketch = self.lemmas.setup.on_sketch
        if on_sketch is not None:
            on_sketch(made)

    def assembled(self, skeleton: str, names: list[str]) -> str | None:
        """The skeleton with each hole's proof taken from its proved lemma (``Interactive.paste_lemma``:
        found by its declaration, the skeleton's doc comment, attributes and statement kept), or None when
        one is not proved or cannot be pasted."""
        interactive, whole = self.lemmas.interactive, skeleton
        if interactive is None:
            return None
        for name in names:
            try:
                statement = interactive.lemma_statement(self.ctx.challenge, skeleton, name, self.ctx.track)
            except LemmaError:
                return None
            lemma = self.lemmas.proved(statement)
            pasted = interactive.paste_lemma(whole, name, lemma.text) if lemma is not None else None
            if pasted is None:
                return None
            whole = pasted
        return whole

    async def pasted(self, whole: str, call_index: int) -> str:
        """The check of the skeleton with every hole proved, as the worker is told it."""
        outcome = await check_text(self.ctx, whole)
        if isinstance(outcome, str) or not outcome.verdict.accepted:
            why = outcome if isinstance(outcome, str) else format_check(outcome, whole)
            return f"With the proved lemmas in place of their holes the file does not pass yet:\n{why}\n{NEXT}"
        self.state.remember(whole)
        self.update(call_index, lambda call: dataclasses.replace(call, assembled_sha256=sha256_text(whole)))
        return f"ALL HOLES PROVED. With the lemmas in place the file passes the fast gates; submit it:\n```\n{whole}```"

    async def prove_all(self, names: list[str], skeleton: str, call_index: int) -> list[str]:
        """One ``prove_lemma`` sub-attempt per name, concurrently, answers in order; each proved hole is
        reported as it is proved. A budget that stops one (the attempt's or the run's) stops the others and
        is raised as itself, not as a group."""
        answers: dict[str, str] = {}
        stopped: list[BaseException] = []

        async def prove(name: str, scope: anyio.CancelScope) -> None:
            try:
                answers[name] = await self.lemmas.prove(name, skeleton)
            except anyio.get_cancelled_exc_class():
                raise
            except Exception as exc:  # LimitExceededError of the attempt: the whole attempt stops
                stopped.append(exc)
                scope.cancel()
            else:
                if answers[name].startswith("PROVED"):
                    self.update(call_index, lambda call: dataclasses.replace(call, proved=(call.proved or 0) + 1))

        async with anyio.create_task_group() as group:
            for name in dict.fromkeys(names):
                group.start_soon(prove, name, group.cancel_scope)
        if stopped:
            raise stopped[0]
        return [answers[name] for name in dict.fromkeys(names)]


def earlier_sketch_text(sketch: Sketch | None) -> str:
    """An earlier campaign's sketch of the problem, as the next campaign's task shows it."""
    if sketch is None:
        return ""
    return render(
        "earlier_sketch.md",
        campaign=str(sketch.campaign),
        informal_proof=sketch.informal_proof,
        skeleton=sketch.skeleton,
    )


def informal_text(informal_statement: str | None) -> str:
    """The problem's informal statement as the task shows it (empty when the benchmark has none)."""
    text = clean_text(informal_statement or "").strip()
    return render("informal_statement.md", informal=text) if text else ""


@tool(name="sketch")
def sketch_tool(stage: SketchStage) -> Tool:
    async def execute(informal_proof: str, skeleton: str) -> str:
        """Start from an informal proof and a formal skeleton; the skeleton's holes are proved in parallel.

        Args:
            informal_proof: Your complete informal proof of the statement, step by step, as a mathematician
                would write it.
            skeleton: The whole statement file with each step of that proof stated as a helper lemma
                before the theorem, its proof left as a hole, and the theorem proved from the lemmas.

        Returns:
            The check of the skeleton and, for each hole, the proved lemma to put in its place or why it
            was not proved.
        """
        return await stage.sketch(clean_text(informal_proof), clean_text(skeleton))

    return execute
