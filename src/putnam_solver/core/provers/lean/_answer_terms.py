"""Lean terms as tokens, for ``_answer_normal``'s rewrites: each bracket's partner, arguments, binders,
substitution by scope (capture-avoiding, ``_answer_scopes``; it gives up only where a local definition
could bind a name), and the rewrites that need nothing else (beta
and eta, identities, ascriptions, structure eta); see ``_answer_normal`` for why and for the bounds."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Final

from putnam_solver.core.provers.lean._abs_bars import abs_pairs
from putnam_solver.core.provers.lean._answer_nodes import ASCRIBED, NATURAL, PREDICATES
from putnam_solver.core.provers.lean._answer_scopes import argument_name, binding_sites, free_names, resolved, unused
from putnam_solver.core.provers.lean._idchars import starts_digit, starts_letter, starts_name
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, SYMBOL, Token

OPEN_CLOSE: Final = {"(": ")", "[": "]", "{": "}", "⟨": "⟩"}
CLOSERS: Final = frozenset(OPEN_CLOSE.values())
FUNS: Final = frozenset({"fun", "λ"})
ARROWS: Final = frozenset({"=>", "↦"})
IDENTITIES: Final = frozenset({"id", "Id.run", "_root_.id"})
TRANSPORTS: Final = frozenset({"cast", "Eq.mp", "Eq.mpr"})
LOCALS: Final = frozenset({"let", "have", "letI", "haveI", "let_fun"})
BINDERS: Final = frozenset({"∀", "∃", "∃!", "∑", "∏", "fun", "λ", "⋃", "⋂", "⨆", "⨅", "Σ", "Σ'", "Π", "∫", "∮"})
QUIET: Final = frozenset({"show", "unfold", "skip"})
"""Tactics that leave the term a block builds as it is (they change only how its goal is displayed)."""
TERM_TACTICS: Final = frozenset({"exact", "refine", "refine'", "apply"})
"""Tactics that, first after ``by``, make the block the term that follows them."""
KEYWORDS: Final = frozenset(
    {"fun", "λ", "by", "do", "let", "have", "match", "with", "if", "then", "else", "from", "show", "where", "in",
     "at", "using", "rec", "letI", "haveI", "let_fun", "calc", "intro", "first", "classical", "unfold", "skip"}
) | TERM_TACTICS  # fmt: skip
Tokens = list[Token]


class Text:
    """Tokens with each bracket's partner and the end of the innermost group holding each token."""

    def __init__(self, tokens: Tokens) -> None:
        self.t, n = tokens, len(tokens)
        self.found: dict[frozenset[str], list[int]] = {}  # :meth:`find`'s tables
        pairs = abs_pairs([token.text for token in tokens])
        self.abs_bars = {*pairs, *pairs.values()}  # an absolute value's `|x|`: no separator `find` meets
        self.partner: list[int | None] = [None] * n
        stack: list[int] = []
        for i, token in enumerate(tokens):
            if token.text in OPEN_CLOSE:
                stack.append(i)
            elif token.text in CLOSERS and stack:
                j = stack.pop()
                self.partner[j], self.partner[i] = i, j
        self.end = [n] * n
        stack = []
        for i, token in enumerate(tokens):
            if token.text in CLOSERS and stack:
                stack.pop()
            held = self.partner[stack[-1]] if stack else None
            self.end[i] = held if held is not None else n
            if token.text in OPEN_CLOSE:
                stack.append(i)

    def atom(self, i: int) -> int | None:
        """The end of the argument at ``i`` (a name, a number, ``·``, ``_`` or a bracketed group)."""
        if i >= len(self.t):
            return None
        close = self.partner[i] if self.t[i].text in OPEN_CLOSE else None
        if close is not None:
            return close + 1
        return i + 1 if is_name(self.t[i]) or self.t[i].kind == NUMBER or self.t[i].text == "·" else None

    def head(self, i: int) -> bool:
        """Whether ``t[i]`` begins an application (it is no argument of what precedes it)."""
        before = self.t[i - 1] if i else None
        return before is None or not (before.text in CLOSERS or is_name(before) or before.kind == NUMBER)

    def skip(self, j: int) -> int:
        """The index after the token or whole bracket group at ``j``."""
        close = self.partner[j] if self.t[j].text in OPEN_CLOSE else None
        return close + 1 if close is not None else j + 1

    def find(self, j: int, hi: int, texts: Collection[str]) -> int | None:
        """The first of ``texts`` in ``[j, hi)`` outside brackets opened there: the walk from ``j`` over
        whole groups (:meth:`skip`), read from a table made once per ``texts`` (red team 21: a walk per
        binder, ``∃ (∃ (∃ (..`` with no bracket closed, was quadratic and ran the text gates out of time).
        An absolute value's bars are no ``|`` here (``_abs_bars``)."""
        key = frozenset(texts)
        first = self.found.get(key)
        if first is None:  # right to left: each walk's first hit is its own or that of where it goes on
            size = len(self.t)
            first = [size] * (size + 1)
            for i in range(size - 1, -1, -1):
                here = self.t[i].text in key and i not in self.abs_bars
                first[i] = i if here else first[self.skip(i)]
            self.found[key] = first
        hit = first[j] if j < len(self.t) else len(self.t)
        return hit if hit < hi else None


