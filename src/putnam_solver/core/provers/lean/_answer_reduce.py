"""More of ``_answer_normal``'s rewrites, each to a definitionally equal term (red team 16): a component
projected out of the constructor that builds it, membership in ``setOf``, a big operator in the function
form it elaborates to, set-builders in their other spellings, and field notation on a set-builder.
Like the rewrites of ``_answer_terms``, they read tokens, on the value and the statement's side alike."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_quantifiers import INHABITED
from putnam_solver.core.provers.lean._answer_terms import (
    ARROWS,
    BINDERS,
    FUNS,
    KEYWORDS,
    OPEN_CLOSE,
    Text,
    Tokens,
    binder_names,
    bracketed,
    is_name,
    lam,
    make_token,
    rewrite,
    typed_quantifier,
)
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Token

FIELDS: Final = {"1": 0, "fst": 0, "2": 1, "snd": 1, "down": 0, "val": 0}
PROJECTORS: Final = {"Prod.fst": 0, "Prod.snd": 1, "PLift.down": 0, "ULift.down": 0, "Subtype.val": 0}
"""A structure's fields by position: the pair's, the first field of ``PLift``/``ULift`` and a subtype."""
CONSTANT: Final = "Function.const"


def projections(x: Text) -> Tokens | None:
    """A component taken from the tuple or anonymous constructor that builds it, ``(a, b).1``,
    ``⟨a, b⟩.snd``, ``Prod.fst (a, b)``, ``(⟨a⟩ : PLift Prop).down``, and ``Function.const T a b``:
    ``a`` (``b``), as Lean reduces them (red team 16: ``fun n => (A n, 0).1`` was no copy of ``A n``)."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        text = t[i].text
        if text == CONSTANT and x.head(i) and (a := x.atom(i + 1)) and (b := x.atom(a)) and (c := x.atom(b)):
            return bracketed(t[a:b], t[i]), c
        if text in PROJECTORS and x.head(i) and i + 1 < size and t[i + 1].text in ("(", "⟨"):
            close = x.partner[i + 1]
            opener, parts = _components(x, i + 1, close) if close is not None else ("", [])
            if close is None or not _projectable(opener, parts, PROJECTORS[text]):
                return None
            return _component(parts, PROJECTORS[text], t[i]), close + 1
        close = x.partner[i] if text in ("(", "⟨") else None
        if close is None or close + 2 >= size or t[close + 1].text != ".":  # spacing: a substitution's tokens
            return None
        first, dot, rest = t[close + 2].text.partition(".")
        opener, parts = _components(x, i, close)
        index = FIELDS.get(first)
        if index is None or not _projectable(opener, parts, index):
            return None
        out = _component(parts, index, t[i])
        return [*out, make_token(".", t[close + 1]), make_token(rest, t[close + 2])] if dot else out, close + 3

    return rewrite(t, match)


def uncurried(x: Text) -> Tokens | None:
    """``Function.uncurry f p``: ``f p.1 p.2``, as Lean unfolds it (copy red team 33: ``{p | Function.uncurry
    (fun a b => C) p}`` restated the pattern set-builder ``{(a, b) | C}`` and passed); each projection
    bracketed, an argument that is a tuple projected by :func:`projections`. Without its argument (copy red
    team 34: ``setOf (Function.uncurry g)``), ``fun q => g q.1 q.2`` for a name ``q`` the value does not use."""
    t = x.t
    used = {token.text for token in t}

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text != UNCURRY or not x.head(i) or i + 1 >= len(t):
            return None
        f = x.end[i + 1] if t[i + 1].text in FUNS else x.atom(i + 1)  # a `fun` runs on to its group's end
        if f is None:
            return None
        p = x.atom(f) if t[i + 1].text not in FUNS else None
        fresh = next(n for n in (f"{_PAIR}{k}" for k in range(len(used) + 1)) if n not in used)
        whole = bracketed(t[f:p], t[i]) if p is not None else [make_token(fresh, t[i])]
        parts = [bracketed([*whole, make_token(".", t[i]), make_token(field, t[i])], t[i]) for field in ("1", "2")]
        applied = bracketed([*bracketed(t[i + 1 : f], t[i]), *parts[0], *parts[1]], t[i])
        return (applied, p) if p is not None else (lam([fresh], applied, t[i]), f)

    return rewrite(t, match)


