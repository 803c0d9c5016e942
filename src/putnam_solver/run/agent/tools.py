"""The worker's tools as Inspect tools: ``check``, ``goals``, the searches and ``submit``, all run harness-side.

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


@tool(name="library_search")
def library_search_tool(ctx: ProblemContext) -> Tool:
    async def execute(command: str, query: str) -> str:
        """Ask Rocq which library lemmas fit, by type (not by text), with the statement's imports loaded.

        Args:
            command: Search (lemmas mentioning every term, pattern or "name fragment" given),
                SearchPattern (lemmas whose conclusion matches a pattern) or SearchRewrite (equations one
                side of which matches a pattern).
            query: What follows the command, one line without a period at its end, e.g.
                (_ + _ = _ + _), Nat.add "comm", (_ * (_ + _)), (Rabs _ <= _)%R.

        Returns:
            The matching lemmas with their statements (at most 25), or Rocq's error for the query.
        """
        return await prover_search(ctx, clean_text(command).strip(), clean_text(query))

    return execute


@tool(name="find_declarations")
def find_declarations_tool(roots: tuple[Path, ...], suffix: str) -> Tool:
    async def execute(query: str) -> str:
        """Rank the library's declarations (name, statement, doc comment) against a goal or description.

        Args:
            query: A goal as the prover prints it, a statement fragment or words, e.g.
                "a mod n mod n = a mod n" or "absolute value triangle inequality".

        Returns:
            The 10 best-matching declarations, best first, each with its statement and source location.
        """
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
