"""Whether a word of a proof may be a tactic keyword, for G3's configuration items (``_evaluated``).

Red team 28. Red team 27 read a configuration item ``(opt := v)`` only after a tactic word of a list
(``_evaluated.CONFIG_TACTICS``), but any library can declare a tactic or term that takes ``optConfig`` and
hands it to ``simp``, whose configuration elaborator runs the value (leanprover/lean4
src/Lean/Elab/Tactic/Config.lean, ``mkConfigElaborator``): Mathlib's ``noncomm_ring`` (Mathlib/Tactic/
NoncommRing.lean, ``syntax (name := noncomm_ring) "noncomm_ring" optConfig (discharger)? ...``, expanded to
``simp $cfg:optConfig ... only [...]``) and the term elaborator ``dsimp%`` (Mathlib, ``syntax (name :=
dsimpPercent) "dsimp%" optConfig (discharger)? ... term : term``, then ``mkSimpContext stx``), so
``noncomm_ring (maxSteps := zzRead)`` ran a helper's code and the text profile accepted it. A list of
tactic words cannot be complete; where the word stands can be read instead.

A configuration item follows its keyword directly, and a tactic keyword stands where a tactic begins: right
after ``by``, ``;``, ``<;>``, ``<|>``, ``·``, ``=>``, ``|``, ``then``, ``else``, ``do``, ``in``, or first on a
line no deeper than the line before it (Lean's ``sepByIndent`` puts the next tactic of a block at the
block's column: ``checkColEq``, src/Lean/Parser/Term.lean), or after ``(`` or a combinator word (``all_goals``,
``iterate 3``) that itself stands there; a ``then`` or ``else`` branch begins a tactic only where its
``if`` stands in a tactic's place (round 29: ``def g a := if a = 0 then f (x := a) 1 else 2`` is a term; so
is an arm of a ``match`` and the body after ``let x := v;``, each where its ``match`` or ``let`` is; round
30: an arm of a ``fun``/``λ`` is a term's place, and which alternatives hold an arm follows Lean's columns,
``_match_arms``). A
named argument ``foo (x := h)`` of a function follows a word that stands where a term begins: after
``exact``, ``:=``, ``[``, ``,``, an operator, another argument. A word is taken for a tactic unless it is
found in a term's place (:data:`TERM_LEADERS`); so an unknown tactic keyword counts as one, and a function
name in a place read wrongly costs only a refused non-literal named argument (fail closed). A keyword glued
to ``%`` (``dsimp%``) is a term elaborator's and counts too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._match_arms import ArmOwners, level
from putnam_solver.core.provers.lean._tokens import IDENT, NUMBER, Token

SEPARATORS: Final = frozenset(
    {"by", "decreasing_by", ";", "<;>", "<|>", "·", "=>", "|", "then", "else", "do", "in", "with"}
)
"""Tokens after which a tactic begins (``with``: core's ``induction x with tac | zero => ...`` runs ``tac`` on
every alternative, ``inductionAlts``), or for ``=>``, ``|``, ``then``, ``else``, ``in``, ``with``, maybe a term:
read as a tactic's place, fail closed; a ``fun``'s ``=>`` is a term's, :func:`_fun_arrow`). Round 30:
``decreasing_by`` takes a tactic sequence as ``by`` does (src/Lean/Parser/Term.lean, ``decreasingBy :=
"decreasing_by " >> Tactic.tacticSeqIndentGt``); an indented ``decreasing_by`` was read as a word of a
term, so a configuration item or a ``run_...`` runner in its block went unread."""
TERM_LEADERS: Final = frozenset(
    {"exact", "apply", "refine", "refine'", "exacts", "use", "use!", "exists", "existsi", "specialize",
     "have", "haveI", "let", "letI", "show", "from", "using", "suffices", "obtain", "rcases", "cases",
     "cases'", "induction", "induction'", "calc", "change", "convert", "convert_to", "exact_mod_cast",
     "apply_mod_cast", "trans", "transitivity", "generalize", "set", "replace", "lift", "choose", "subst",
     "revert", "clear", "unfold", "delta", "contrapose", "contrapose!", "by_contra", "by_contra!", "by_cases",
     "intro", "intros", "rintro", "interval_cases", "fin_cases", "apply_fun", "gcongr", "linear_combination",
     "linear_combination'", "ext", "funext", "absurd", "wlog", "match", "fun", "λ", "return", "pure", "if",
     "simpa", "rw", "rwa", "nth_rw", "nth_rewrite", "simp_rw", "erw"}
)  # fmt: skip
"""Words after which a term (a function and its arguments) follows, not a tactic."""
TERM_SYMBOLS: Final = frozenset(
    {":=", ",", "[", "⟨", "←", "<-", "@", ":", "=", "≠", "<", ">", "≤", "≥", "+", "/", "^", "∣", "∧", "∨",
     "→", "↔", "∘", "$", "<|", "|>", "|>.", "•", "∈", "∉", "⊆", "⊂", "∩", "∪", "×", "¬", "↑", "!"}
)  # fmt: skip
"""Symbols after which Lean reads a term (an argument list, a right operand, a value), never a tactic, on
the same line or the next (``:=`` then a value on a line of its own), except ``[`` right after ``<;>``
(Batteries' ``t <;> [t1; t2]``). Symbols that may end a tactic (``)``, ``]``, ``*`` of ``at *``, ``⊢``) are
judged by the line rule; ``(`` and ``{`` may open a tactic block (``(tac)``, ``{ tac }``,
``tacticSeqBracketed``) and are judged by the place they stand in; ``:=`` of a :data:`TACTIC_ITEMS` item and
``[`` after a word of :data:`TACTIC_LISTS` begin a tactic."""
TACTIC_ITEMS: Final = frozenset({"disch", "discharger", "norm"})
"""Red team 32: items whose value is a tactic sequence, a tactic's place though it follows ``:=`` (core's
``discharger := atomic(" (" patternIgnore(&"discharger" <|> &"disch")) " := " ... tacticSeq ")"``, src/Init/
Tactics.lean; Mathlib's ``linear_combination (norm := tac)``): ``simp (disch := trace zzS)`` ran Mathlib's
``trace`` on a helper's value, unread."""
TACTIC_LISTS: Final = frozenset({"<;>", "map_tacs"})
"""Words before a ``[`` that opens a list of tactics (Batteries/Tactic/SeqFocus.lean: ``t <;> [t1; t2]`` and
``map_tacs [t1; t2]``, each ``sepBy(tactic, "; ")``; red team 32 for ``map_tacs``)."""
DECLARATION_WORDS: Final = frozenset(
    {"instance", "def", "theorem", "lemma", "abbrev", "example", "structure", "inductive", "class"}
)
"""Command keywords: an item after one (``instance (priority := high)``) or after the name it declares
(``def f (x := a)``, a binder's default value) is no tactic configuration."""
_BULLETS: Final = frozenset({"·", ".", "|", "<;>"})
_NOT_IN_LET: Final = frozenset({";", "by", "=>", "then", "else", "do", "<;>", "fun", "λ", "·", "|", "with"})
"""Tokens that end the search for a ``let`` whose value a ``;`` ends: none stands in a ``let x := v`` itself."""


class TacticPlaces:
    """Where tactics may begin in ``code`` (the file's code tokens): :meth:`may_be_tactic` for a token; each
    line's first token is judged once (memoised), from the nearest line before it that begins at its
    column or to its left (found for every line in one pass, with a stack)."""

    def __init__(self, code: Sequence[Token]) -> None:
        self.code = code
        self.firsts: dict[int, int] = {}  # token index of a line's first token -> index in `starts`
        self.starts: list[int] = []
        for k in range(len(code)):
            if k == 0 or code[k - 1].line < code[k].line:
                self.firsts[k] = len(self.starts)
                self.starts.append(k)
        self.before: list[int | None] = []  # per line: the nearest earlier line whose column is not deeper
        stack: list[int] = []
        for n, k in enumerate(self.starts):
            while stack and self._col(self.starts[stack[-1]]) > self._col(k):
                stack.pop()
            self.before.append(stack[-1] if stack else None)
            stack.append(n)
        self.memo: dict[int, bool] = {}
        self.ifs: dict[int, int | None] = {}  # a `then`/`else` -> its `if` (`_if_of`)
        self.placed: dict[int, bool] = {}  # a token index -> whether a tactic may begin there (`_place`)
        self.arms = ArmOwners(code)
        for k in self.starts:  # in order, so that judging a line reads only lines judged before it
            self._line(k)

    def _col(self, k: int) -> int:
        """The column of the line beginning at ``code[k]``, its bullets skipped."""
        line = self.code[k].line
        while k + 1 < len(self.code) and self.code[k].text in _BULLETS and self.code[k + 1].line == line:
            k += 1
        return self.code[k].col

    def may_be_tactic(self, j: int) -> bool:
        """Whether ``code[j]`` may be a keyword that takes a configuration: a word glued before ``%``, or a
        word not found in a term's place (see the module's text)."""
        code = self.code
        token = code[j]
        if token.text == "%":
            return j > 0 and code[j - 1].kind == IDENT and not token.spaced
        if token.kind != IDENT or token.text in DECLARATION_WORDS:
            return False  # `instance (priority := high)` (read by `evalPrio`), `example (x := 1)`: no tactic
        return self._place(j)

    def begins_tactic(self, j: int) -> bool:
        """Whether a tactic may begin at ``code[j]``, whatever the token (Mathlib's ``#check`` tactic too)."""
        return self._place(j)

    def _place(self, j: int) -> bool:
        """Whether a tactic may begin at ``code[j]``, walking back through the words and branches before it
        (:meth:`_step`); every index passed is judged with it (memoised), so a chain of ``else if``, arms or
        ``let``\\ s of any length costs work linear in the file, and no depth is refused for its length."""
        passed: list[int] = []
        k = j
        while k not in self.placed:
            passed.append(k)
            step = self._step(k)
            if isinstance(step, bool):
                result = step
                break
            k = step
        else:
            result = self.placed[k]
        for i in passed:
            self.placed[i] = result
        return result

    def _step(self, k: int) -> bool | int:
        """Whether a tactic may begin at ``code[k]``, or the index whose place it shares (always before ``k``)."""
        code = self.code
        if k == 0:
            return True
        prev = code[k - 1]
        if prev.text in ("then", "else"):  # a branch is a tactic's place only if its `if` is (round 29)
            m = self._if_of(k - 1)
            return True if m is None else m
        if prev.text == ";" and (m := self._let_of(k - 1)) is not None:  # `let x := v; body`: `let`'s
            return m
        if prev.text == "=>" and not _fun_arrow(code, k - 1):  # an arm's place is its `match`'s or `fun`'s
            m = self.arms.of_arrow(k - 1)
            return True if m is None else m
        if prev.text in SEPARATORS:
            return not (prev.text == "=>" and _fun_arrow(code, k - 1))
        if prev.text == "[" and k > 1 and code[k - 2].text in TACTIC_LISTS:
            return True  # `t <;> [t1; t2]`, `map_tacs [t1; t2]`
        if prev.text == ":=" and k > 2 and code[k - 3].text == "(" and _item_name(code[k - 2]) in TACTIC_ITEMS:
            return True  # `(disch := tac)`
        if prev.text in TERM_SYMBOLS:
            return False  # a term must follow: Lean parses a term here, which no tactic keyword begins
        line = self._line(k)
        if line is not None:
            return line  # (before the words: `intro` or `ext` alone may end a tactic)
        if prev.text in TERM_LEADERS or prev.text in DECLARATION_WORDS:  # `def f (x := a)`: a default
            return False
        if prev.text == "." and k - 1 in self.firsts:
            return True  # a `.` bullet
        if prev.text in ("(", "{") or prev.kind == NUMBER or prev.kind == IDENT:
            return k - 1  # `(tac ...)`, `iterate 3 tac`, `all_goals tac`: a tactic's place if the word before is one
        return False

    def _if_of(self, j: int) -> int | None:
        """The ``if`` whose ``then`` or ``else`` is ``code[j]``: the nearest one before it in the same brackets
        that no other ``then``/``else`` of that word claimed (``if a then if b then c else d else e``), within
        :data:`_match_arms.WALK` tokens; None when none is found (the branch is then taken for a tactic's)."""
        if j in self.ifs:
            return self.ifs[j]
        code, word = self.code, self.code[j].text
        need, found = 1, None
        for i, text in level(code, j):
            if text == word:
                need += 1
            elif text == "if":
                need -= 1
                if not need:
                    found = i
                    break
        self.ifs[j] = found
        return found

    def _let_of(self, semi: int) -> int | None:
        """The ``let`` or ``have`` whose value the ``;`` at ``semi`` ends (``let x := v; body``: the body stands
        where the ``let`` does, a term after a term's ``let``, a tactic after the tactic's), found on the same
        line in the same brackets with a ``:=`` between and nothing that begins a tactic or a term block; None
        otherwise (the ``;`` then separates tactics)."""
        if semi in self.ifs:
            return self.ifs[semi]
        code, found, valued = self.code, None, False
        for i, text in level(code, semi):
            if code[i].line != code[semi].line or text in _NOT_IN_LET:
                break
            if text == ":=":
                valued = True
            elif text in ("let", "have"):
                found = i if valued else None
                break
        self.ifs[semi] = found
        return found

    def _line(self, k: int) -> bool | None:
        """For the first token of a line: a new tactic of a block (the nearest line before it at its column
        began a tactic: Lean's ``sepByIndent`` puts a block's tactics at one column, ``checkColEq``), a
        continuation (that line did not), or None (the line is deeper than every line since: judged by
        the words before it)."""
        n = self.firsts.get(k)
        if n is None:
            return None
        if k in self.memo:
            return self.memo[k]
        m = self.before[n]
        if m is None:
            result = True
        elif self._col(self.starts[m]) < self._col(k):
            return None
        else:
            first = self.starts[m]
            result = self._place(first) if _may_begin(self.code[first]) else False
        self.memo[k] = result
        return result


def _item_name(token: Token) -> str:
    """An item's name as Lean matches it against a non-reserved keyword (``«disch»`` is ``disch``)."""
    return token.text.removeprefix("«").removesuffix("»")


def _may_begin(token: Token) -> bool:
    """Whether a line's first token can begin a tactic (a word or a bullet; a line beginning with ``(``
    or ``_`` may too: ``(tac)``, ``_ = x := by``): anything but a closing bracket or an operator."""
    return token.text not in TERM_SYMBOLS and token.text not in (")", "]", "}", "⟩")


def _fun_arrow(code: Sequence[Token], arrow: int) -> bool:
    """Whether the ``=>`` at ``arrow`` ends a ``fun``/``λ`` binder list on its line (a term follows)."""
    line = code[arrow].line
    i = arrow - 1
    while i >= 0 and code[i].line == line:
        if code[i].text in ("fun", "λ"):
            return True
        if code[i].text in SEPARATORS:
            return False
        i -= 1
    return False