UNCURRY: Final = "Function.uncurry"
_PAIR: Final = "pair_"


def anonymous(x: Text) -> Tokens | None:
    """``∃ _ : C, D`` (``∃ (h : C), D``, ``h`` not in ``D``) is ``C ∧ D`` (``exists_prop``), and ``∀ _ : C, D``
    is ``C → D`` (the same term): copy red team 33's ``∃ _ : C, True`` restated ``C``. The binder's type is
    what it says, and the canonical form leaves types out. Not over one name of a number type (``∃ _ : ℕ,
    D`` is ``D``, ``_answer_quantifiers._vacuous``)."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        read = typed_quantifier(x, i)
        if read is None or len(read[0]) != 1:
            return None
        (name,), premise, body = read
        if any(k.text.partition(".")[0] == name.text for k in body):  # `s.card` holds `s`
            return None
        if (len(premise) == 1 and premise[0].text in INHABITED) or any(p.text in BINDERS for p in premise):
            return None  # `∃ _ : ∃ y, P y, D` has no one reading: left
        op = make_token("∧" if t[i].text == "∃" else "→", t[i])
        return bracketed([*bracketed(premise, t[i]), op, *bracketed(body, t[i])], t[i]), x.end[i]

    return rewrite(t, match)


def _projectable(opener: str, parts: list[Tokens], index: int) -> bool:
    """Whether field ``index`` of the group is known from its text: a tuple has two parts or more; an
    anonymous constructor's first field is its first part (``⟨a⟩.down``), its second is known only for
    two parts (``⟨a, b, c⟩.2`` is ``b`` for three fields, ``⟨b, c⟩`` for a pair)."""
    if opener == "(":
        return len(parts) > 1
    return bool(parts) and (index == 0 or len(parts) == 2)


def _components(x: Text, i: int, close: int) -> tuple[str, list[Tokens]]:
    """The opening bracket and comma-separated parts of the group ``t[i:close + 1]``, read through
    ``(⟨...⟩)``; no parts when one is empty. Lean's tuple ``(a, b, c)`` is always nested pairs."""
    t = x.t
    while t[i].text == "(" and t[i + 1].text in ("(", "⟨") and x.partner[i + 1] == close - 1:
        i, close = i + 1, close - 1
    parts: list[Tokens] = []
    j, start = i + 1, i + 1
    while j < close:
        if t[j].text == ",":
            parts.append(list(t[start:j]))
            start = j + 1
        j = x.skip(j)
    parts.append(list(t[start:close]))
    return t[i].text, parts if all(parts) and (len(parts) > 1 or t[i].text == "⟨") else []


def _component(parts: list[Tokens], index: int, like: Token) -> Tokens:
    """The first part, or the rest as one pair (``(b, c)`` for ``(a, b, c)``)."""
    if index == 0 or len(parts) == 2:
        return bracketed(parts[index], like)
    rest = [token for part in parts[1:] for token in (*part, make_token(",", like))][:-1]
    return [make_token("(", like), *rest, make_token(")", like)]


_BEFORE_MEMBERSHIP: Final = frozenset({"(", "⟨", ",", "=>", "↦", "↔", "∧", "∨", "→", "¬", "then", "else", ":="})
_AFTER_MEMBERSHIP: Final = frozenset({")", "⟩", ",", "↔", "∧", "∨", "→", "then", "else"})
"""Tokens that bind looser than ``∈`` (precedence 50) on each side: only there is ``x ∈ setOf p`` whole."""


