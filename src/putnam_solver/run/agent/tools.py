"""The worker's tools as Inspect tools: ``check``, ``goals``, ``search`` and ``submit``, all run harness-side.

What each does is in ``toolkit.py`` (no Inspect there, so that ``putnam mcp`` can call it); here they get
the names, descriptions and argument docs the model sees. ``submit`` hands the file to the caller's
acceptance routine (always the cold gates).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
from inspect_ai.tool import Tool, tool

from putnam_solver.core.untrusted import clean_text
from putnam_solver.run.agent.toolkit import (  # the rest re-exported for the agent's other modules
    ProblemContext,
    annotate,
    check_text,
    clip,
    format_check,
    format_verdict,
    library_roots,
    render,
    search_library,
    state_at,
    try_alternatives,
    verify_text,
)


@tool(name="check")
def check_tool(ctx: ProblemContext, remember: Callable[[str], None] = lambda _: None) -> Tool:
    async def execute(proof: str, line: int | None = None, alternatives: list[str] | None = None) -> str:
        """Verify a proof file with the fast gates (statement preserved, nothing forbidden, compiles).

        Args:
            proof: The whole file's text: the statement exactly as given, with the proof filled in.
            line: With alternatives: the line (1-based) of proof that each alternative replaces.
            alternatives: Up to 6 snippets to try in place of that line, each checked as its own file, so
                that several tactics are explored in one call.

        Returns:
            PASSED, or the failing gate with the first errors (line, column, offending line) and the
            unsolved goals; for a draft with holes, which holes remain. With alternatives: one answer per
            alternative, in order.
        """
        proof = clean_text(proof)
        if alternatives:
            return await try_alternatives(ctx, proof, line, [clean_text(a) for a in alternatives])
        remember(proof)
        outcome = await check_text(ctx, proof)
        if isinstance(outcome, str):
            return outcome
        return format_check(outcome, proof)

    return execute


@tool(name="goals")
def goals_tool(ctx: ProblemContext) -> Tool:
    async def execute(proof: str, line: int) -> str:
        """Show the proof state (hypotheses and goals) at the end of one line of a proof file.

        Args:
            proof: The whole file's text, as for check (holes allowed).
            line: The line number (1-based) after which to show the state.

        Returns:
            The hypotheses and goals there, and any error reported up to that line.
        """
        return await state_at(ctx, clean_text(proof), int(line))

    return execute


@tool(name="submit")
def submit_tool(accept: Callable[[str], Awaitable[str]]) -> Tool:
    async def execute(proof: str) -> str:
        """Submit the final proof file for acceptance (all gates). Only call this when check passes.

        Args:
            proof: The whole file's text: the statement exactly as given, with the proof filled in.

        Returns:
            Whether the proof was accepted; if not, why, so that you can fix it and submit again.
        """
        return await accept(clean_text(proof))

    return execute


@tool(name="search")
def search_tool(roots: tuple[Path, ...], glob: str) -> Tool:
    async def execute(pattern: str) -> str:
        """Search the prover's library sources (read-only) with a ripgrep regular expression.

        Args:
            pattern: A regular expression (Rust regex syntax), e.g. a lemma name or a statement fragment.

        Returns:
            Matching lines as path:line:text, at most a few per file, bounded in total.
        """
        return await anyio.to_thread.run_sync(search_library, roots, glob, clean_text(pattern))

    return execute


__all__ = [
    "ProblemContext",
    "annotate",
    "check_tool",
    "clip",
    "format_check",
    "format_verdict",
    "goals_tool",
    "library_roots",
    "render",
    "search_tool",
    "submit_tool",
    "verify_text",
]
