"""The model's own text in the Markdown files a run leaves for people to read (``plan.md``, ``sketch.md``).

A plan or a sketch's informal proof is the model's to write, and so is a skeleton. Written into a Markdown
file as it was, it rendered as markup wherever the file was viewed (a repository's page, an editor's
preview): ``<img src=https://...>`` or ``![](https://...)`` loaded a remote address each time, ``# Solved: 2
of 2 (100.0%), audited`` was a heading, a link looked like the harness's, and a skeleton holding a fence
line (``` ``` ```) closed ``sketch.md``'s code block so that the rest of it rendered (red team round 7).

So model text only ever enters such a file inside a fenced code block whose fence is longer than any run
of backticks in the text (CommonMark closes a fence only with one at least as long, and tildes never close
a backtick fence), with every control character but line feed and tab shown as its escape, a carriage
return included (CommonMark ends a line there; a terminal returns to the line's start): rendered, it is the
text it is, nothing loads and nothing is a heading, a link or markup; read with ``cat``, no escape sequence
acts.
"""

from __future__ import annotations

import re

from putnam_solver.terminal import terminal_text

_BACKTICKS = re.compile("`+")


def as_text(text: str, info: str = "text") -> str:
    """``text`` as one fenced code block of Markdown (see the module's docstring), ending with a line feed;
    ``info`` is the block's language (a word of the harness's, never the model's)."""
    shown = terminal_text(text)
    longest = max((len(run) for run in _BACKTICKS.findall(shown)), default=0)
    fence = "`" * max(3, longest + 1)
    body = shown if shown.endswith("\n") or not shown else shown + "\n"
    return f"{fence}{info}\n{body}{fence}\n"