def membership(x: Text) -> Tokens | None:
    """``x ∈ setOf p`` is ``p x`` (``Set.mem_setOf_eq`` is ``rfl``; red team 16: ``fun n => n ∈ setOf A``
    was no copy of ``A n``); ``x ∈ {y | b}`` is read as such by ``_answer_unwrap``."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        if i and t[i - 1].text not in _BEFORE_MEMBERSHIP:
            return None
        a = x.atom(i)
        if a is None or a + 2 >= size or t[a].text != "∈" or t[a + 1].text != "setOf":
            return None
        end = x.atom(a + 2)
        if end is None or (end < size and t[end].text not in _AFTER_MEMBERSHIP):
            return None
        return [make_token("(", t[i]), *bracketed(t[a + 2 : end], t[i]), *t[i:a], make_token(")", t[i])], end

    return rewrite(t, match)


BIG_OPERATORS: Final = {"sum": "∑", "prod": "∏"}
_BIG_NAMES: Final = {f"Finset.{name}": symbol for name, symbol in BIG_OPERATORS.items()}
QUANTIFIERS: Final = {"Exists": "∃", "ExistsUnique": "∃!"}
"""``Exists p`` is what ``∃ x, p x`` elaborates to (src/Init/NotationExtra.lean, ``expandExplicitBinders``),
``ExistsUnique`` what ``∃! x, p x`` does (copy red team 36: ``Exists fun a => ..`` for ``∃ a, ..`` passed)."""


def big_operators(x: Text) -> Tokens | None:
    """``Finset.sum s f`` and ``(s).sum fun j => b`` (a local ``s`` becomes ``(s)`` when substituted) are
    what ``∑ j ∈ s, b`` elaborates to (``∏`` likewise), and ``Exists f`` what ``∃ j, f j`` does
    (:data:`QUANTIFIERS`): written in the notation (red team 16:
    ``putnam_2020_a2``'s sum copied as ``Finset.sum (Finset.Icc 0 k) (fun j => ...)`` was no copy of
    ``∑ j ∈ Finset.Icc 0 k, ...``)."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        text = t[i].text
        symbol, s, f = _BIG_NAMES.get(text), None, None
        if text in QUANTIFIERS and x.head(i) and i + 1 < size:
            return _big(x, QUANTIFIERS[text], None, i + 1, t[i])
        if symbol is not None and x.head(i) and (end := x.atom(i + 1)):
            s, f = t[i + 1 : end], end
        elif text in ("(", "⟨") and (close := x.partner[i]) is not None and close + 2 < size and x.head(i):
            symbol = BIG_OPERATORS.get(t[close + 2].text) if t[close + 1].text == "." else None
            s, f = (t[i : close + 1], close + 3) if symbol else (None, None)
        if symbol is None or s is None or f is None or f >= size:
            return None
        return _big(x, symbol, s, f, t[i])

    return rewrite(t, match)


def _big(x: Text, symbol: str, s: Sequence[Token] | None, f: int, like: Token) -> tuple[Tokens, int] | None:
    """``(symbol v ∈ s, body)`` (``(symbol v, body)`` without ``s``) for the function at ``f`` and the index
    after it, or None."""
    t = x.t
    if t[f].text in FUNS:
        end = x.end[f]
        arrow = x.find(f + 1, end, ARROWS)
        names = binder_names(t[f + 1 : arrow]) if arrow is not None else None
        if arrow is None or names is None or len(names) != 1:
            return None
        var, body, stop = names[0], list(t[arrow + 1 : end]), end
    else:
        atom = x.atom(f)
        if atom is None:
            return None
        var, stop = "x✝", atom
        body = [*t[f:stop], make_token(var, like)]
    head = [make_token("(", like), make_token(symbol, like), make_token(var, like)]
    domain = [make_token("∈", like), *s] if s is not None else []
    return [*head, *domain, make_token(",", like), *body, make_token(")", like)], stop


