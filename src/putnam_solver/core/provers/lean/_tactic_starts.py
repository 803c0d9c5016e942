"""Round 52: whether a token surely begins a tactic, for the pattern tactics of ``_rcases_patterns`` and the
binder tactics of ``_with_binders``.

Round 50 took a pattern tactic's word (``rcases``, ``obtain``, ``rintro``) for a tactic only right after
``by`` or a bullet, or first on its line at the column of a complete tactic holding no word that leaves a
term open. Published proofs write such tactics after ``;`` and ``<;>`` (``constructor <;> rcases h with ha |
hb``), after a combinator (``try``, ``all_goals``), in a tactic's brackets (``<;> (rcases ..)``), after a
``case``'s or a tactic alternative's ``=>``, and after a tactic of several lines holding a tactic ``have``;
each was refused (``hopen``, ``hend`` judged as tactic starts). Lean's reading (leanprover/lean4):

* ``tacticSeq1Indented := sepByIndent tacticParser "; "`` (src/Lean/Parser/Term.lean) and ``t <;> t'``
  (src/Init/Tactics.lean, ``seq_focus``) put a tactic after ``;`` and ``<;>``, unless the ``;`` belongs to a
  term: a ``let``/``have``/``show``/``suffices``/``do`` body (``optSemicolon``), an ``assert!``, a bracket's
  contents. So the tactic before the separator is walked back at its bracket level to where it begins (``by``,
  ``;``, ``<;>``, ``=>``, an open bracket, a bullet, its line's start): it must hold no such word there
  (:data:`OPEN_WORDS`), and that start must surely begin a tactic itself;
* ``try``, ``all_goals``, ``any_goals``, ``repeat``, ``focus`` take a ``tacticSeq`` (src/Init/Tactics.lean),
  a tactic's ``(`` a ``tacticSeq`` (``paren``), ``first`` a ``| tacticSeq``: after those at a tactic's start;
* ``case tag x =>`` and ``next x =>`` take a ``tacticSeq`` after ``=>`` (src/Init/Tactics.lean); so do the
  alternatives ``| pat => ..`` of a tactic ``cases``, ``induction``, ``match`` or ``intro`` (``inductionAlts``,
  ``Tactic.matchAlts``): the ``|`` first on its line, the lines back to the owner deeper or other such
  alternatives (none holding a term ``match`` or ``fun``, whose alternatives could take the ``|``), the owner's
  line ending in ``with`` (``intro``: the word alone) and the owner surely a tactic.

* first on its line at the column of the nearest line before it not deeper (``checkColEq``), where the tactic
  from there ends complete (a name, number, closing bracket, ``⊢`` or ``at *``), leaves no bracket open and,
  outside brackets (a bracket ends what it holds), no open word: a tactic ``have``/``let``/``show`` first on
  its line that surely begins a tactic takes no body, and a ``case``'s, tactic alternative's or ``conv``'s
  ``=>`` (``convSeq``) leaves no term open.

Anything else is no tactic start here (fail closed: a name after it is judged where a tactic may begin). One
question reads at most :data:`_REACH` tokens back and waits on at most :data:`_DEPTH` others; each answer is
kept, so the work stays bounded whatever the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._match_arms import WALK
from putnam_solver.core.provers.lean._tokens import IDENT, NUMBER, Token

OPEN_WORDS: Final = frozenset(
    {"let", "have", "show", "suffices", "fun", "λ", "calc", "do", "match", "if", "then", "else", "from", "=>",
     "↦", "letI", "haveI", "let_fun", "assert!", "debug_assert!", "dbg_trace"}
)  # fmt: skip
"""Words after which a term or tactic block may go on past a ``;`` or to the next line whatever its column."""
_TACTIC_HEADS: Final = frozenset({"have", "let", "show", "suffices", "calc", "haveI", "letI"})
"""Open words that begin a tactic of their own (``Lean.Parser.Tactic.tacticHave_``...): no body follows."""
_TAKE_TACTIC: Final = frozenset({"try", "all_goals", "any_goals", "repeat", "focus", "("})
_CASE_WORDS: Final = frozenset({"case", "case'", "next"})
_CONV_WORDS: Final = frozenset({"conv", "conv_lhs", "conv_rhs"})
_ALT_OWNERS: Final = frozenset({"cases", "induction", "match", "intro", "fun_induction", "fun_cases"})
_PATTERN: Final = frozenset({"_", "@", ".", ",", "(", ")", "⟨", "⟩"})
"""Tokens besides names and numbers an alternative's pattern holds (``| .inl ⟨a, b⟩ =>``)."""
_ENDS: Final = frozenset({")", "]", "}", "⟩", "⊢"})
"""Tokens besides names and numbers that end a complete tactic (``simp at h ⊢``; ``at *`` too)."""
_OPENERS: Final = frozenset({"(", "[", "{", "⟨"})
_CLOSERS: Final = {")": "(", "]": "[", "}": "{", "⟩": "⟨"}
_STOPS: Final = frozenset({"by", ";", "<;>", "=>"})
_TERM_ALTS: Final = frozenset({"match", "fun", "λ"})
_REACH: Final = 8 * WALK
"""How far back one question reads (a tactic after a long one may stand far from the line it aligns with)."""
_DEPTH: Final = 48
"""How many answers one question may wait on; deeper, no tactic start is found (fail closed)."""


