"""What the CLI prints on a terminal: text others wrote, shown and never obeyed.

``putnam verify``, ``audit``, ``report`` and ``export`` print text that others chose: a compiler's messages
about a candidate (Coq's ``fail "..."`` and ``idtac "..."`` print any bytes, escape included), a proof
bundle's claimed statuses and toolchain names, a handed-over ledger's stored verdicts. An escape sequence
there is a command to the operator's terminal: ``ESC [1A ESC [2K`` erased the ``REJECTED`` line above it
and wrote ``ACCEPTED`` in its place, ``ESC [8m`` hid the true count printed after it (red team round 5).
Every string a console of the CLI prints (``clikit.TerminalConsole``), every line of ``putnam serve``'s log
and of ``putnam mcp``'s stderr therefore shows each control character (but line feed and tab) and each
bidirectional override as its escape (``\\x1b``), so the terminal sees only text. The harness's own colours
are rich markup, rendered by rich after this, so they are unchanged. This module imports nothing beyond the
standard library: ``putnam mcp`` uses it before anything else is imported.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def terminal_text(text: str) -> str:
    """``text`` with every character a terminal would act on instead of showing written as its escape (a
    line feed and a tab are kept; a carriage return before a line feed is dropped, as rich drops it)."""
    return _CONTROL.sub(_shown, text.replace("\r\n", "\n"))


def one_line(text: str) -> str:
    """``text`` as one line of a table or a note: every run of whitespace (line breaks included) one
    space, and every other control character shown (``terminal_text``)."""
    return terminal_text(" ".join(text.split()))


def shown_path(path: object) -> str:
    """A file's name as one piece of a line: a name chosen by others (an entry of a proof folder handed over)
    may hold a line break, and ``x<LF>ACCEPTED putnam_1962_a2 ...`` in a warning about it wrote a line of
    ``putnam verify``'s own (red team round 9 of the trust paths); so a line feed and a tab are shown as
    escapes too, with every other control character."""
    return terminal_text(str(path)).replace("\n", "\\x0a").replace("\t", "\\x09")
