"""G2 on no-answer values: a ``choose`` or ``some`` field applied to an argument.

``x.choose k`` is ``Nat.choose x k`` when ``x`` is a number and ``Exists.choose x k`` when ``x`` is a
proof of ``∃ f : ℕ → ℕ, P f`` (Lean's generalized field notation looks the field up in the namespace of
the receiver's type, src/Lean/Elab/App.lean ``resolveLValLoop``); ``h.some k`` is ``Nonempty.some`` or
``Set.Nonempty.some`` on a proof just as well. Red team 9 refused such a field without an argument
(a binomial always has one); with an argument, an answer whose type is a function (``ℕ → ℝ``,
``ℕ → ℕ → ℕ``) picked "the function with the property" from a proof, on any receiver that is not a
dependent-if hypothesis: ``fun k => (exists_f).choose k``, ``let h := ...; fun k => h.choose k``.

G2 cannot know a receiver's type, so it lets the field stand only where the receiver is visibly a
number: a parameter the value's leading ``fun`` binds (the answer's arguments, whose types the pinned
solution type fixes as data), or a parenthesised expression made of those, numerals, arithmetic and a
type ascription to a number type (``(n - 1).choose ⌊n / 2⌋₊``, the official ``putnam_1974_a4`` answer;
``(4 : ℕ).choose 2``). Anything else is refused with the spelling that is always accepted,
``Nat.choose a b``.

Red team 42: ``succ`` is such a field too. ``wf.succ x`` on a proof ``wf : WellFounded r`` is
``WellFounded.succ wf x``, the least element above ``x`` (``if h : ∃ y, r x y then wf.min {y | r x y} h else
x``, Mathlib/Order/WellFounded.lean), refused by its full name since red team 41 but accepted as a field,
since ``n.succ`` is ``Nat.succ``. Its receiver is judged like ``choose``'s; a receiver may also apply the
number functions of :data:`_NUMBER_FUNCTIONS` (``(Nat.choose n 2).succ``), and a leading ``.succ`` is no
field (Lean resolves it in the expected type's namespace: ``(.succ 180 : ℕ)`` is ``Nat.succ``).

Red team 43: ``Order.succ`` was read as a ``succ`` field of a receiver ``Order`` and refused, though on a
number it is the number's own successor (``theorem succ_eq_succ : Order.succ = succ := rfl`` for ``ℕ`` and
``ℤ``, Mathlib/Data/Nat/SuccPred.lean and Mathlib/Data/Int/SuccPred.lean). On a well-order it is a search
(``noncomputable def SuccOrder.ofLinearWellFoundedLT``: ``if h : (Ioi a).Nonempty then wellFounded_lt.min _
h else a``, Mathlib/Order/SuccPred/Basic.lean), so its argument is judged as a field's receiver is: a
numeral, a parameter, or a parenthesised group of number tokens (``Order.succ (3985 : Cardinal)`` stays
refused).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, SYMBOL, Token, name_parts, normalize_name

FIELDS: Final = frozenset({"choose", "some", "succ"})
"""Field names that are a choice function on a proof (``Exists.choose``, ``Nonempty.some``,
``WellFounded.succ``) and data elsewhere (``Nat.choose``, ``Option.some``, ``Nat.succ``)."""
FIELD_RULE: Final = (
    "a choice operator picks a value from the problem's own statement when this field's receiver is a proof "
    "(`Exists.choose`, `Nonempty.some`, `WellFounded.succ`), which the text cannot tell from a number; write "
    "`Nat.choose a b`, `Nat.succ n`"
)
_DATA_NAMES: Final = frozenset(
    {"Nat.choose", "Option.some", "Nat.succ", "Fin.succ", "Int.succ", "PNat.succ"}
    | {"PartENat.some", "Part.some", "WithTop.some", "WithBot.some"}
)
"""Full names whose ``choose``/``some``/``succ`` is not reached through a receiver: they name the constant.
The embeddings (red team 42: ``PartENat.some`` was refused as a ``Nonempty.some``): Mathlib's ``def some (a :
α) : Part α := ⟨True, fun _ => a⟩`` (Mathlib/Data/Part.lean), ``def some : ℕ → PartENat := Part.some``, "the
computable embedding" (Mathlib/Data/Nat/PartENat.lean), and ``def some : α → WithTop α := Option.some``
with ``WithBot.some`` its dual (Mathlib/Order/WithBot.lean)."""
_NUMBER_TYPES: Final = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "ℂ", "Nat", "Int", "Rat", "Real", "Complex", "Fin"})
_NUMBER_FUNCTIONS: Final = frozenset(
    {"Nat.choose", "Nat.factorial", "Nat.gcd", "Nat.lcm", "Nat.succ", "Nat.pred", "Nat.sqrt", "Nat.fib"}
    | {"Nat.totient", "Nat.minFac", "Int.natAbs", "Int.toNat", "Int.floor", "Int.ceil", "Nat.floor", "Nat.ceil"}
    | {"Order.succ"}
)
"""Functions of numbers to numbers a receiver may apply (core's and Mathlib's ``Nat``/``Int`` definitions):
none of them makes a proof."""
_PROOF_MAKERS: Final = frozenset(
    {"⟨", "∃", "∃!", "show", "by", "from", "fun", "λ", "have", "let", "‹", "if", "match", "Exists", "Nonempty"}
)
"""Tokens that build a proof, a structure or a binder inside a receiver: none belongs in a number."""
_BIG_OPERATORS: Final = frozenset({"∑", "∏"})
_INDEX_TYPES: Final = frozenset({"Fin", "ℕ", "ℤ", "Nat", "Int"})
"""Types a big operator's index may range over here (``∑ i : Fin n``): numbers, never a proposition."""


