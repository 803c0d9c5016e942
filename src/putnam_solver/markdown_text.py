"""Text others chose, written where Markdown renders it: shown as the text it is, never as markup.

A compiler's message quotes a candidate (coqc prints a ``fail "..."`` message as it is), and a model writes
its plans, sketches and a reviewer's feedback; wherever such text lands in a Markdown page (SUMMARY.md's
cells, an Inspect log's score explanation, which ``inspect view`` renders as Markdown) it is one line with
every character that starts markup behind a backslash, so that it cannot be a heading, a link, an image,
emphasis or raw HTML (red team rounds 6 and 7).
"""

from __future__ import annotations

import re

from putnam_solver.terminal import terminal_text

LINE_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Every character a TSV reader may end a cell or a line at: tab, line feed, carriage return and every other
control character (Python's ``splitlines`` also splits at ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``, ``\\x85``,
``\\u2028`` and ``\\u2029``)."""

MARKUP = re.compile(r"[\\`*\[<&|~]|_(?![^\W_])|(?<![^\W_])_")
"""Every character with which Markdown text starts markup in the middle of a line: raw HTML and autolinks
(``<``), entities (``&``), links and images (``[``), emphasis (``*``, and ``_`` except between two letters or
digits, where CommonMark never reads it as emphasis), code spans, GFM's strikethrough and table cells, and
the backslash itself."""

_BLOCK_START = re.compile(r"[!-/:-@\[-`{-~]|\d+(?=[.)])")
"""What can open a block at the start of a line (a heading's ``#``, a quote's ``>``, a list's ``-``, ``+`` or
``1.``, a thematic break, a table's ``|``...): any ASCII punctuation, or the number of an ordered list item."""


def inline(text: str) -> str:
    """``text`` on one line (every line break and control character a space), each markup character behind
    a backslash (``MARKUP``), and each bidirectional control shown as its escape (``terminal_text``: a
    ``U+202E`` turned the rest of a SUMMARY.md line around, as red team 10 found in attempts.tsv; red team
    11): for the middle of a line, a table cell or a list item."""
    return terminal_text(MARKUP.sub(lambda m: "\\" + m.group(), LINE_BREAKS.sub(" ", text)))


def paragraph(text: str) -> str:
    """``text`` as a paragraph of its own: ``inline``, and what it starts with cannot open a block (a
    leading ``#`` or ``>`` is escaped, a leading ``1.`` is written ``1\\.``)."""
    shown = inline(text).lstrip(" ")
    found = _BLOCK_START.match(shown)
    if found is None or shown.startswith("\\"):
        return shown
    if found.group().isdigit():
        end = found.end()
        return f"{shown[:end]}\\{shown[end:]}"
    return "\\" + shown
