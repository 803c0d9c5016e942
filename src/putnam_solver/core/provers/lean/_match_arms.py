"""Which ``match`` or ``fun`` holds an alternative ``| pattern => rhs``, for G3's tactic places
(``_tactic_position``): the arm's right-hand side stands where that ``match`` does (a term after a term's
``match``), and after a ``fun``'s (or ``λ``'s) ``| pattern =>`` always a term.

Round 30. Round 29 walked back from an arm's ``=>`` through earlier arms to ``with`` and ``match`` on one
line; it refused ``match a\\n  with``, discriminants over two lines, ``| 0\\n  | 1 => rhs`` (two patterns for one
right-hand side) and every ``fun | p => rhs``, and it gave an arm to the nearest ``match`` back even where
Lean gives it to an enclosing tactic: in ``intro\\n  | 0 => exact match b with\\n    | 0 => 1\\n  | _ => tac``
the last line is ``intro``'s alternative, a tactic, since the term ``match``'s alternatives ended at a ``|``
left of their first.

Lean's reading (src/Lean/Parser/Term.lean): ``matchAlts`` is ``withPosition (many1Indent matchAlt)``, so an
alternative's ``|`` must stand at or right of the column of the first ``|`` (``checkColGe``), and a nested
construct left open in an earlier arm's right-hand side takes the ``|`` first (parsers are greedy) unless its
own saved column is right of it. So each ``|`` is traced back to the one before it in the same alternatives,
and the first one must follow ``with`` (of a ``match``), ``fun`` or ``λ``:

* a ``|`` first on its line, at column c: every token back to the ``|`` before it stands right of c (so each
  construct opened there has ended: its saved column is right of c), and that one stands at or left of c;
* a ``|`` after other tokens on its line: back to the ``|`` before it only pattern tokens (``| 0 | 1 =>``), or a
  right-hand side without a ``by`` block that may hold alternatives of its own (round 31: one tactic of a
  list that takes none may stand there, ``| 0 => by simp | 1 => t``) and the previous
  arm's ``=>`` and patterns, every line they continue on right of that ``|`` (a line further left ends the
  alternatives, and may begin a tactic that takes alternatives: ``intro | 1 => tac``);
* the discriminants between ``match`` and ``with`` hold no ``=>``, ``|`` or block word, and each line they
  continue on stands right of the line ``match`` is on.

Anything else gives no owner, and the arm is read as a tactic's place (fail closed). Each ``|`` is traced once
(memoised), each step within :data:`WALK` tokens, so a long ``match`` costs linear work.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import pairwise
from typing import Final

from putnam_solver.core.provers.lean._tokens import Token

WALK: Final = 256
"""How far back one step of a walk goes; beyond it nothing is found (the place is taken for a tactic's)."""
NOT_IN_PATTERN: Final = frozenset({"=>", "by", ";", ":=", "then", "else", "do", "with", "match", "fun", "λ", "<;>"})
"""Tokens no arm pattern and no discriminant of a ``match`` holds at its own bracket level."""
_HEADS: Final = frozenset({"fun", "λ"})
_OPENERS: Final = frozenset({"(", "[", "{", "⟨"})
_CLOSERS: Final = frozenset({")", "]", "}", "⟩"})


def level(code: Sequence[Token], start: int) -> Iterator[tuple[int, str]]:
    """The index and text of each token before ``code[start]`` in the same brackets, nearest first, within
    :data:`WALK` tokens; it stops where those brackets open."""
    depth = 0
    for i in range(start - 1, max(-1, start - WALK), -1):
        text = code[i].text
        if text in _CLOSERS:
            depth += 1
        elif text in _OPENERS:
            depth -= 1
            if depth < 0:
                return
        elif not depth:
            yield i, text


CLOSING_TACTICS: Final = frozenset(
    {"exact", "simp", "simp_all", "norm_num", "omega", "decide", "rfl", "linarith", "nlinarith", "positivity",
     "ring", "ring_nf", "trivial", "tauto", "assumption", "contradiction", "simpa", "field_simp", "norm_cast",
     "push_cast", "exact_mod_cast", "apply", "rw", "rwa"}
)  # fmt: skip
"""Tactics that take no alternatives: after ``by`` and one of them, on one line, a ``|`` no construct left open
takes ends the tactic block (``sepByIndent``: a next tactic needs a new line or ``;``) and is the next arm's."""


def _closed_blocks(code: Sequence[Token], arrow: int, bar: int) -> bool:
    """Whether the right-hand side between an arm's ``=>`` at ``arrow`` and the ``|`` at ``bar`` on its line
    leaves nothing open that takes alternatives: it holds no ``by`` outside brackets (a bracket closes what
    it holds), or one, on that line, whose one tactic is of :data:`CLOSING_TACTICS` with arguments that open
    no block (``| 0 => by simp [h] | _ => t``: Lean's ``by`` block ends before the ``|``, round 31). Anything
    else may hold alternatives of its own (``by intro | 0 => t | _ => u``): not closed, fail closed."""
    between = [(j, code[j].text) for j, _ in level(code, bar) if j > arrow]
    words = [text for _, text in reversed(between)]
    if "by" not in words:
        return True
    start = words.index("by")
    rest = words[start + 1 :]  # no `|` among them: the walk to the `=>` stopped at none
    same_line = code[between[-1 - start][0]].line == code[bar].line
    return same_line and bool(rest) and rest[0] in CLOSING_TACTICS and NOT_IN_PATTERN.isdisjoint(rest)


class ArmOwners:
    """The ``match``, ``fun`` or ``λ`` whose alternative an ``=>`` ends (:meth:`of_arrow`), in ``code``."""

    def __init__(self, code: Sequence[Token]) -> None:
        self.code = code
        self.owners: dict[int, int | None] = {}  # a `|` -> the head of its alternatives, or None
        self.starts: dict[int, int] | None = None  # a line -> the column of its first token, once needed

    def of_arrow(self, arrow: int) -> int | None:
        """The owner of the alternative the ``=>`` at ``arrow`` ends, None when not found."""
        bar = self._bar_before(arrow)
        return None if bar is None else self._of_bar(bar)

    def _bar_before(self, arrow: int) -> int | None:
        """The ``|`` right before an arm's patterns, the ``=>`` at ``arrow`` ending them."""
        for i, text in level(self.code, arrow):
            if text == "|":
                return i
            if text in NOT_IN_PATTERN:
                return None
        return None

    def _of_bar(self, bar: int) -> int | None:
        chain: list[int] = []  # the bars traced, each to the one before it, until one whose owner is known
        at: int | None = bar
        while at is not None and at not in self.owners:
            chain.append(at)
            if at and self.code[at - 1].text in _HEADS:
                found: int | None = at - 1
                break
            if at and self.code[at - 1].text == "with":
                found = self._match_before(at - 1)
                break
            at = self._previous(at)
        else:
            found = None if at is None else self.owners[at]
        for traced in chain:
            self.owners[traced] = found
        return found

    def _previous(self, bar: int) -> int | None:
        """The ``|`` before ``bar`` in the same alternatives (see the module's text), None when there is none."""
        code, found = self.code, None
        if not bar or code[bar - 1].line < code[bar].line:
            col = code[bar].col
            for i, text in level(code, bar):
                if code[i].col <= col:
                    return i if text == "|" else None
            return None
        for i, text in level(code, bar):
            if text == "|":
                found = i if all(code[j].text not in NOT_IN_PATTERN for j in range(i + 1, bar)) else None
                break
            if text == "=>":
                found = self._bar_before(i) if _closed_blocks(code, i, bar) else None
                break
        if found is None:
            return None
        between = code[found:bar]  # lines it continues on must stand right of that `|`, or the arm has ended
        ended = any(b.line > a.line and b.col <= code[found].col for a, b in pairwise(between))
        return None if ended else found

    def _match_before(self, with_: int) -> int | None:
        """The ``match`` whose discriminants end at the ``with`` at ``with_``."""
        code = self.code
        for i, text in level(code, with_):
            if text == "match":
                if self.starts is None:
                    self.starts = {t.line: t.col for t in reversed(code)}
                start, line = self.starts[code[i].line], code[i].line
                shallow = any(t.line > line and t.col <= start for t in code[i + 1 : with_ + 1])
                return None if shallow else i
            if text in NOT_IN_PATTERN or text == "|":
                return None
        return None
