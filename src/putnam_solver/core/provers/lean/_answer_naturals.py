"""Natural numbers read by what they are, for ``_answer_normal``: a case split on their constructors, and a
quantifier over them (or over a subtype) as one over the carrier they are cast into.

* ``match v with | 0 => E0 | k + 1 => E1`` is the one term both arms are (:func:`cases`; copy red teams 35b,
  36);
* ``putnam_2019_a1`` asks for ``{n : ℤ | ∃ A B C : ℤ, A ≥ 0 ∧ B ≥ 0 ∧ C ≥ 0 ∧ A^3 + .. = n}``; the same set
  written over natural numbers, ``∃ A B C : ℕ, ↑A ^ 3 + .. = n``, or over ``{z : ℤ // 0 ≤ z}``, passed the
  copy rule (copy red team 36): another type is another term to the text. Both are the question by a lemma
  (:func:`carriers`):

  - ``∃ x : ℕ, P ↑x`` is ``∃ x : ℤ, 0 ≤ x ∧ P ↑x`` (``Int.eq_ofNat_of_zero_le``, and ``Int.cast_natCast``:
    the cast of ``↑x`` into any ring is the cast of ``x`` as an integer), ``∀ x : ℕ, P ↑x`` is ``∀ x : ℤ, 0
    ≤ x → P ↑x``: each read so where every use of ``x`` is cast (``↑x``, ``(x : T)`` for ``T`` no ``ℕ``,
    ``↑(x ^ 3 + y)``, which a natural cast commutes with, and bare beside ``(z : ℤ)`` in one ``binop%`` tree,
    :func:`_coerced`); a use at ``ℕ`` (``x - 1``, ``Nat.Prime x``, an exponent) is another term, left;
  - ``∃ x : {y : T // C y}, P ↑x`` is ``∃ x : T, C x ∧ P x`` (``Subtype.exists``), ``∀`` with ``→``
    (``Subtype.forall``), where every use of ``x`` is its value (``↑x``, ``x.1``, ``x.val``, ``(x : T)``);
    ``ℕ+`` is such a subtype.

  The binder keeps its names, so the rest of the normal form numbers them as it did.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_contains import left_ok, right_ok
from putnam_solver.core.provers.lean._answer_nodes import APP, ASCRIBED, INFIX, MAX
from putnam_solver.core.provers.lean._answer_terms import (
    CASTS,
    Text,
    Tokens,
    bracketed,
    is_name,
    lam,
    make_token,
    rewrite,
    substituted,
    typed_quantifier,
)
from putnam_solver.core.provers.lean._brackets import bracket_partners
from putnam_solver.core.provers.lean._idchars import starts_term
from putnam_solver.core.provers.lean.syntax import Token

ZERO: Final = frozenset({("0",), (".", "zero"), ("Nat.zero",)})
"""The zero pattern of ``ℕ`` in Lean's spellings (``Nat.zero``, ``.zero`` and the literal ``0`` match alike)."""


def _successor(texts: list[str]) -> str | None:
    """The name ``k`` of a successor pattern, ``k + 1``, ``.succ k`` or ``Nat.succ k``, else None."""
    if len(texts) == 3 and texts[1:] == ["+", "1"]:
        return texts[0]
    if texts[:-1] in ([".", "succ"], ["Nat.succ"]):
        return texts[-1]
    return None


def _unbracketed(texts: list[str]) -> list[str]:
    return texts[1:-1] if len(texts) >= 2 and texts[0] == "(" and texts[-1] == ")" else texts