def parameters(value: Sequence[Token]) -> frozenset[str]:
    """The names the value's leading ``fun`` binds (after any opening brackets that wrap the whole
    value): ``fun n =>``,
    ``fun (m n : ℕ) =>``, ``fun (a, b) =>``, and the index of a big operator over a finset (``∑ i ∈ s``,
    ``∑ i in s``, ``∑ i : Fin n``; not ``∑ h : P``, which sums over the proofs of a decidable ``P``). Names inside an
    anonymous-constructor pattern ``⟨x, hx⟩`` are left out (``hx`` proves the subtype's property)."""
    bound = {
        normalize_name(value[k + 1].text)
        for k in range(len(value))
        if _finset_index(value, k) and len(name_parts(value[k + 1].text)) == 1
    }
    lead = _leading_fun(value)
    if lead < 0:
        return frozenset(bound)
    i = lead
    pattern, typing = 0, False  # inside `⟨...⟩`; after a binder's `:` (its type: no names bound there)
    for token in value[i + 1 :]:
        if token.text in ("=>", "↦"):
            break
        if token.text == "⟨":
            pattern += 1
        elif token.text == "⟩":
            pattern -= 1
        elif token.text == ":":
            typing = True
        elif token.text == ")":
            typing = False
        elif token.kind == IDENT and not pattern and not typing and len(name_parts(token.text)) == 1:
            bound.add(normalize_name(token.text))
    return frozenset(bound)


_BINDERS: Final = frozenset(
    {"fun", "λ", "let", "have", "obtain", "intro", "intros", "rintro", "set", "generalize", "match", "with", "|"}
    | {"∀", "∃", "∃!", "Σ", "Σ'", "Π", "∑", "∏", "⨆", "⨅", "⋃", "⋂", "show", "suffices", "rcases", "cases", "induction"}
)
_BINDER_ENDS: Final = frozenset({"=>", "↦", ":=", ",", "←", "from", "in", "∈", "∉", "then", ";"})


