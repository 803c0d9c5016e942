"""The worker's tools as Inspect tools: ``check``, ``goals``, the searches and ``submit``, all run harness-side.

What each does is in ``toolkit.py`` (no Inspect there, so that ``putnam mcp`` can call it); here they get
the names the model sees, and their descriptions and argument docs from ``tool_docs.py``, which ``putnam
mcp``'s tools read too. ``submit`` hands the file to the caller's acceptance routine (always the cold
gates).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
from inspect_ai.tool import Tool, tool

from putnam_solver.core.untrusted import clean_text
from putnam_solver.run.agent.tool_docs import CHECK, FIND_DECLARATIONS, GOALS, LIBRARY_SEARCH, SEARCH, documented
from putnam_solver.run.agent.toolkit import (  # the rest re-exported for the agent's other modules
    ProblemContext,
    annotate,
    check_text,
    clip,
    find_declarations,
    format_check,
    format_verdict,
    library_roots,
    prover_search,
    render,
    retrieval_tools,
    search_library,
    state_at,
    try_alternatives,
    verify_text,
)

CHECK_DOC = CHECK.extended(
    {
        "line": "With alternatives: the line (1-based) of proof that each alternative replaces.",
        "alternatives": "Up to 6 snippets to try in place of that line, each checked as its own file, so that "
        "several tactics are explored in one call.",
    },
    returns="With alternatives: one answer per alternative, in order.",
)
"""The worker's check also tries alternatives for one line (``try_alternatives``)."""


@tool(name="check")
def check_tool(ctx: ProblemContext, remember: Callable[[str], None] = lambda _: None) -> Tool:
    @documented(CHECK_DOC)
    async def execute(proof: str, line: int | None = None, alternatives: list[str] | None = None) -> str:
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
    @documented(GOALS)
    async def execute(proof: str, line: int) -> str:
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
    @documented(SEARCH)
    async def execute(pattern: str) -> str:
        return await anyio.to_thread.run_sync(search_library, roots, glob, clean_text(pattern))

    return execute


@tool(name="library_search")
def library_search_tool(ctx: ProblemContext) -> Tool:
    @documented(LIBRARY_SEARCH)
    async def execute(command: str, query: str) -> str:
        return await prover_search(ctx, clean_text(command).strip(), clean_text(query))

    return execute


@tool(name="find_declarations")
def find_declarations_tool(roots: tuple[Path, ...], suffix: str) -> Tool:
    @documented(FIND_DECLARATIONS)
    async def execute(query: str) -> str:
        return await anyio.to_thread.run_sync(find_declarations, roots, suffix, clean_text(query))

    return execute


def retrieval_tool_list(ctx: ProblemContext, roots: tuple[Path, ...], glob: str) -> list[Tool]:
    """The retrieval tools of ``retrieval_tools`` (the prover's search needs the session pool)."""
    names = retrieval_tools(ctx.prover, ctx.parts)
    return [
        *([library_search_tool(ctx)] if "library_search" in names and ctx.pool is not None else []),
        *([find_declarations_tool(roots, glob.removeprefix("*"))] if "find_declarations" in names else []),
    ]


__all__ = [
    "ProblemContext",
    "annotate",
    "check_tool",
    "clip",
    "find_declarations_tool",
    "format_check",
    "format_verdict",
    "goals_tool",
    "library_roots",
    "library_search_tool",
    "render",
    "retrieval_tool_list",
    "retrieval_tools",
    "search_tool",
    "submit_tool",
    "verify_text",
]