Match = Callable[[int], "tuple[Tokens, int] | None"]


def rewrite(tokens: Tokens, match: Match) -> Tokens | None:
    """One left-to-right pass: where ``match(i)`` gives a replacement and the index after what it
    replaces, that; elsewhere the token itself. None if nothing matched."""
    out: Tokens = []
    i, size, changed = 0, len(tokens), False
    while i < size:
        found = match(i)
        if found is None:
            out.append(tokens[i])
            i += 1
        else:
            out += found[0]
            i, changed = max(found[1], i + 1), True
    return out if changed else None


def make_token(text: str, like: Token | None) -> Token:
    kind = IDENT if starts_name(text) else NUMBER if starts_digit(text) else SYMBOL
    return Token(kind, text, 0, 0, 1, 0, True) if like is None else like._replace(kind=kind, text=text)


def is_name(token: Token) -> bool:
    return token.kind == IDENT and token.text not in KEYWORDS


def substituted(body: Sequence[Token], names: dict[str, Tokens], lo: int = 0, hi: int | None = None) -> Tokens | None:
    """``body`` with each free occurrence of a name (also as a dotted name's head) replaced by its tokens,
    bracketed. Where a binder of ``BINDERS`` or a set-builder stands in it, by scope (``_answer_scopes``):
    a name bound again there is left where it is bound, and a bound name that a replacement holds is
    renamed within its scope (``fun x => ∀ n, f n x`` applied to ``n`` is ``∀ n_0, f n_0 n``). None where a
    local definition, ``match`` or ``let rec`` may bind one of the names (their scopes are not read). Only
    ``body[lo:hi]`` is read, and a walk that meets no binder makes no second pass."""
    hi = len(body) if hi is None else hi
    out: Tokens = []
    binding = False
    for k in range(lo, hi):
        token = body[k]
        text = token.text
        if text in BINDERS or text == "{":
            return _scoped(body, names, lo, hi)
        if text in LOCALS or text in ("match", "rec"):
            binding = True
        elif binding and text in names:
            return None
        elif not (is_name(token) or text in OPEN_CLOSE or text in CLOSERS or text in (":", "⦃", "⦄", "_")):
            binding = False
        out += _replaced(token, names.get(text.partition(".")[0]) if token.kind == IDENT else None)
    return out


def _bindable(text: str) -> bool:
    return starts_letter(text) and "." not in text and text not in KEYWORDS


