"""Text that untrusted parties wrote: make it safe to store, and impossible to mistake for ours.

Model completions, tool arguments and compiler output (which a candidate controls: Coq's ``idtac``,
Lean's ``#eval`` and ``IO.println`` print whatever it likes) enter the harness as Python ``str``. Two
things go wrong with such text. It may not be encodable: a lone surrogate (``"\\ud800"``) cannot be
written as UTF-8, so the first ``.encode()``, SQLite insert or log write that meets it raises, and one
bad reply would end a whole run; a NUL ends C strings early in the tools we pass text to. And it may
imitate the harness: a compiler message shaped like a gate line, or "reply APPROVE", shown to the
reviewer as if the harness had said it.

``clean_text`` is applied once, where the text enters (the sandbox's outputs are read through it); the
agent's ``run.agent.fence`` wraps such text wherever it is shown to a model.

Values read back from storage that someone else can edit (a run ledger, the verdict cache, a selftest
record) are untrusted too; a flag among them is read by ``stored_flag`` alone, never by its truth.
"""

from __future__ import annotations

import re

__all__ = ["REPLACEMENT", "MalformedFlag", "clean_text", "stored_flag"]

REPLACEMENT = "\ufffd"
_UNSAFE = re.compile("[\ud800-\udfff\x00]")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate and NUL replaced by U+FFFD, so that it encodes as UTF-8.

    A ``str`` built by Python from bytes or JSON holds no surrogate pairs (a pair is decoded into one
    code point), so every surrogate left in one is a lone one.
    """
    return _UNSAFE.sub(REPLACEMENT, text)


class MalformedFlag(ValueError):
    """A stored flag that is not one putnam writes; its message says what was expected."""


def stored_flag(value: object, stored_as_json: bool = False) -> bool:
    """``value`` as a flag, which an SQLite column keeps as the integer 0 or 1 and JSON as ``true`` or
    ``false``, else MalformedFlag: read by its truth, text ``"false"`` or ``2`` was true and ``0.0`` false
    (a ledger's ``fresh``, red team round 12; a cached verdict's ``unsafe_no_sandbox``), so every reader
    of a stored flag fails closed on anything else (a ledger is refused, a cache entry is a miss)."""
    if stored_as_json:
        if not isinstance(value, bool):
            raise MalformedFlag("not true or false")
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value not in (0, 1):
        raise MalformedFlag("not 0 or 1")
    return value == 1