def cases(x: Text) -> Tokens | None:
    """``match v with | 0 => E0 | k + 1 => E1`` as the one term ``B`` both arms are: ``E1`` with each
    successor of ``k`` written as ``v``, where ``k`` is then left nowhere and ``B`` with ``0`` for ``v`` is
    ``E0`` as written (copy red team 35b: ``putnam_2025_a3``'s ``A n`` split as ``| 0 => A 0 | k + 1 => A (k
    + 1)`` passed). Lean's ``match`` on ``ℕ`` takes one arm at ``v = 0`` and the other at ``v = k + 1``, where
    ``B`` is each, in either order and whatever spelling the patterns take (copy red team 36: ``| .zero => ..
    | .succ k => ..``, ``| (k + 1) => ..``), and the successor in ``E1`` is ``k + 1`` wherever it stands as a
    term (:func:`_succeeded`), ``(k + 1)``, ``k.succ``, ``Nat.succ k``."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        end = x.end[i]
        if t[i].text != "match" or i + 8 >= end or not is_name(t[i + 1]) or t[i + 2].text != "with":
            return None
        j = i + 3 + (t[i + 3].text == "|")
        bar = x.find(j, end, {"|"})
        if bar is None or x.find(bar + 1, end, {"|"}) is not None:
            return None
        arms = []
        for lo, hi in ((j, bar), (bar + 1, end)):
            arrow = x.find(lo, hi, {"=>"})
            if arrow is None:
                return None
            arms.append((_unbracketed([k.text for k in t[lo:arrow]]), t[arrow + 1 : hi]))
        arms.sort(key=lambda arm: tuple(arm[0]) not in ZERO)
        (zero_pattern, zero_arm), (step, step_arm) = arms
        name = _successor(step)
        if tuple(zero_pattern) not in ZERO or name is None:
            return None
        body = _succeeded(step_arm, name, t[i + 1])
        if body is None:
            return None
        zero = substituted(body, {t[i + 1].text: [make_token("0", t[i])]})
        if zero is None or [s.text for s in zero] != [s.text for s in zero_arm]:
            return None
        return lam([], body, t[i]), end

    return rewrite(t, match)


def _succeeded(arm: Tokens, name: str, value: Token) -> Tokens | None:
    """``arm`` with each successor of ``name`` read as ``value``: ``k.succ``, and ``k + 1`` or ``Nat.succ
    k`` where its neighbours leave it whole (``_answer_contains``'s precedence test: ``2 * k + 1`` holds no
    ``k + 1``); None where ``name`` is left elsewhere."""
    texts = [s.text for s in arm]
    body: Tokens = []
    k = 0
    while k < len(arm):
        if texts[k] == f"{name}.succ":
            size, reach = 1, MAX
        elif texts[k : k + 3] == [name, "+", "1"]:
            size, reach = 3, INFIX["+"][0]
        elif texts[k : k + 2] == ["Nat.succ", name]:
            size, reach = 2, APP
        else:
            size = 0
        before = (texts[k - 1] if k else None, texts[k - 2] if k > 1 else None)
        after = texts[k + size] if k + size < len(texts) else None
        if size and (reach == MAX or (left_ok(*before, reach) and right_ok(after, reach))):  # an atom stands anywhere
            around = int(bool(body) and body[-1].text == "(" and after == ")")  # `(k + 1)` is `v`, as `E0` has `0`
            body[len(body) - around :] = [value]
            k += size + around
        else:
            body.append(arm[k])
            k += 1
    return None if any(s.text.partition(".")[0] == name for s in body) else body


NATURALS: Final = frozenset({"ℕ", "Nat"})
_JOIN: Final = {"∃": "∧", "∀": "→"}


def carriers(x: Text) -> Tokens | None:
    """Each ``∃``/``∀`` over ``ℕ`` or a subtype whose names are used only cast, as the module doc reads it."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        read = typed_quantifier(x, i)
        if read is None:
            return None
        names, kind, body = read
        carrier = _carrier(kind, [n.text for n in names], body)
        if carrier is None:
            return None
        kind, premises, body = carrier
        joined = [tok for p in premises for tok in [*bracketed(p, t[i]), make_token(_JOIN[t[i].text], t[i])]]
        header = [t[i], *names, make_token(":", t[i]), *kind, make_token(",", t[i])]
        return [*header, *bracketed([*joined, *bracketed(body, t[i])], t[i])], x.end[i]

    return rewrite(t, match)