def _replaced(token: Token, value: Tokens | None) -> Tokens:
    """``token`` as ``value`` (also as a dotted name's head), or itself."""
    _, dot, rest = token.text.partition(".")
    if value is None:
        return [token]
    if len(value) == 1:
        return [value[0]._replace(text=value[0].text + dot + rest)]
    return bracketed(value, token) + ([make_token(".", token), make_token(rest, token)] if dot else [])


def _scoped(body: Sequence[Token], names: dict[str, Tokens], lo: int, hi: int) -> Tokens | None:
    """:func:`substituted` by scope, where a binder stands in ``body[lo:hi]``."""
    texts = [t.text for t in body[lo:hi]]
    if any(t in LOCALS or t in ("match", "rec") for t in texts) and not names.keys().isdisjoint(texts):
        return None
    held = {n for value in names.values() for n in free_names([t.text for t in value], BINDERS, _bindable)}
    sites = binding_sites(texts, BINDERS, _bindable)
    plain = {texts[k] for k in sites}.isdisjoint({*held, *names})  # no binder captures or shadows: no scopes
    bound: list[str | None] = [None] * len(texts)
    if not plain:
        used, counter = {t.text.partition(".")[0] for t in body} | held, [0]
        bound = resolved(texts, sites, lambda _, name: unused(name, used, counter) if name in held else name, BINDERS)
    out: Tokens = []
    for k, token in enumerate(body[lo:hi]):
        name, value = bound[k], None
        if name is None and token.kind == IDENT:
            value = names.get(token.text.partition(".")[0])
        if name is not None and name != token.text:
            out.append(token._replace(text=name))
        elif value is None or argument_name(texts, k):
            out.append(token)
        else:
            out += _replaced(token, value)
    return out


def typed_quantifier(x: Text, i: int) -> tuple[Tokens, Tokens, Tokens] | None:
    """The names, type and body of the ``∃``/``∀`` at ``i`` with one typed group, ``∃ x y : T, B`` or ``∀ (x y
    : T), B`` (``∃ (x : T) (y : U), B`` read as ``∃ (x : T), ∃ (y : U), B``, as Lean nests them), else None.
    Each name is a plain name or ``_``."""
    t, end = x.t, x.end[i]
    if t[i].text not in ("∃", "∀") or i + 4 >= end:
        return None
    group = t[i + 1].text == "(" and x.partner[i + 1] is not None
    colon = x.find(i + 1 + group, end, {":", ","})
    names = t[i + 1 + group : colon] if colon is not None else []
    close = x.partner[i + 1] if group else x.find(colon, end, {","}) if colon is not None else None
    if colon is None or t[colon].text != ":" or close is None or close + group + 1 >= end or close == colon + 1:
        return None
    if not names or any(not (is_name(n) or n.text == "_") or "." in n.text for n in names):
        return None
    if group and t[close + 1].text == "(":
        return names, t[colon + 1 : close], [t[i], *t[close + 1 : end]]
    return (names, t[colon + 1 : close], t[close + group + 1 : end]) if t[close + group].text == "," else None


def bracketed(value: Tokens, like: Token) -> Tokens:
    """``value`` as one bracketed group (itself, when it is one already)."""
    depth = 0
    for k, token in enumerate(value):
        depth += (token.text in OPEN_CLOSE) - (token.text in CLOSERS)
        if depth == 0 and k < len(value) - 1:
            break
    else:
        if value and value[0].text == "(":
            return value
    return [make_token("(", like), *value, make_token(")", like)]