def set_builders(x: Text) -> Tokens | None:
    """``setOf fun x => b`` and ``setOf (fun (x : T) => b)`` are ``{x | b}``, what the set-builder
    elaborates to, and ``{y | y ∈ S}`` is ``S`` (red team 16: ``putnam_2024_a1``'s set copied as ``setOf
    fun n => ...`` or ``{x | x ∈ {n : ℕ | ...}}`` passed)."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text == "{" and i + 2 < size and t[i + 2].text in ("|", ":") else None
        bar = x.find(i + 2, close, {"|"}) if close is not None else None
        if close is not None and bar is not None and [u.text for u in t[bar + 1 : bar + 3]] == [t[i + 1].text, "∈"]:
            whole = is_name(t[i + 1]) and _set_term(x, bar + 3, close, t[i + 1].text)  # `{y | y ∈ S}` is `S`
            return (bracketed(t[bar + 3 : close], t[i]), close + 1) if whole else None  # (set eta)
        if t[i].text != "setOf" or not x.head(i) or i + 1 >= size:
            return None
        lo, hi = i + 1, x.end[i]
        if t[lo].text == "(" and (close := x.partner[lo]) is not None:
            lo, hi = lo + 1, close
        if t[lo].text not in FUNS:
            return _eta_builder(x, i)
        arrow = x.find(lo + 1, hi, ARROWS)
        names = binder_names(t[lo + 1 : arrow]) if arrow is not None else None
        if arrow is None or names is None or len(names) != 1:
            return None
        inner = [make_token("{", t[i]), make_token(names[0], t[i]), make_token("|", t[i]), *t[arrow + 1 : hi]]
        return [*inner, make_token("}", t[i])], hi + (hi < size and t[hi].text == ")" and hi != x.end[i])

    return rewrite(t, match)


TIGHT: Final = frozenset({"''", "⁻¹'", "∪", "∩", "\\", "+", "-", "*", "/", "%", "^", "•", "∘", "×ˢ", "ᶜ", "⁻¹", "."})
"""Operators binding tighter than ``∈`` (Mathlib's ``''`` and ``⁻¹'`` at 80, ``∪`` at 65...): a term of them
after ``y ∈`` is the whole right operand."""


def _set_term(x: Text, lo: int, hi: int, name: str) -> bool:
    """Whether ``t[lo:hi]`` is one term ``S`` that ``y ∈ S`` takes whole and that holds no ``name``: names,
    numbers, groups and :data:`TIGHT` operators only (copy red team 35: ``{x | x ∈ Set.range g}`` is
    ``Set.range g`` as ``{x | x ∈ S}`` is ``S``, ``Set.setOf_mem_eq``; the value ``Set.range g`` against
    ``n ∈ Set.range g ↔ n ∈ solution`` was compared with the side abstracted and passed)."""
    t, j = x.t, lo
    while j < hi:
        text = t[j].text
        term = text in OPEN_CLOSE or text in TIGHT or is_name(t[j]) or t[j].kind == NUMBER
        if not term or text in KEYWORDS or text in BINDERS:
            return False
        j = x.skip(j)
    return lo < hi and not any(u.text == name or u.text.startswith(name + ".") for u in t[lo:hi])


def _eta_builder(x: Text, i: int) -> tuple[Tokens, int] | None:
    """``setOf p`` for a predicate ``p`` that is no ``fun`` (a name, a bracketed application) is ``{x | p
    x}`` for a name ``x`` that ``p`` does not hold, its eta expansion (red team 29: ``setOf
    Function.Injective ∩ {f | C f}`` passed beside the refused ``{f | Function.Injective f} ∩ {f | C f}``).
    Only where ``setOf p`` is applied to nothing more."""
    t = x.t
    end = x.atom(i + 1)
    if end is None or (end < len(t) and x.atom(end) is not None):
        return None
    like, used = t[i], {u.text.partition(".")[0] for u in t[i + 1 : end]}
    var = next(name for k in range(len(used) + 1) if (name := f"x{k}") not in used)  # captures nothing
    body = [*(t[i + 1 : end] if end == i + 2 else bracketed(t[i + 1 : end], like)), make_token(var, like)]
    return [make_token("{", like), make_token(var, like), make_token("|", like), *body, make_token("}", like)], end


SET_FIELDS: Final = frozenset({"ncard", "encard", "Finite", "Infinite", "Nonempty", "Countable", "Subsingleton"})
"""``Set`` functions whose first explicit argument is the set: ``S.f`` is ``Set.f S``."""


def set_fields(x: Text) -> Tokens | None:
    """``{x | p}.ncard``, ``({x | p}).ncard`` and ``{x | p} |>.ncard`` are ``Set.ncard {x | p}`` (a
    set-builder is a ``Set``; red team 16: ``putnam_2020_a1``'s count copied as ``{x : ℕ | ...}.ncard``
    passed beside the refused ``Set.ncard {x : ℕ | ...}``)."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text in ("{", "(") else None
        lo = i + 1 if t[i].text == "(" and close is not None and x.partner[i + 1] == close - 1 else i
        if close is None or t[lo].text != "{" or x.find(lo + 1, close, {"|"}) is None or close + 2 >= size:
            return None
        dot = t[close + 1].text
        field = t[close + 2] if dot in (".", "|>.") else None
        first, sep, rest = field.text.partition(".") if field is not None else ("", "", "")
        if field is None or field.kind != IDENT or first not in SET_FIELDS:
            return None
        out = [make_token("(", t[i]), make_token(f"Set.{first}", field), *t[i : close + 1], make_token(")", t[i])]
        return [*out, make_token(".", field), make_token(rest, field)] if sep else out, close + 3

    return rewrite(t, match)


def hypothesis_definitions(signature: Sequence[Token]) -> dict[str, Tokens]:
    """The theorem's variables its own hypotheses define, ``(f : ℝ → ℝ) (hf : f = fun x => e)`` or
    ``(hf : ∀ x, f x = e)``: ``f`` as ``fun x => e``, the statement's side read with it unfolded (red team
    16: ``putnam_1973_a4`` states ``putnam_1973_a4_solution = {x : ℝ | f x = 0}.ncard`` with that ``hf``,
    and ``{x : ℝ | 2^x - 1 - x^2 = 0}.ncard`` as the answer, the theorem then ``subst hf; rfl``, passed)."""
    x = Text(list(signature))
    t = x.t
    bound: set[str] = set()
    found: dict[str, Tokens] = {}
    i = 2  # after `theorem NAME`
    while i < len(t) and t[i].text in ("(", "{", "[", "⦃"):
        close = x.partner[i]
        if close is None:
            break
        colon = x.find(i + 1, close, {":"})
        if colon is None:  # an anonymous instance binder, `[Fintype α]`
            i = close + 1
            continue
        names = [u.text for u in t[i + 1 : colon] if is_name(u)]
        defined = _defined(x, colon + 1, close, bound)
        if defined is not None and len(names) == 1:
            found.setdefault(defined[0], defined[1])
        bound.update(names)
        i = close + 1
    return found


def _defined(x: Text, lo: int, hi: int, bound: set[str]) -> tuple[str, Tokens] | None:
    """``v = e``, ``∀ xs, v xs = e`` or ``∀ xs, v xs ↔ e`` in ``t[lo:hi]`` for a bound ``v`` not in ``e``:
    ``v`` and its value."""
    t, params = x.t, list[str]()
    if t[lo].text == "∀":
        comma = x.find(lo + 1, hi, {","})
        names = binder_names(t[lo + 1 : comma]) if comma is not None else None  # `∀ k ≥ 1,` too
        if comma is None or not names:
            return None
        params, lo = names, comma + 1
    equals = x.find(lo, hi, {"=", "↔"})  # `∀ n S, P n S ↔ e` defines `P` up to `propext`
    if equals is None or [u.text for u in t[lo + 1 : equals]] != params or t[lo].text not in bound:
        return None
    value = list(t[equals + 1 : hi])
    if not value or any(u.text.partition(".")[0] == t[lo].text for u in value if u.kind == IDENT):
        return None
    return t[lo].text, lam(params, value, t[lo]) if params else value
