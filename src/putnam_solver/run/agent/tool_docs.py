"""What a tool tells the model that calls it, written once for our worker's tools and ``putnam mcp``'s.

Inspect builds a tool's description and its arguments' descriptions from the docstring of the function the
model calls (Google style: a summary, ``Args:``, ``Returns:``); the MCP SDK sends a tool function's
docstring whole as the tool's description. Both kinds of tool get their docstring from a :class:`ToolDoc`
here (:func:`documented`), so that the worker and an MCP client read the same words. Where the two differ
in arguments, the difference is added to the shared text, never a second copy of it: an MCP tool serves
every problem of its benchmark, so it also takes the problem and the track (:meth:`ToolDoc.on_problem`);
the worker's ``check`` also tries alternatives (:meth:`ToolDoc.extended`). No Inspect and no SDK here:
``putnam mcp`` imports this without the agent stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

Function = TypeVar("Function", bound=Callable[..., object])


@dataclass(frozen=True)
class ToolDoc:
    """One tool's docstring in parts: what it does, its arguments in order, what it returns."""

    summary: str
    args: tuple[tuple[str, str], ...]
    returns: str

    def extended(self, args: dict[str, str], returns: str = "") -> ToolDoc:
        """The same tool with more arguments after its own, and ``returns`` added to what it returns."""
        return ToolDoc(self.summary, (*self.args, *args.items()), f"{self.returns} {returns}".strip())

    def on_problem(self) -> ToolDoc:
        """The tool as an MCP tool that serves any problem of the benchmark: the problem first, the track
        last (our worker's tools are bound to its own problem and track)."""
        return ToolDoc(self.summary, (("problem", PROBLEM), *self.args, ("track", TRACK)), self.returns)

    def docstring(self) -> str:
        args = "\n".join(f"    {name}: {text}" for name, text in self.args)
        return f"{self.summary}\n\nArgs:\n{args}\n\nReturns:\n    {self.returns}\n"


def documented(doc: ToolDoc) -> Callable[[Function], Function]:
    """Give a tool function its docstring from ``doc`` (below the decorator that registers the tool,
    which reads it)."""

    def apply(function: Function) -> Function:
        function.__doc__ = doc.docstring()
        return function

    return apply


PROBLEM = "A problem id from list_problems."
TRACK = "As for get_statement; default: the server's track."
PROOF = "The whole file's text: the statement exactly as given, with the proof filled in."

CHECK = ToolDoc(
    "Check a proof file with the fast gates (statement preserved, nothing forbidden, compiles).",
    (("proof", PROOF),),
    "PASSED, or the failing gate with the first errors (line, column, offending line) and the unsolved goals; "
    "for a draft with holes, which holes remain.",
)

GOALS = ToolDoc(
    "Show the proof state (hypotheses and goals) at the end of one line of a proof file.",
    (
        ("proof", "The whole file's text, as for check (holes allowed)."),
        ("line", "The line number (1-based) after which to show the state."),
    ),
    "The hypotheses and goals there, and any error reported up to that line.",
)

SEARCH = ToolDoc(
    "Search the prover's library sources (read-only) with a ripgrep regular expression.",
    (("pattern", "A regular expression (Rust regex syntax), e.g. a lemma name or a statement fragment."),),
    "Matching lines as path:line:text, at most a few per file, bounded in total.",
)

LIBRARY_SEARCH = ToolDoc(
    "Ask the prover which library lemmas fit, by type (not by text), with the problem's imports loaded.",
    (
        (
            "command",
            'Search (lemmas mentioning every term, pattern or "name fragment" given), SearchPattern (lemmas '
            "whose conclusion matches a pattern) or SearchRewrite (equations one side of which matches a "
            "pattern).",
        ),
        (
            "query",
            "What follows the command, one line without a period at its end, e.g. (_ + _ = _ + _), "
            'Nat.add "comm", (_ * (_ + _)), (Rabs _ <= _)%R.',
        ),
    ),
    "The matching lemmas with their statements (at most 25), or the prover's error for the query.",
)

FIND_DECLARATIONS = ToolDoc(
    "Rank the library's declarations (name, statement, doc comment) against a goal or description.",
    (
        (
            "query",
            'A goal as the prover prints it, a statement fragment or words, e.g. "a mod n mod n = a mod n" or '
            '"absolute value triangle inequality".',
        ),
    ),
    "The 10 best-matching declarations, best first, each with its statement and source location.",
)