def binder_names(binders: Sequence[Token] | Sequence[str], patterns: bool = False) -> list[str] | None:
    """The names a binder header (of ``fun``, ``∀``, ``∃``, a ``let`` function; tokens or their texts) binds,
    in order, one per argument it takes, or None where it is read otherwise. Lean (src/Lean/Parser/Term.lean):
    ``basicFun := many1 (ppSpace >> funBinder) >> optType >> unicodeSymbol " ↦" " =>"``, ``funBinder :=
    funStrictImplicitBinder <|> funImplicitBinder <|> instBinder <|> termParser maxPrec``, ``binderIdent :=
    ident <|> hole``: a name or ``_``, a group ``(x y : T)``, ``{x}``, ``⦃x⦄``, ``[inst : C]`` (its names; an
    anonymous ``[C]`` binds none the body can name: None), a type after ``:`` skipped, and the bound after
    names (Mathlib's ``binderPred``: ``∀ k ≥ 1,``, ``∃ x y ∈ s,``, ``∀ᵉ (x ∈ s) (y ∈ t),``). A pattern, ``⟨a, b⟩`` or
    ``(a, b)``, takes ONE argument: None, or with ``patterns`` its plain names (a tuple's components, for the
    readings that split a tuple argument). Anything else (``(a + b)``): None."""
    texts = [u if isinstance(u, str) else u.text for u in binders]
    names: list[str] = []
    i, size = 0, len(texts)
    while i < size and texts[i] != ":" and not (texts[i] in PREDICATES and names and i == len(names)):
        if _binds(text := texts[i]):
            names.append(text)
            i += 1
            continue
        close, depth = i, 0
        while close < size and (depth := depth + _DEPTH.get(texts[close], 0)) > 0:
            close += 1
        if text not in _GROUPS or close >= size:
            return None
        inner, k = texts[i + 1 : close], 0
        while k < len(inner) and _binds(inner[k]):
            k += 1
        group, typed = inner[:k], k < len(inner) and (inner[k] == ":" or inner[k] in PREDICATES)
        if text in ("(", "⟨") and not typed and k < len(inner):  # `(a, b)`, `⟨a, b⟩`: one argument
            group = inner[::2]
            if not (patterns and set(inner[1::2]) == {","} and all(map(_binds, group))):
                return None
        elif text == "⟨" or not group or not (typed or k == len(inner)) or (text == "[" and not typed):
            return None
        names += group
        i = close + 1
    return names


def _binds(text: str) -> bool:
    return starts_name(text) and "." not in text and text not in KEYWORDS


_GROUPS: Final = {"(": ")", "{": "}", "⦃": "⦄", "[": "]", "⟨": "⟩"}
_DEPTH: Final = {**dict.fromkeys(_GROUPS, 1), **dict.fromkeys(_GROUPS.values(), -1)}


def lam(params: Sequence[str], body: Tokens, like: Token) -> Tokens:
    """``(fun params => body)``, or ``(body)`` without parameters."""
    if not params:
        return bracketed(body, like)
    head = [make_token("fun", like), *(make_token(n, like) for n in params), make_token("=>", like)]
    return [make_token("(", like), *head, *body, make_token(")", like)]


