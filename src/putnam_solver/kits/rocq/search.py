"""Rocq's own library search for the agent: ``Search``, ``SearchPattern``, ``SearchRewrite`` in a warm coqtop.

The model gives the command and its query; the harness writes the one sentence ``<command> <query>.``
and nothing else reaches coqtop. The query is untrusted text that must not be able to end that
sentence and start another (``Search x. Redirect "f" Print All.``), nor hide one in a comment, so it is
refused unless it is a single line without a period followed by a space or its end, without comment
delimiters and without the one command that writes files (``Redirect``); what is left is then lexed as
Rocq lexes it (``core.provers.rocq.syntax``) and must be exactly one sentence starting with the command.
A query that passes cannot do more than a search: the worst it can do is fail to parse, and coqtop's
error is the tool's answer.
"""

from __future__ import annotations

import re

from putnam_solver.core.provers.rocq.syntax import LexError, sentences

SEARCH_COMMANDS = ("Search", "SearchPattern", "SearchRewrite")
MAX_QUERY_CHARS = 400
MAX_HITS = 25
"""Search results shown (Rocq's order: the file it knows first); the answer says how many were left out."""
_SENTENCE_END = re.compile(r"\.(?=\s|$)")
_FORBIDDEN_WORDS = re.compile(r"\b(?:Redirect|Drop|Quit|Load|Declare)\b")


class SearchRefused(ValueError):
    """A query the harness will not send to coqtop; the message says why, for the model."""


def search_sentence(command: str, query: str) -> str:
    """The one Rocq sentence ``command query.``, or SearchRefused (see the module docstring)."""
    if command not in SEARCH_COMMANDS:
        raise SearchRefused(f"unknown search command {command!r}: use one of {', '.join(SEARCH_COMMANDS)}")
    query = query.strip().rstrip(".").strip()
    if not query:
        raise SearchRefused(f"{command} needs a query, e.g. {command} (_ + _ = _ + _)")
    if len(query) > MAX_QUERY_CHARS:
        raise SearchRefused(f"the query is longer than {MAX_QUERY_CHARS} characters")
    if any(ord(c) < 32 for c in query):
        raise SearchRefused("the query must be one line without control characters")
    if _SENTENCE_END.search(query):
        raise SearchRefused("the query may not contain a period followed by a space: it would end the command")
    if "(*" in query or "*)" in query:
        raise SearchRefused("the query may not contain comment delimiters (* or *)")
    if found := _FORBIDDEN_WORDS.search(query):
        raise SearchRefused(f"the query may not contain the command word {found.group(0)}")
    sentence = f"{command} {query}."
    try:
        parsed = sentences(sentence)
    except LexError as exc:
        raise SearchRefused(f"the query does not lex ({exc}): check its quotes") from exc
    if len(parsed) != 1 or parsed[0].command != command or not parsed[0].ended:
        raise SearchRefused("the query must be a single search: it would not stay one Rocq command")
    return sentence


def format_hits(output: str, max_hits: int = MAX_HITS) -> str:
    """coqtop's answer to a search, bounded to ``max_hits`` results (a result starts at column 0; its
    type may continue on indented lines)."""
    hits: list[list[str]] = []
    for line in output.strip("\n").splitlines():
        if line.startswith((" ", "\t")) and hits:
            hits[-1].append(line)
        elif line.strip():
            hits.append([line])
    if not hits:
        return "no results"
    shown = "\n".join("\n".join(hit) for hit in hits[:max_hits])
    more = f"\n... {len(hits) - max_hits} more results; narrow the query" if len(hits) > max_hits else ""
    return shown + more