class TacticStarts:
    """Which tokens of ``code`` surely begin a tactic (see the module's text), each answer kept."""

    def __init__(self, code: Sequence[Token]) -> None:
        self._code = code
        self._known: dict[tuple[int, int], bool] = {}
        self._waiting = 0

    def begins(self, k: int, floor: int | None = None) -> bool:
        """Whether ``code[k]`` surely begins a tactic; nothing at or before ``floor`` (``k - WALK`` unless
        given) is read."""
        low = max(0, k - _REACH) if floor is None else floor
        key = (k, low)
        if key not in self._known:
            if self._waiting >= _DEPTH:
                return False
            self._waiting += 1
            try:
                self._known[key] = self._begins(k, low)
            finally:
                self._waiting -= 1
        return self._known[key]

    def _begins(self, k: int, low: int) -> bool:
        code = self._code
        if k == 0:
            return True
        if k <= low:
            return False
        prev = code[k - 1]
        if prev.text == "by" or bullet(code, k - 1):
            return True
        if prev.text == "=>":
            return self._arrow_leads(k - 1, low)
        if prev.text in (";", "<;>"):
            start = self.start_before(k - 1, low)
            return start is not None and self.begins(start, low)
        if prev.text in _TAKE_TACTIC:
            return self.begins(k - 1, low)
        if prev.line != code[k].line:
            return self._next_line(k, low)
        if prev.text == "|" and code[k - 2].text == "first":
            return self.begins(k - 2, low)
        return False

    def start_before(self, sep: int, low: int | None = None) -> int | None:
        """Where the tactic before ``code[sep]`` (a separator, a ``with``) begins, walked back in its brackets
        to a stop, an open bracket or its line's start; None where a word of :data:`OPEN_WORDS` stands between
        (after its first token)."""
        low = max(0, sep - _REACH) if low is None else low
        code, start, between, i = self._code, None, [], sep - 1
        while i > low:
            text = code[i].text
            line = code[sep if start is None else start].line
            if text in _STOPS or text in _TAKE_TACTIC or text in _OPENERS or code[i].line != line or bullet(code, i):
                break
            if start is not None:
                between.append(code[start].text)
            start = i if text not in _CLOSERS else opening(code, i)
            if start is None:
                return None
            i = start - 1
        return None if start is None or not OPEN_WORDS.isdisjoint(between) else start

    def _next_line(self, k: int, low: int) -> bool:
        """A token first on its line: at the column of the nearest line before it not deeper (a bullet
        skipped, a tactic alternative's ``|`` passed), where the tactic from there is complete (it ends in a
        name, number or closing bracket) and closed (:meth:`_closed`): ``sepByIndent``'s next tactic
        (``checkColEq``)."""
        code = self._code
        last, col = code[k - 1], code[k].col
        if not (last.kind in (IDENT, NUMBER) or last.text in _ENDS or (last.text == "*" and code[k - 2].text == "at")):
            return False
        first = k - 1
        while first > low:
            if code[first - 1].line != code[first].line:
                head = first + 1 if bullet(code, first) and code[first + 1].line == code[first].line else first
                if code[head].col < col or (code[head].col == col and code[head].text != "|"):
                    return code[head].col == col and self._closed(head, k, low)
            first -= 1
        return False

    def _closed(self, head: int, k: int, low: int) -> bool:
        """Whether the tactic from ``head`` up to ``code[k]`` leaves no bracket open and, outside brackets (a
        bracket ends what it holds), no open word: a tactic ``have`` first on its line and a tactic
        alternative's or ``case``'s ``=>`` excepted."""
        code, depth = self._code, 0
        for i in range(head + 1, k):
            text = code[i].text
            depth += (text in ("(", "[", "{", "⟨")) - (text in (")", "]", "}", "⟩"))
            if depth < 0:
                return False
            if depth or text not in OPEN_WORDS:
                continue
            first = code[i - 1].line != code[i].line or bullet(code, i - 1)
            if text in _TACTIC_HEADS and first and self.begins(i, low):
                continue
            if text == "=>" and self._arrow_leads(i, low, conv=True):
                continue
            return False
        return depth == 0

    def _arrow_leads(self, arrow: int, low: int, conv: bool = False) -> bool:
        """Whether a tactic follows the ``=>`` at ``arrow``: a ``case``'s or ``next``'s (binder names between),
        or a tactic alternative's (:meth:`_tactic_alternative`); with ``conv``, also a conversion block
        (``conv_lhs => rw [h]``: no term, whatever it holds, ``convSeq``)."""
        code, i = self._code, arrow - 1
        while i > low and code[i].line == code[arrow].line:
            text = code[i].text
            if text in _CASE_WORDS or (conv and text in _CONV_WORDS):
                return self.begins(i, low)
            if text == "|" and code[i - 1].line != code[i].line:
                return self._tactic_alternative(i, low)
            if not (code[i].kind in (IDENT, NUMBER) or text in _PATTERN or text == "|"):
                return False
            i -= 1
        return False

    def _tactic_alternative(self, bar: int, low: int) -> bool:
        """Whether the ``|`` first on its line at ``bar`` is an alternative of a tactic of :data:`_ALT_OWNERS`:
        the lines back to the owner deeper or such alternatives, none holding a term ``match`` or ``fun``."""
        code, col, i = self._code, self._code[bar].col, bar - 1
        while i > low:
            if code[i - 1].line != code[i].line:
                head = i + 1 if bullet(code, i) and code[i + 1].line == code[i].line else i
                if code[head].col < col or (code[head].col == col and code[head].text != "|"):
                    return self._no_term_alternatives(head, bar) and self._owns(head, bar, low)
            i -= 1
        return False

    def _no_term_alternatives(self, head: int, bar: int) -> bool:
        """Whether no term ``match`` and no ``fun`` or ``λ`` before a ``|`` stands after ``head`` before ``bar``:
        none holds alternatives that could take the ``|`` at ``bar``."""
        code = self._code
        return not any(
            code[j].text == "match" or (code[j].text in _TERM_ALTS and code[j + 1].text == "|")
            for j in range(head + 1, bar)
        )

    def _owns(self, head: int, bar: int, low: int) -> bool:
        """Whether the line at ``head`` is a tactic whose alternatives follow: it begins with a word of
        :data:`_ALT_OWNERS`, ends in ``with`` (``intro``: alone), holds no open word, and surely begins a
        tactic."""
        code = self._code
        words = [code[i].text for i in range(head, bar) if code[i].line == code[head].line]
        if words[0] not in _ALT_OWNERS or not OPEN_WORDS.isdisjoint(words[1:]) or "|" in words:
            return False
        return (words[-1] == "with" or words == ["intro"]) and self.begins(head, low)


def bullet(code: Sequence[Token], k: int) -> bool:
    """Whether ``code[k]`` is a bullet (``·`` or ``.``) first on its line."""
    return code[k].text in ("·", ".") and (k == 0 or code[k - 1].line != code[k].line)


def opening(code: Sequence[Token], close: int) -> int | None:
    """The index of the bracket that ``code[close]`` closes, within :data:`WALK` tokens; None if not found."""
    stack = [_CLOSERS[code[close].text]]
    for i in range(close - 1, max(-1, close - WALK), -1):
        text = code[i].text
        if text in _CLOSERS:
            stack.append(_CLOSERS[text])
        elif text in _CLOSERS.values():
            if text != stack.pop():
                return None
            if not stack:
                return i
    return None