def rebound(value: Sequence[Token]) -> frozenset[str]:
    """Names a binder inside the value binds again (``let``, ``have``, an inner ``fun``, a ``match``
    alternative, a tactic's ``intro``...), besides the value's leading ``fun`` and a big operator's
    finset index: such a name is no longer the answer's number where it is rebound, and the text cannot
    tell where. Red team 12: ``fun k => let k := (p : ∃ f : ℕ → ℝ, P f); k.choose 3`` passed as the
    binomial of the parameter ``k``. Over-approximated: every plain name after a binder keyword up to
    the binder's end (``=>``, ``:=``, ``,``...), the line's end or a closing bracket, types left out."""
    lead = _leading_fun(value)
    names: set[str] = set()
    active, depth, typing, line = False, 0, False, -1
    for j, token in enumerate(value):  # one pass: a binder inside another's span starts afresh
        if token.text in _BINDERS and j != lead and not _finset_index(value, j):
            active, depth, typing, line = True, 0, False, token.line
        elif not active:
            continue
        elif token.text in _OPENERS:
            depth += 1
        elif token.text in _CLOSERS:
            depth -= 1
            typing = typing and depth > 0
            active = depth >= 0
        elif token.text == ":":
            typing = True
        elif depth == 0 and (token.text in _BINDER_ENDS or token.line != line):
            active = False
        elif token.kind == IDENT and not typing and len(name_parts(token.text)) == 1:
            names.add(normalize_name(token.text))
    return frozenset(names)


def _leading_fun(value: Sequence[Token]) -> int:
    """The index of the ``fun`` that is the whole value (after brackets that wrap all of it, and type
    ascriptions of all of it, ``((fun n => ..) : ℕ → ℚ)``), else -1."""
    start, end = _unascribed(value)
    inner = value[start:end]
    i = 0
    while i < len(inner) and inner[i].text == "(":
        i += 1
    return start + i if i < len(inner) and inner[i].text in ("fun", "λ") and _wraps_whole(inner, i) else -1


def _unascribed(value: Sequence[Token]) -> tuple[int, int]:
    """``value[start:end]`` with the ascriptions of the whole value taken off: ``((e) : T)`` is ``(e)``.
    The ascribed type is the solution's own (the value has it), so the parameters of a ``fun`` inside
    still have the pinned argument types (data). Brackets matched once: linear in the value."""
    match: dict[int, int] = {}
    stack: list[int] = []
    for j, token in enumerate(value):
        if token.text in _OPENERS:
            stack.append(j)
        elif token.text in _CLOSERS and stack:
            match[stack.pop()] = j
    start, end = 0, len(value)
    while end - start > 3 and value[start].text == "(" and value[start + 1].text == "(":
        inner = match.get(start + 1)
        if match.get(start) != end - 1 or inner is None or value[inner + 1].text != ":":
            break
        start, end = start + 1, inner + 1
    return start, end


def _finset_index(value: Sequence[Token], k: int) -> bool:
    """Whether the big operator at ``k`` binds a number: ``∑ i ∈ s``, ``∑ i in s``, ``∑ i : Fin n``."""
    if value[k].text not in _BIG_OPERATORS or k + 3 >= len(value) or value[k + 1].kind != IDENT:
        return False
    return value[k + 2].text in ("∈", "in") or (value[k + 2].text == ":" and value[k + 3].text in _INDEX_TYPES)


def _wraps_whole(value: Sequence[Token], opened: int) -> bool:
    """Whether each of the ``opened`` leading ``(`` closes at the end of the value, so that the ``fun``
    after them is the value itself: in ``(fun h : ∃ f, P f => fun k => h.choose k) p`` the ``fun`` is
    applied, and its parameter is whatever it is applied to (a proof), not one of the answer's
    arguments (red team 11: that redex passed the field rule)."""
    depth, closes = 0, []
    for j, token in enumerate(value):
        if token.text in _OPENERS:
            depth += 1
        elif token.text in _CLOSERS:
            depth -= 1
            if token.text == ")" and depth < opened:
                closes.append(j)
    return closes == list(range(len(value) - opened, len(value)))


