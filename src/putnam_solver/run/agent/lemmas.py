"""Lemma sub-attempts: ``prove_lemma(name)`` proves one helper lemma of the worker's file on its own.

The worker states helper lemmas before its theorem with their proofs left as holes and ``check``s the
file (a draft: the main proof is checked against the lemmas, the holes are listed). ``prove_lemma(name)``
then takes lemma ``name`` out of the file the worker checked last and makes its own statement file from
it and the challenge's header (the prover's ``Interactive.lemma_statement``), and runs a sub-attempt on
it: the same react loop with its own messages, its own turns (``Budgets.lemma_turns``) and tokens
(``Budgets.lemma_token_limit``, spent within the attempt's own), the tools of a worker but
``prove_lemma``, and the fast profile (G1-G4, under the acceptance profile's rules, as ``check``) on the
lemma file: a lemma does not pay the kernel replay or comparator run of the acceptance, which the final
file pays once. Several ``prove_lemma`` calls of one reply run concurrently (Inspect runs parallel tool
calls together).

What it answers is the proved lemma's text to put in place of the hole, or why it was not proved. The
final file is still judged as a whole by the acceptance profile (full by default): a lemma proved here
only saves work, and never counts on its own.

Every sub-attempt is reported at once (``AgentSetup.on_subattempt``: a campaign's
``CampaignJob.on_subattempt``, or the Inspect task's sample), before its attempt ends. A campaign's
ledger keeps the lemmas the fast gates accepted with their statements, proofs and hashes; later attempts
and campaigns on the same problem are offered them (``AgentSetup.lemmas``), and a ``prove_lemma`` of a
statement already proved answers from that cache without a model call.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

import anyio
from inspect_ai.model import ModelUsage
from inspect_ai.tool import Tool, tool
from inspect_ai.util import LimitExceededError, token_limit

from putnam_solver.core.benchmark import Benchmark, Problem
from putnam_solver.core.untrusted import clean_text
from putnam_solver.core.verify import Track
from putnam_solver.kits import get_kit
from putnam_solver.kits.interactive import Interactive, LemmaError
from putnam_solver.run.agent.history import history_budget
from putnam_solver.run.agent.pricing import attempt_tokens, usage_cost
from putnam_solver.run.agent.tools import ProblemContext, clip
from putnam_solver.run.agent.types import ProvedLemma, SubAttemptResult
from putnam_solver.run.agent.worker import AttemptState, Judge, first_messages, react_worker, worker_tools

if TYPE_CHECKING:
    from putnam_solver.run.agent.react import AgentSetup

MAX_FAILURE_CHARS = 1500


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class LemmaRunner:
    """The ``prove_lemma`` tool of one attempt, and the lemmas its problem has proved so far."""

    def __init__(self, setup: AgentSetup, ctx: ProblemContext, parent: AttemptState) -> None:
        self.setup = setup
        self.ctx = ctx
        self.parent = parent
        self.interactive: Interactive | None = get_kit(ctx.prover.name).interactive() if ctx.parts.lemmas else None
        self.known: dict[str, ProvedLemma] = {
            lemma.statement_sha256: lemma for lemma in setup.lemmas.get(ctx.problem.id, ())
        }

    def tools(self) -> list[Tool]:
        return [prove_lemma_tool(self)] if self.interactive is not None else []

    def proved(self, statement: str) -> ProvedLemma | None:
        """The lemma of this statement file proved so far (in this attempt or an earlier one), if any."""
        return self.known.get(_sha256(statement))

    async def prove(self, name: str, file: str | None = None) -> str:
        """Run (or take from the cache) the sub-attempt on lemma ``name`` of ``file`` (by default the file
        the worker checked last); the answer for the worker."""
        if self.interactive is None:
            return "prove_lemma is not available in this run"
        file = file if file is not None else self.parent.last_file
        if file is None:
            return "check your file first, with the lemma stated before the theorem and its proof left as a hole"
        try:
            statement = self.interactive.lemma_statement(self.ctx.challenge, file, name, self.ctx.track)
        except LemmaError as exc:
            return f"cannot prove {name} on its own: {exc}"
        digest = _sha256(statement)
        known = self.known.get(digest)
        if known is not None:
            self._report(
                SubAttemptResult(self.ctx.problem.id, self.parent.key, name, "cached", 0, 0, 0, 0.0, statement)
            )
            return (
                f"PROVED {name} (already proved for this problem: from the lemma cache, no model call). "
                f"Put this in place of its hole:\n```\n{known.text.strip()}\n```"
            )
        return await self._attempt(name, statement, digest)

    async def _attempt(self, name: str, statement: str, digest: str) -> str:
        from putnam_solver.run.agent.workspace import lemma_task_prompt, system_prompt

        config = self.setup.config
        sub_ctx = lemma_context(self.ctx, name, statement, digest)
        judge = Judge(sub_ctx, statement, None, None)
        state = AttemptState()
        messages = first_messages(
            system_prompt(self.ctx.prover, config, lemma=True), lemma_task_prompt(self.ctx.problem, name, statement)
        )
        tools = worker_tools(judge, state, self.setup.roots, self.setup.glob)
        limit = token_limit(config.budgets.lemma_token_limit)
        try:
            with limit:
                await react_worker(judge, state, messages, tools, config.budgets.lemma_turns, history_budget(config))
        except LimitExceededError as exc:
            state.limit = exc.message
            _count_last_call(state, int(limit.usage))
            if exc.source is not limit:  # the attempt's own budget: the whole attempt stops
                self._report(self._result(name, statement, state))
                raise
        except anyio.get_cancelled_exc_class():  # the run budget stopped the attempt
            state.limit = self.setup.stopped() or "stopped with its attempt"
            self._report(self._result(name, statement, state))
            raise
        except Exception as exc:
            state.error = clean_text(f"{type(exc).__name__}: {exc}")
        result = self._result(name, statement, state)
        self._report(result)
        if result.status == "passed" and result.lemma_text is not None:
            lemma = ProvedLemma(name, statement, digest, result.lemma_text, self.setup.campaign)
            self.known[digest] = lemma
            text = lemma.text.strip()
            how = "accepted by the fast gates on its own file"
            return f"PROVED {name} ({how}). Put this in place of its hole:\n```\n{text}\n```"
        return self._failure(name, result, state)

    def _result(self, name: str, statement: str, state: AttemptState) -> SubAttemptResult:
        model = self.setup.config.model
        cost, _ = usage_cost({model: state.usage}, self.setup.prices)
        input_tokens, output_tokens = attempt_tokens({model: state.usage})
        last = state.last
        status = _status(state)
        text = None
        if status == "passed" and last is not None and self.interactive is not None:
            text = self.interactive.lemma_text(statement, last.candidate)
        return SubAttemptResult(
            problem=self.ctx.problem.id,
            parent=self.parent.key,
            lemma=name,
            status=status,
            turns=state.turns,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_dollars=cost,
            statement=statement,
            candidate=last.candidate if last else None,
            verdict=last.verdict if last else None,
            lemma_text=text,
            error=state.error or state.limit,
            turn_log=state.turn_log,
        )

    def _failure(self, name: str, result: SubAttemptResult, state: AttemptState) -> str:
        why = {
            "budget": f"its budget ran out ({result.error})",
            "no_submission": "it submitted nothing",
            "rejected": "its last submission was rejected",
            "error": f"it failed ({result.error})",
        }.get(result.status, result.status)
        lines = [f"NOT PROVED: {name}, after {result.turns} turns: {why}."]
        if state.last is not None:
            lines += ["Its last submission's diagnostics:", clip(state.last.diagnostics, MAX_FAILURE_CHARS)]
        lines.append(f"You may call prove_lemma({name}) again, restate the lemma, or prove it yourself.")
        return "\n".join(lines)

    def _report(self, result: SubAttemptResult) -> None:
        if self.setup.on_subattempt is not None:
            self.setup.on_subattempt(result)


def _count_last_call(state: AttemptState, spent: int) -> None:
    """The call that ran over a limit raised instead of returning its output: its tokens are known only
    as the limit counted them, in total, and are counted as input tokens."""
    counted = state.usage.input_tokens + state.usage.output_tokens
    if spent > counted:
        state.usage = state.usage + ModelUsage(input_tokens=spent - counted, total_tokens=spent - counted)


def _status(state: AttemptState) -> str:
    if state.passed:
        return "passed"
    if state.error is not None:
        return "error"
    if state.limit is not None:
        return "budget"
    last = state.last
    return "no_submission" if last is None else "rejected"


def lemma_context(ctx: ProblemContext, name: str, statement: str, digest: str) -> ProblemContext:
    """The context of a lemma's sub-attempt: a problem of its own, whose statement is the lemma file (not
    pinned: it came from the model's file; it can never count as a pass of the benchmark problem), judged
    on the check's fast profile (the acceptance profile's rules, never AXLE) at submission too."""
    ident = f"{ctx.problem.id}__lemma_{re.sub(r'[^A-Za-z0-9]+', '_', name).strip('_') or 'x'}"
    problem = Problem(
        id=ident,
        formal_statement=statement,
        statement_sha256=digest,
        declared_sha256=None,
        informal_statement=None,
        informal_solution=None,
        tags=("lemma",),
    )
    benchmark = Benchmark(ctx.benchmark.path, digest, None, {ident: problem})
    return ProblemContext(
        prover=ctx.prover,
        benchmark=benchmark,
        problem=problem,
        track=Track.WITH_ANSWER,
        check_options=ctx.check_options,
        accept_options=ctx.check_options,
        pool=ctx.pool,
        parts=ctx.parts,
        verifier=ctx.verifier,
        toolchain=ctx.toolchain,
    )


@tool(name="prove_lemma")
def prove_lemma_tool(runner: LemmaRunner) -> Tool:
    async def execute(name: str) -> str:
        """Prove one helper lemma of the file you checked last, in a separate sub-attempt.

        Args:
            name: The name of a lemma stated before the theorem in that file, its proof left as a hole.

        Returns:
            The proved lemma, to put in place of its hole, or why it was not proved.
        """
        return await runner.prove(clean_text(name).strip())

    return execute