def beta(x: Text) -> Tokens | None:
    """``(fun xs => e) a…`` at an application's head: ``e`` with the arguments for the names."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i]
        if t[i].text != "(" or close is None or i + 1 >= close or t[i + 1].text not in FUNS or not x.head(i):
            return None
        arrow = x.find(i + 2, close, ARROWS)
        names = binder_names(t[i + 2 : arrow]) if arrow is not None else None
        args: list[Tokens] = []
        j = close + 1
        while names and len(args) < len(names) and (end := x.atom(j)) is not None:
            args.append(t[j:end])
            j = end
        if not args or arrow is None or names is None:
            return None
        given = {name: arg for name, arg in zip(names, args, strict=False) if name != "_"}  # `_` binds nothing
        body = substituted(t, given, arrow + 1, close)
        return (lam(names[len(args) :], body, t[i]), j) if body is not None else None

    return rewrite(t, match)


def identity(x: Text) -> Tokens | None:
    """``id e``, ``@id T e``, ``Id.run e``, ``cast rfl e``, ``do e``, ``f ∘ id``, ``id ∘ f``, ``(·)``,
    ``(fun x => x)``, ``Function.comp f g``, ``A.{u}``, ``(a)``: the identity, composition, universes and
    brackets taken off."""
    t, size = x.t, len(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        text, after, close = t[i].text, t[i + 1].text if i + 1 < size else None, x.partner[i]
        if text == "@" and after in IDENTITIES and x.head(i) and (end := x.atom(i + 2)) and x.atom(end):
            return [], end
        if text in IDENTITIES and x.atom(i + 1) and x.head(i):
            return [], i + 1
        if text in TRANSPORTS and after == "rfl" and x.atom(i + 2) and x.head(i):
            return [], i + 2
        if (text == "do" and after is not None) or (text, after) in (("∘", "id"), ("id", "∘")):
            return [], i + 1 + (text != "do")
        if text == "(" and close == i + 2:  # `(·)` is `id`, `(a)` is `a`
            return [make_token("id", t[i]) if after == "·" else t[i + 1]], i + 3
        if text == "(" and close is not None and after == "(" and x.partner[i + 1] == close - 1:
            return [], i + 1  # `((e))`: its closing bracket goes below
        if text == ")" and close is not None and t[close + 1].text == "(" and x.partner[close + 1] == i - 1:
            return [], i + 1
        if text in FUNS and (lam := _identity_lambda(t, i)) is not None:
            inside = i > 0 and t[i - 1].text == "(" and x.partner[i - 1] == lam
            return ([make_token("id", t[i])], lam) if inside or (i > 0 and t[i - 1].text == "∘") else None
        if text in FUNS and i + 4 < size and t[i + 2].text in ARROWS and is_name(t[i + 1]):  # eta: `fun p => f p`
            body, end = i + 3, x.end[i]
            while body < end and t[body].text == "(" and x.partner[body] == end - 1:
                body, end = body + 1, end - 1
            f = x.atom(body)
            if f is not None and f + 1 == end and t[f].text == t[i + 1].text:
                return (t[body:f], x.end[i]) if all(u.text != t[i + 1].text for u in t[body:f]) else None
        if text == "Function.comp" and x.head(i) and (f := x.atom(i + 1)) and (g := x.atom(f)):
            return bracketed([*t[i + 1 : f], make_token("∘", t[i]), *t[f:g]], t[i]), g
        if text == "." and after == "{" and i and not t[i].spaced and t[i - 1].kind == IDENT:
            return ([], x.partner[i + 1] + 1) if x.partner[i + 1] is not None else None  # type: ignore[operator]
        return None

    return rewrite(t, match)


def _identity_lambda(t: Sequence[Token], i: int) -> int | None:
    """For ``fun x => x`` (``fun (x : T) ↦ x``) at ``i``, ending there: the index after it."""
    arrow = next((j for j in range(i + 1, min(i + 8, len(t))) if t[j].text in ARROWS), None)
    names = binder_names(t[i + 1 : arrow]) if arrow is not None else None
    if arrow is None or names is None or len(names) != 1 or arrow + 1 >= len(t) or t[arrow + 1].text != names[0]:
        return None
    following = t[arrow + 2].text if arrow + 2 < len(t) else ")"
    return arrow + 2 if following in CLOSERS or following in (",", "∘") else None


CASTS: Final = frozenset({"ℤ", "Int", "ℚ", "Rat", "ℝ", "Real", "ℂ", "Complex"})
"""Number types a term of another may be cast into (none is cast into ``ℕ``)."""


def ascription(x: Text) -> Tokens | None:
    """``(e : T)`` outside binders: ``(e)`` (an elaboration hint, no term of its own), or ``e`` elaborated at
    a number type ``T`` a natural number or an integer may be cast into (``_answer_nodes.ASCRIBED``: Lean
    elaborates the arithmetic of ``(n - 1 : ℤ)`` at ``ℤ``, ``↑n - 1``, copy red team 31): where the cast
    changes the meaning (under ``-``, ``/``, ``%``) the normal form keeps it, elsewhere takes it off
    (``_answer_casts``)."""
    t, held = x.t, _binder_groups(x.t)

    def match(i: int) -> tuple[Tokens, int] | None:
        colon, close = _ascribed(x, i, held), x.partner[i]
        if colon is None or close is None:
            return None
        if _number_type(t, colon, close):
            wider = t[colon + 1].text in CASTS
            arrow, inner = t[i]._replace(text=ASCRIBED if wider else NATURAL), t[i]._replace(text="(")
            return [t[i], arrow, inner, *t[i + 1 : colon], t[close], t[close]], close + 1
        return [*t[i:colon], t[close]], close + 1

    return rewrite(t, match)


def _binder_groups(t: Tokens) -> set[int]:
    """The ``(`` of every group among a binder's names (``∀ (x : T) (y : U),``), not of a binder predicate's
    bound (``∃ a ≥ (0 : ℤ),``: copy red team 36)."""
    binding, held = [False], set()
    for i, token in enumerate(t):
        ends = (",", "=>", "↦", "|", *PREDICATES)
        binding[-1] = (binding[-1] or token.text in BINDERS) and token.text not in ends
        if token.text in OPEN_CLOSE:
            held.update([i] if binding[-1] else [])
            binding.append(False)
        elif token.text in CLOSERS and len(binding) > 1:
            binding.pop()
    return held


def _ascribed(x: Text, i: int, held: set[int]) -> int | None:
    """The ``:`` of an ascription ``(e : T)`` at ``i`` outside binders, else None."""
    t, close = x.t, x.partner[i]
    if t[i].text != "(" or close is None or i in held or (close + 1 < len(t) and t[close + 1].text in ("→", "->")):
        return None
    colon = x.find(i + 1, close, {":", *BINDERS, *KEYWORDS})
    return colon if colon is not None and colon > i + 1 and t[colon].text == ":" else None


def _number_type(t: Tokens, colon: int, close: int | None) -> bool:
    """Whether the ascription whose ``:`` is at ``colon`` names one number type, the only ones the normal form
    keeps a cast for (:func:`ascription`)."""
    return colon + 2 == close and t[colon + 1].text in (*CASTS, "ℕ", "Nat")


def foreign_types(tokens: Tokens) -> bool:
    """Whether ``tokens`` elaborate a term at a type the normal form does not keep: an ascription ``(e : T)``
    to anything but one number type (``(2 * n : ZMod 4)``, read ``(2 * n)``: :func:`ascription`) or a
    ``show``. Where they do, an identity of ``ℕ``, ``ℤ`` or a field may not hold of a relation that reads as
    one of typed variables (``_answer_algebra``'s common factors)."""
    x = Text(tokens)
    held = _binder_groups(tokens)
    for i, token in enumerate(tokens):
        if token.text == "show":
            return True
        colon = _ascribed(x, i, held) if token.text == "(" else None
        if colon is not None and not _number_type(tokens, colon, x.partner[i]):
            return True
    return False


def pairs(x: Text) -> Tokens | None:
    """``⟨p.1, p.2⟩`` (``(p.fst, p.snd)``) is ``p`` (structure eta)."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        close = x.partner[i] if t[i].text in ("(", "⟨") else None
        inner = [tok.text for tok in t[i + 1 : close]] if close in (i + 4, i + 8) else []
        if (
            len(inner) == 7
            and inner[1:4] == [".", "1", ","]
            and inner[4:] == [inner[0], ".", "2"]
            and is_name(t[i + 1])
        ):
            return [t[i + 1]], close + 1  # type: ignore[operator]
        head = (
            inner[0].removesuffix(".fst") if len(inner) == 3 and inner[1] == "," and inner[0].endswith(".fst") else ""
        )
        return ([t[i + 1]._replace(text=head)], close + 1) if head and inner[2] == f"{head}.snd" else None  # type: ignore[operator]

    return rewrite(t, match)
