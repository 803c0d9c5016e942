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
"""

from __future__ import annotations

import re

__all__ = ["REPLACEMENT", "clean_text"]

REPLACEMENT = "\ufffd"
_UNSAFE = re.compile("[\ud800-\udfff\x00]")


def clean_text(text: str) -> str:
    """``text`` with every lone surrogate and NUL replaced by U+FFFD, so that it encodes as UTF-8.

    A ``str`` built by Python from bytes or JSON holds no surrogate pairs (a pair is decoded into one
    code point), so every surrogate left in one is a lone one.
    """
    return _UNSAFE.sub(REPLACEMENT, text)