class Fields:
    """The field rule for one value, its brackets matched and its non-number tokens counted once, so
    that every field is judged in constant time however deeply receivers nest (text gates stay linear)."""

    def __init__(self, value: Sequence[Token]) -> None:
        self.value = value
        self.params = parameters(value) - rebound(value)
        self.opener: dict[int, int] = {}
        """The index of the ``(`` each matched ``)`` closes."""
        stack: list[tuple[str, int]] = []
        self.unknown = [0]
        """``unknown[j]``: how many of ``value[:j]`` cannot be part of a number (:meth:`_number`)."""
        for j, token in enumerate(value):
            if token.text in _OPENERS:
                stack.append((token.text, j))
            elif token.text in _CLOSERS:
                if stack and stack[-1][0] == _CLOSERS[token.text]:
                    if token.text == ")":
                        self.opener[j] = stack[-1][1]
                    stack.pop()
                else:
                    stack.clear()  # unbalanced: no group before this point is matched any more
            self.unknown.append(self.unknown[-1] + (not self._number(token)))
        self.closer = {opener: close for close, opener in self.opener.items()}

    def _number(self, token: Token) -> bool:
        """Whether ``token`` can be part of a number: a parameter (or its field, ``n.toNat``), a numeral,
        a number type name after ``:``, a bracket or an operator; no proof-making token."""
        if token.text in _PROOF_MAKERS:
            return False
        if token.kind != IDENT:
            return True
        name = normalize_name(token.text)
        return name_parts(name)[0] in self.params or name in _NUMBER_TYPES or name in _NUMBER_FUNCTIONS

    def unproven(self, i: int) -> bool:
        """Whether the token at ``i`` is a ``choose``/``some`` field whose receiver G2 cannot show to be a
        number (see the module docstring). A field without an argument is :mod:`_answer_value`' rule."""
        value, token = self.value, self.value[i]
        parts = name_parts(normalize_name(token.text)) if token.kind == IDENT else []
        if not FIELDS.intersection(parts):
            return False
        piped = bool(i) and value[i - 1].text == "|>."
        glued = piped or (i >= 2 and value[i - 1].text == "." and value[i - 1].end == token.offset)
        if glued and not piped and parts[0] == "succ" and _leading(value, i - 1):
            return False  # `(.succ 180 : ℕ)`: resolved in the expected type's namespace, no receiver
        if not glued and parts == ["Order", "succ"]:  # red team 43: a function, judged by its argument
            return not self._number_argument(i + 1)
        if not glued:  # `n.choose`, `h.some`, `Nat.choose`, `exists_f.choose`; a plain `choose` is resolved by name
            return any(self._unproven_part(parts, k) for k in range(1, len(parts)))
        if FIELDS.intersection(parts[1:]) or piped:  # `(e).x.choose`, `e |>.choose k`: a receiver G2 cannot read
            return True
        if parts[0] not in FIELDS:
            return False
        close = i - 2
        if value[close].text != ")" or close not in self.opener:  # `‹∃ f, P f›.choose`, `(p, 0).1.choose`
            return True
        return self.unknown[close] - self.unknown[self.opener[close] + 1] > 0

    def _number_argument(self, j: int) -> bool:
        """Whether the argument at ``j`` is visibly a number: a numeral, a parameter, or a parenthesised group
        of number tokens (:meth:`_number`), as a field's receiver is judged."""
        value = self.value
        if j >= len(value):
            return False
        if value[j].kind != IDENT and value[j].text != "(":
            return value[j].kind == NUMBER
        if value[j].text != "(":
            return normalize_name(value[j].text) in self.params
        close = self.closer.get(j)
        return close is not None and self.unknown[close] - self.unknown[j + 1] == 0

    def _unproven_part(self, parts: Sequence[str], k: int) -> bool:
        """Whether part ``k`` of a dotted name is a ``choose``/``some`` field of a receiver that is not
        visibly a number: only the answer's own parameter may carry it directly (``n.choose 2``); one
        after another field is a field of that field (``h.choose.exp.log``, ``n.exists_foo.choose``:
        red team 12 found the chain hid a choice, since only the last part was read)."""
        if parts[k] not in FIELDS or (k == 1 and f"{parts[0]}.{parts[1]}" in _DATA_NAMES):  # two-part names
            return False
        return not (k == 1 and parts[0] in self.params)


def _leading(value: Sequence[Token], dot: int) -> bool:
    """Whether the ``.`` at ``dot`` begins a name (``(.succ 180 : ℕ)``, ``| .succ k``) rather than following
    an expression (``(e).succ``, ``x.1.succ``): nothing is glued before it, or an opening bracket is."""
    before = value[dot - 1] if dot else None
    if before is None or before.end != value[dot].offset or before.text in _OPENERS:
        return True
    return before.kind == SYMBOL and before.text not in _CLOSERS


_OPENERS: Final = frozenset({"(", "[", "{", "⟨", "⦃"})
_CLOSERS: Final = {")": "(", "]": "[", "}": "{", "⟩": "⟨", "⦄": "⦃"}