def _carrier(kind: Tokens, names: list[str], body: Tokens) -> tuple[Tokens, list[Tokens], Tokens] | None:
    """The carrier type, the premise on each name and the body read over it, else None (module doc)."""
    like = kind[0] if kind else None
    texts = [k.text for k in kind]
    if texts in (["ℕ"], ["Nat"]):
        if any(_cast_uses(body, name, natural=True) is None for name in names):
            return None
        zero = make_token("0", like)
        premises = [[zero, make_token("≤", like), make_token(n, like)] for n in names]
        return [make_token("ℤ", like)], premises, body
    if texts in (["ℕ", "+"], ["PNat"]):  # `def PNat := { n : ℕ // 0 < n }` (Mathlib/Data/PNat/Notation.lean)
        kind = [make_token(k, like) for k in ("{", "y✝", ":", "ℕ", "//", "0", "<", "y✝", "}")]
        texts = [k.text for k in kind]
    bars = [k for k in range(len(texts)) if texts[k] == "//" or texts[k : k + 2] == ["/", "/"]]  # the lexer
    if len(texts) < 6 or texts[0] != "{" or texts[-1] != "}" or texts[2] != ":" or not bars:  # splits `//`
        return None
    bar, width = bars[0], 1 + (texts[bars[0]] == "/")
    element, carrier, condition = texts[1], kind[3:bar], kind[bar + width : -1]  # `{y : T // C}`
    if not is_name(kind[1]) or not carrier or not condition:
        return None
    premises = []
    for name in names:
        uses = _cast_uses(body, name, natural=False)
        premise = substituted(condition, {element: [make_token(name, like)]})
        if uses is None or premise is None:
            return None
        body = uses
        premises.append(premise)
    return carrier, premises, body


def _cast_uses(body: Tokens, name: str, natural: bool) -> Tokens | None:
    """``body`` with each use of ``name`` cast (``↑x``, ``(x : T)``, and for a subtype ``x.1``, ``x.val``)
    read as ``x`` for a subtype, kept as written for ``ℕ``; None where ``name`` stands otherwise (at ``ℕ``,
    whole, bound again) or nowhere (a binder of no use is vacuous, ``_answer_quantifiers._vacuous``)."""
    texts = [b.text for b in body]
    partner, trees = dict[int, int](), dict[int, bool]()  # filled where a bare use is met (:func:`_coerced`)
    out: Tokens = []
    k = 0
    while k < len(body):
        text = texts[k]
        if natural and text == "(" and out and out[-1].text == "↑" and (size := _lifted(texts, k)):
            out += body[k : k + size]  # `↑(a ^ 3 + b)` is `↑a ^ 3 + ↑b` (`Nat.cast_add`, `Nat.cast_pow`)
            k += size
            continue
        if text.partition(".")[0] != name:
            out.append(body[k])
            k += 1
            continue
        if not natural and text in (f"{name}.val", f"{name}.1"):
            size = 1
        elif not natural and texts[k : k + 3] == [name, ".", "1"]:
            size = 3
        elif text == name and ((out and out[-1].text == "↑") or (natural and _coerced(texts, k, partner, trees))):
            size = 1
        elif text == name and [o.text for o in out[-2:]] == [ASCRIBED, "("] and texts[k + 1 : k + 2] == [")"]:
            size = 1  # `(x : ℤ)` as ``_answer_terms.ascription`` reads it, in a pass before
        elif text == name and out and out[-1].text == "(" and texts[k + 1 : k + 2] == [":"]:
            ascribed = texts[k + 2 : k + 3]
            if not ascribed or (natural and ascribed[0] in NATURALS):
                return None
            size = 1
        else:
            return None
        if natural:
            out += body[k : k + size]
        else:
            if out and out[-1].text == "↑":
                out.pop()
            out.append(body[k]._replace(text=name))
        k += size
    return out if any(t.partition(".")[0] == name for t in texts) else None


_LIFTED: Final = frozenset({"(", ")", "+", "*", "^"})


