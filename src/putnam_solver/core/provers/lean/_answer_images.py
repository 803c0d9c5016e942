"""``Set.range``, ``Set.image`` and ``Set.preimage`` read as the set-builders they are defined as, for
``_answer_normal`` (copy red team 35).

The copy rule compared ``Set.range g`` with ``{n | ∃ k, g k = n}`` and ``g '' S`` with ``{n | ∃ k ∈ S, g k
= n}`` as different terms, and a question written one way and copied the other passed; so did ``m ∈
Set.range g`` against ``∃ k, g k = m``, and ``s.image f`` (a field on a variable whose type is unwritten)
against ``Set.image f s``. Mathlib defines them so (Mathlib/Data/Set/Defs.lean: ``range f = {x | ∃ y, f y =
x}``, ``image f s = {b | ∃ a, a ∈ s ∧ f a = b}``, read here with its conjuncts swapped, ``preimage f s = {x
| f x ∈ s}``; each side of ``Set.mem_range``, ``Set.mem_image``, ``Set.mem_preimage`` is ``Iff.rfl``), so
each is rewritten to its set-builder, on the value and the statement's side alike, and the set-builder's
own rules read on (membership, beta, one-point ``∃``, set eta: ``id '' S`` is ``S`` again). On a
``Finset`` receiver ``s.image f`` is the image of ``s``'s coercion (``Finset.coe_image``): the same
elements.

Only the forms whose operands the token reading can delimit: the function form or the field applied to
its explicit arguments, each a name, a number or a bracketed group, and the infix ``''``/``⁻¹'`` between
two applications of such atoms, where nothing binding tighter than ``''`` (``∘``, ``×ˢ``, ``↑``, ``@``, a
field) stands at either end. ``Finset.range n`` and a bare ``range`` (``Finset``'s under ``open Finset``)
are not ``Set.range``. The fresh bound names are ones the term does not use. Value red team 47: where the
text writes the domain's type (a ``fun``'s typed binder, an ascribed set), the bound name keeps it
(:func:`typed_images`), so a condition that stands only in a subtype's type is still read.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_dots import fields
from putnam_solver.core.provers.lean._answer_terms import (
    BINDERS,
    Text,
    Tokens,
    bracketed,
    is_name,
    make_token,
    rewrite,
)
from putnam_solver.core.provers.lean.syntax import Token

FUNCTIONS: Final = {"Set.range": 1, "Set.image": 2, "Set.preimage": 2}
INFIX: Final = {"''": "Set.image", "⁻¹'": "Set.preimage"}
TRIGGERS: Final = frozenset({*FUNCTIONS, *INFIX, ".", ".image", ".preimage"})
FRESH: Final = "image_"
FIELDS: Final = {"image": "Set.image", "preimage": "Set.preimage"}
TIGHTER: Final = frozenset({"∘", "×ˢ", "↑", "@", ".", "''", "⁻¹'"})
"""What binds a neighbour of an infix image tighter than ``''`` does (Mathlib: ``infixl:80 " '' "``)."""


def images(x: Text) -> Tokens | None:
    """Each range, image and preimage the module doc reads, as its set-builder."""
    return _images(x, typed=False)


def typed_images(x: Text) -> Tokens | None:
    """Each range, image and preimage whose domain's type the text writes (:func:`_domain`: a ``fun``'s
    typed binder, an ascribed set), as its set-builder with that type on its bound name; read before
    ascriptions are taken off (value red team 47: ``Subtype.val '' (Set.univ : Set {m : ℕ // C m})`` and
    ``Set.range (fun x : {m : ℕ // C m} => x.1)`` are ``putnam_2024_a1``'s question, which passed: the
    set-builder's ``∃`` lost the subtype, the only place the condition stood)."""
    return _images(x, typed=True)


def _images(x: Text, typed: bool) -> Tokens | None:
    t, taken = x.t, {token.text for token in x.t}
    fresh = [name for k in range(len(t) + 2) if (name := f"{FRESH}{k}") not in taken][:2]

    def match(i: int) -> tuple[Tokens, int] | None:
        if (field := _field(x, i)) is not None:
            name, receiver, j = field
            end = _atom(x, j)
            if end is None or _atom(x, end) is not None:
                return None
            return _pair(_built(name, [t[j:end], receiver], fresh, t[i], typed), end)
        if t[i].text in FUNCTIONS and x.head(i):
            args: list[Tokens] = []
            j = i + 1
            while len(args) < FUNCTIONS[t[i].text] and (end := _atom(x, j)) is not None:
                args.append(t[j:end])
                j = end
            if len(args) < FUNCTIONS[t[i].text] or _atom(x, j) is not None:
                return None
            return _pair(_built(t[i].text, args, fresh, t[i], typed), j)
        if not _starts(x, i):
            return None
        left = _application(x, i)
        if left is None or left >= len(t) or t[left].text not in INFIX:
            return None
        right = _application(x, left + 1)
        if right is None or (right < len(t) and t[right].text in TIGHTER):
            return None
        return _pair(_built(INFIX[t[left].text], [t[i:left], t[left + 1 : right]], fresh, t[i], typed), right)

    return rewrite(t, match)


def _pair(built: Tokens | None, end: int) -> tuple[Tokens, int] | None:
    return None if built is None else (built, end)


def _built(function: str, args: list[Tokens], fresh: list[str], like: Token, typed: bool) -> Tokens | None:
    """:func:`_builder` with the domain's type where the text writes one; where ``typed``, only there."""
    domain = _domain(function, args)
    return None if typed and domain is None else _builder(function, args, fresh, like, domain or [])


def _domain(function: str, args: list[Tokens]) -> Tokens | None:
    """The type of the bound name the set-builder of ``function`` gets, where the text writes it: the binder
    of a ``fun`` it applies (``fun x : T => ..``, ``fun (x : T) => ..``), or for an image the set's ascribed
    type (``(S : Set T)``); else None."""
    texts = [token.text for token in args[0]]
    if texts[:2] == ["(", "fun"] and len(texts) > 5:
        start = 4 if texts[3] == ":" else 5 if texts[2] == "(" and texts[4] == ":" else 0
        partner = Text(args[0]).partner
        end = start
        while start and end < len(texts) and texts[end] not in ("=>", "↦"):
            close = partner[end]
            end = close + 1 if close is not None and close > end else end + 1
        if start and end < len(texts):
            return args[0][start : end - (texts[2] == "(")]
    ascribed = [token.text for token in args[1]] if function == "Set.image" and len(args) > 1 else []
    if ascribed[:1] == ["("] and ":" in ascribed and Text(args[1]).partner[0] == len(ascribed) - 1:
        colon = ascribed.index(":")
        if ascribed[colon + 1 : colon + 2] == ["Set"] and len(ascribed) > colon + 3:
            return args[1][colon + 2 : -1]
    return None


def _field(x: Text, i: int) -> tuple[str, Tokens, int] | None:
    """``s.image`` (``Set.univ.preimage``, ``(e).image``) at ``i``, not an argument: the function, the receiver
    and where its argument begins (copy red team 35: a field on a variable whose type is unwritten read
    apart from ``Set.image f s``; on a ``Finset`` it is the image of its coercion, ``Finset.coe_image``)."""
    if not x.head(i):
        return None
    t = x.t
    if (end := _atom(x, i)) is not None and end + 1 < len(t) and t[end].text == ".":
        called = FIELDS.get(t[end + 1].text)
        return (called, t[i:end], end + 2) if called else None
    parts = fields(t[i].text) if is_name(t[i]) else []
    called = FIELDS.get(parts[-1]) if len(parts) == 2 else None
    return (called, [make_token(parts[0], t[i])], i + 1) if called else None


def _atom(x: Text, j: int) -> int | None:
    """The end of a name, number or bracketed group at ``j`` (``Text.atom``), None for anything else: a
    binder, a ``·`` or a function this reads."""
    text = x.t[j].text if j < len(x.t) else None
    return None if text in BINDERS or text in FUNCTIONS or text == "·" else x.atom(j)


def _application(x: Text, j: int) -> int | None:
    """The end of the atoms applied one to another from ``j`` (at least one)."""
    end = _atom(x, j)
    while end is not None and (more := _atom(x, end)) is not None:
        end = more
    return end


def _starts(x: Text, i: int) -> bool:
    """Whether an operand can begin at ``i``: nothing before it it could be an argument of or bind tighter."""
    if not i:
        return True
    before = x.t[i - 1]
    return x.head(i) and before.text not in TIGHTER


def _builder(function: str, args: list[Tokens], fresh: list[str], like: Token, domain: Tokens) -> Tokens:
    """``function`` applied to ``args`` as its set-builder (module doc), with the bound names ``fresh`` (the
    one its function applies to of type ``domain``, if any)."""
    y, a = (make_token(name, like) for name in fresh)
    typed = [a, make_token(":", like), *domain] if domain else [a]

    def tok(*texts: str) -> Tokens:
        return [make_token(text, like) for text in texts]

    def group(arg: Tokens) -> Tokens:  # an atom as it is (a substitution then glues `p.1` to its name)
        return arg if len(arg) == 1 or Text(arg).partner[0] == len(arg) - 1 else bracketed(arg, like)

    if function == "Set.range":
        body = [*group(args[0]), a, *tok("="), y]
        return [*tok("{"), y, *tok("|", "∃"), *typed, *tok(","), *body, *tok("}")]
    if function == "Set.image":
        body = [*group(args[0]), a, *tok("="), y, *tok("∧"), a, *tok("∈"), *group(args[1])]  # the equation
        # first: once beta-reduced, a one-point `∃` (`id '' S` is `S`, ``_answer_normal._one_point``)
        return [*tok("{"), y, *tok("|", "∃"), *typed, *tok(","), *body, *tok("}")]
    header = [y, make_token(":", like), *domain] if domain else [y]
    return [*tok("{"), *header, *tok("|"), *group(args[0]), y, *tok("∈"), *group(args[1]), *tok("}")]


COERCIONS: Final = (("Subtype.val",), ("(", "↑", ")"))


def subtype_ranges(x: Text) -> Tokens | None:
    """Each ``Set.range`` of a subtype's coercion, ascribed, as the set-builder of its condition
    (:func:`_subtype`), and its image of ``Set.univ``; read before ascriptions are taken off, which loses the
    subtype."""

    def match(i: int) -> tuple[Tokens, int] | None:
        if x.t[i].text == "Set.image" and x.head(i) and (end := _atom(x, i + 1)) is not None:
            read = _subtype(x.t[i + 1 : end])  # `Set.image f Set.univ` is `Set.range f` (`Set.image_univ`; value
            univ = end < len(x.t) and x.t[end].text == "Set.univ"  # red team 50: `((↑) : {m // C m} → ℕ) '' Set.univ`
            return (read, end + 1) if read is not None and univ and _atom(x, end + 1) is None else None  # passed)
        if x.t[i].text == "(" and _starts(x, i) and (end := _atom(x, i)) is not None and end + 1 < len(x.t):
            read = _subtype(x.t[i:end])
            univ = x.t[end].text == "''" and x.t[end + 1].text == "Set.univ"
            return (read, end + 2) if read is not None and univ and _atom(x, end + 2) is None else None
        if x.t[i].text != "Set.range" or not x.head(i) or (end := _atom(x, i + 1)) is None:
            return None
        read = _subtype(x.t[i + 1 : end])
        return (read, end) if read is not None and _atom(x, end) is None else None

    return rewrite(x.t, match)


def _subtype(function: Tokens) -> Tokens | None:
    """``(Subtype.val : {x // C} → T)`` (or ``((↑) : ..)``, ``Subtype p → T``) as the set-builder its range
    is, ``{x | C}`` (``setOf p``), else None (Mathlib/Data/Set/Image.lean: ``theorem range_val_subtype {p : α
    → Prop} : range (Subtype.val : Subtype p → α) = {x | p x}``, ``range_coe_subtype`` for ``(↑)``; copy red
    team 35b: ``putnam_2024_a1``'s set as ``Set.range (Subtype.val : {n : ℕ // C} → ℕ)`` passed)."""
    texts = [token.text for token in function]
    if len(texts) < 6 or texts[0] != "(" or texts[-1] != ")" or Text(function).partner[0] != len(texts) - 1:
        return None
    coercion = next((c for c in COERCIONS if tuple(texts[1 : 1 + len(c)]) == c), None)
    colon = 1 + len(coercion) if coercion else 0
    if not coercion or texts[colon] != ":" or "→" not in texts[colon:]:
        return None
    arrow = colon + texts[colon:].index("→")
    domain, like = function[colon + 1 : arrow], function[0]
    if domain and domain[0].text == "Subtype" and len(domain) >= 2:
        return [make_token("setOf", like), *bracketed(domain[1:], like)]
    if not domain or domain[0].text != "{" or Text(domain).partner[0] != len(domain) - 1:
        return None
    inner = [token.text for token in domain]
    cut = next((k for k in range(1, len(inner) - 1) if inner[k] == "//" or inner[k : k + 2] == ["/", "/"]), None)
    if cut is None or "{" in inner[1:cut]:
        return None
    after = cut + (1 if inner[cut] == "//" else 2)
    return [domain[0], *domain[1:cut], make_token("|", like), *domain[after:]]