def _lifted(texts: list[str], k: int) -> int:
    """The size of the group opening at ``k`` when it is a sum of products and powers of names and numerals,
    which a natural cast commutes with (``Nat.cast_add``, ``Nat.cast_mul``, ``Nat.cast_pow``), else 0."""
    depth = 0
    for j in range(k, len(texts)):
        text = texts[j]
        following = texts[j + 1 : j + 2]
        if text not in _LIFTED and (
            "." in text or not starts_term(text) or following not in ([")"], ["+"], ["*"], ["^"])
        ):
            return 0  # a field, a symbol, or an application (`f a`): no cast commutes with it
        depth += (text == "(") - (text == ")")
        if not depth:
            return j - k + 1
    return 0


TREE: Final = frozenset({"+", "-", "*", "/", "%", "=", "≠", "<", "≤", ">", "≥"})
"""The operators Lean elaborates as one ``binop%``/``binrel%`` tree (src/Init/Prelude.lean, ``macro_rules |
`($x + $y) => `(binop% HAdd.hAdd $x $y)``...), whose leaves it casts to the widest type among them
(src/Lean/Elab/Extra.lean, ``analyze``/``applyCoe``): beside ``(a : ℤ)``, a bare ``b : ℕ`` is ``↑b``. A base
of ``^`` is a leaf of the tree, its exponent is not (``rightact%``)."""


def _coerced(texts: list[str], k: int, partner: dict[int, int], trees: dict[int, bool]) -> bool:
    """Whether the bare name at ``k`` is a leaf of a :data:`TREE` whose leaves include an ascription to a
    number type no natural number is (``(a : ℤ) ^ 3 + b ^ 3 = n``: ``b`` is cast); not an argument, a head
    applied, or an exponent. ``partner`` pairs the brackets (made at the first call); ``trees`` keeps each
    answer for every place its walk passed, so a body is walked once however many names it holds."""
    before, after = texts[k - 1 : k], texts[k + 1 : k + 2]
    if before not in ([], ["("], *([op] for op in TREE)) or after not in ([], [")"], ["^"], *([op] for op in TREE)):
        return False
    if k in trees:
        return trees[k]
    if -1 not in partner:  # once per body
        partner.update({**bracket_partners(texts), -1: -1})
    lo, hi, passed = k, k + 1, [k]
    while True:  # out to the tree's ends, through the brackets that only group
        while lo > 0 and texts[lo - 1] != "(" and _in_tree(texts, lo - 1, partner):
            lo = partner.get(lo - 1, lo - 1)  # a group read whole
            passed.append(lo)
        while hi < len(texts) and texts[hi] != ")" and _in_tree(texts, hi, partner):
            passed.append(hi)
            hi = partner.get(hi, hi) + 1
        grouping = lo > 0 and texts[lo - 1] == "(" and partner.get(lo - 1) == hi
        if not grouping or texts[lo - 2 : lo - 1] not in ([], ["("], *([op] for op in TREE)):
            break
        lo, hi = lo - 1, hi + 1
    found = _ascribed_leaf(texts, lo, hi, partner)
    trees.update(dict.fromkeys(passed, found))
    return found


def _in_tree(texts: list[str], i: int, partner: dict[int, int]) -> bool:
    """Whether ``texts[i]`` (or the group it opens or closes) is part of a tree's stretch."""
    text = texts[i]
    return text in TREE or text in ("^", "↑") or starts_term(text) or (text in ("(", ")") and i in partner)


def _ascribed_leaf(texts: list[str], lo: int, hi: int, partner: dict[int, int]) -> bool:
    """Whether ``texts[lo:hi]`` has, as a leaf of its tree, ``(e : T)`` with ``T`` a number type a natural
    number is cast into; groups that are arguments or exponents are other trees."""
    i = lo
    while i < hi:
        close = partner.get(i)
        if texts[i] != "(" or close is None:
            i += 1
            continue
        leaf = i == lo or texts[i - 1] in TREE or texts[i - 1] == "("
        if leaf and texts[close - 2 : close - 1] == [":"] and texts[close - 1] in CASTS:
            return True
        if leaf and _ascribed_leaf(texts, i + 1, close, partner):
            return True
        i = close + 1
    return False
