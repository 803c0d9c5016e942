"""An equation respelled as another proposition Lean proves equivalent to it, read back as the equation, for
``_answer_normal`` (value red team 50).

Red team 49 read a pair or list equation and ``a ≤ b ∧ b ≤ a`` as ``a = b`` in the normal form; a copy of the
question with its equation ``x = y`` written another way still passed, in the set-builder or under a premise
(where only the reading as written finds it, ``_answer_restated``):

* ``x == y`` is ``x = y`` (``beq_iff_eq``, a lawful ``BEq``: the number types), ``x != y`` is ``x ≠ y``; a
  Boolean equation bracketed and compared with ``true`` (``(x == y) = true``) is the equation, with ``false``
  its negation (``Bool.not_eq_true``);
* a distance zero: ``Nat.dist x y = 0`` (``Nat.dist_eq_zero``, ``Nat.eq_of_dist_eq_zero``), ``dist x y = 0``
  (``dist_eq_zero``, a metric space), ``Int.natAbs (x - y) = 0`` (``Int.natAbs_eq_zero``, ``sub_eq_zero``) and
  ``|x - y| = 0`` (``abs_eq_zero``; ``ℕ`` has no ``|·|``), either side of ``=``, a receiver bracketed or not
  (``(x).dist y``);
* ``compare x y = Ordering.eq`` (``compare_eq_iff_eq``, a linear order);
* ``¬ x ≠ y`` is ``x = y`` (``not_not``), however bracketed;
* ``max x y = min x y`` (either order; in a linear order, ``max = min`` forces ``x = y``);
* two conjuncts side by side that bound ``x`` by ``y`` and ``y`` by ``x``: ``x ≤ y``, ``y ≥ x``, ``¬ y < x``,
  ``x - y = 0`` or ``x - y ≤ 0`` each say ``x ≤ y`` on ``ℕ`` (``Nat.sub_eq_zero_iff_le``, truncated) and ``x ≤
  y`` or ``x = y`` in an ordered ring (``sub_nonpos``, ``sub_eq_zero``), so the pair is ``x = y`` in both
  (``le_antisymm_iff``) whatever the type, which the text does not always show;
* an equation in ``ZMod n`` of two terms ascribed there, ``(a : ZMod n) = (b : ZMod n)``, is the congruence
  ``Int.ModEq n a b`` (``ZMod.intCast_eq_intCast_iff``, ``ZMod.natCast_eq_natCast_iff``, the casts commuting
  with ``+ *``), which ``_answer_modeq`` reads on.

Each is read only where the token reading delimits it: its operands atoms (a name, a number, a bracketed
group) or a conjunct between looser separators, its ends at a separator. Reading more as the equation only
refuses more: an honest closed form holds none of these around the question's own equation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

from putnam_solver.core.provers.lean._abs_bars import abs_pairs
from putnam_solver.core.provers.lean._answer_modeq import BARE_AFTER, BARE_BEFORE
from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, make_token
from putnam_solver.core.provers.lean.syntax import Token

LATTICE: Final = frozenset({"max", "min", "Max.max", "Min.min"})
TRIGGERS: Final = frozenset(
    {"compare", "==", "!=", "Nat.dist", "dist", ".dist", "Int.natAbs", "|", *LATTICE, "∧", "ZMod", "¬"}
)
BEFORE: Final = BARE_BEFORE | {"∃", "∀"}
AFTER: Final = BARE_AFTER | {"}", "]"}
RUN_STOPS: Final = frozenset({"∧", "∨", "→", "->", "↔", ",", "|", "=>", "↦", ":=", "then", "else", "if", "//"})
"""What ends a conjunct read leftwards or rightwards (it binds tighter than ``∧``'s neighbours)."""
RELATIONS: Final = frozenset({"≤", "≥", "=", "<", ">", "≠", "∣", "∈", "∉", "⊆", "≡"})


class Tables(NamedTuple):
    """What each match reads of the whole text, made once per pass (linear): the absolute values' bars, where
    a conjunct from each place ends, where a relation's side from each place ends."""

    bars: dict[int, int]
    conjunct_end: list[int]
    side_end: list[int]


Match = Callable[[Text, int, Tables], "tuple[Tokens, int] | None"]


def equalities(x: Text) -> Tokens | None:
    """The first respelled equation of ``x`` read as the equation (module doc); None when there is none."""
    bars = abs_pairs([t.text for t in x.t]) if any(t.text == "|" for t in x.t) else {}
    tables = Tables(bars, _stops(x, RUN_STOPS), _stops(x, RUN_STOPS | RELATIONS))
    for i in range(len(x.t)):
        for match in MATCHES:
            if (found := match(x, i, tables)) is not None:
                return [*x.t[:i], *found[0], *x.t[found[1] :]]
    return None


def _texts(x: Text, lo: int, hi: int) -> list[str]:
    return [t.text for t in x.t[lo:hi]]


def _bounded(x: Text, start: int, end: int) -> bool:
    """Whether ``x.t[start:end]`` stands alone between separators (an equation's precedence holds there)."""
    return (start == 0 or x.t[start - 1].text in BEFORE) and (end >= len(x.t) or x.t[end].text in AFTER)


def _equation(left: Tokens, right: Tokens, like: Token, op: str = "=") -> Tokens:
    return [*left, make_token(op, like), *right]


def _boolean(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """``x == y`` as ``x = y``, ``x != y`` as ``x ≠ y``; ``(x == y) = true`` as ``(x = y)``, ``= false`` negated."""
    op = x.t[i].text
    if op != "(" or (close := x.partner[i]) is None:
        return (
            ({"==": [make_token("=", x.t[i])], "!=": [make_token("≠", x.t[i])]}[op], i + 1)
            if op in ("==", "!=")
            else None
        )
    if close + 2 >= len(x.t) or x.t[close + 1].text != "=" or x.t[close + 2].text not in ("true", "false"):
        return None
    if not _top(x.t[i + 1 : close], frozenset({"==", "!="})):
        return None
    inner = [make_token({"==": "=", "!=": "≠"}.get(t.text, t.text), t) for t in x.t[i : close + 1]]
    inner = inner[1:-1] if _bounded(x, i, close + 3) and x.t[close + 2].text == "true" else inner
    return ([make_token("¬", x.t[i]), *inner] if x.t[close + 2].text == "false" else inner), close + 3


def _top(tokens: Tokens, wanted: frozenset[str]) -> list[int]:
    """Where ``tokens`` holds a token of ``wanted`` outside every bracket."""
    out, depth = [], 0
    for k, token in enumerate(tokens):
        depth += (token.text in ("(", "[", "{", "⟨")) - (token.text in (")", "]", "}", "⟩"))
        if depth == 0 and token.text in wanted:
            out.append(k)
    return out


def _distance(x: Text, i: int, bars: dict[int, int], zero_after: bool = False) -> tuple[Tokens, Tokens, int] | None:
    """The two points of a distance at ``i`` (``Nat.dist a b``, ``dist a b``, ``a.dist b``, ``Int.natAbs (a -
    b)``, ``|a - b|``) and its end."""
    text = x.t[i].text
    if text in ("Nat.dist", "dist") and (one := x.atom(i + 1)) is not None and (two := x.atom(one)) is not None:
        return x.t[i + 1 : one], x.t[one:two], two
    head, _, field = text.rpartition(".")
    if field == "dist" and head.isidentifier() and head not in ("Nat", "Real", "Int") and (end := x.atom(i + 1)):
        return [make_token(head, x.t[i])], x.t[i + 1 : end], end
    close = x.partner[i] if text == "(" else None  # `(a).dist b` (red team 51), lexed `( a ) . dist b`
    if close is not None and close + 2 < len(x.t) and [u.text for u in x.t[close + 1 : close + 3]] == [".", "dist"]:
        end = x.atom(close + 3)
        return None if end is None else (x.t[i : close + 1], x.t[close + 3 : end], end)
    if text == "Int.natAbs" and i + 1 < len(x.t) and x.t[i + 1].text == "(" and (close := x.partner[i + 1]):
        if zero_after and not _zero_at(x, close + 1):
            return None
        parts = _difference(x.t[i + 2 : close])
        return None if parts is None else (*parts, close + 1)
    if text == "|" and (close_bar := bars.get(i)) is not None:
        if zero_after and not _zero_at(x, close_bar + 1):
            return None
        parts = _difference(x.t[i + 1 : close_bar])
        return None if parts is None else (*parts, close_bar + 1)
    return None


def _zero_at(x: Text, k: int) -> bool:
    """Whether ``= 0`` stands at ``k`` (read before a distance's points are, which costs their length)."""
    return k + 1 < len(x.t) and x.t[k].text == "=" and x.t[k + 1].text == "0"


def _stops(x: Text, stops: frozenset[str]) -> list[int]:
    """For each place, where reading on from it at its level first meets a token of ``stops`` or a closing
    bracket (a bracketed group passed whole, an unclosed one read into), filled from the right: linear."""
    n = len(x.t)
    out = [n] * (n + 1)
    for k in range(n - 1, -1, -1):
        text, close = x.t[k].text, x.partner[k]
        if text in stops or text in (")", "]", "}", "⟩"):
            out[k] = k
        elif text in ("(", "[", "{", "⟨") and close is not None and close > k:
            out[k] = out[close + 1]
        else:
            out[k] = out[k + 1]
    return out


def _zero_distance(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """A distance equal to ``0``, either side, as its points' equation."""
    t = x.t
    read = _distance(x, i + 2, tables.bars) if t[i].text == "0" and i + 2 < len(t) and t[i + 1].text == "=" else None
    if read is not None:
        return (_equation(read[0], read[1], t[i]), read[2]) if _bounded(x, i, read[2]) else None
    if t[i].text == "compare" and (one := x.atom(i + 1)) is not None and (two := x.atom(one)) is not None:
        ordering = two + 1 < len(t) and t[two].text == "=" and t[two + 1].text == "Ordering.eq"
        return (_equation(t[i + 1 : one], t[one:two], t[i]), two + 2) if ordering and _bounded(x, i, two + 2) else None
    read = _distance(x, i, tables.bars, zero_after=True)
    if read is None or read[2] + 1 >= len(t) or t[read[2]].text != "=" or t[read[2] + 1].text != "0":
        return None
    return (_equation(read[0], read[1], t[i]), read[2] + 2) if _bounded(x, i, read[2] + 2) else None


def _lattice(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """``max a b = min a b`` (``min`` first too, the arguments in either order) as ``a = b``."""
    t = x.t
    if t[i].text not in LATTICE or (one := x.atom(i + 1)) is None or (two := x.atom(one)) is None:
        return None
    if two + 1 >= len(t) or t[two].text != "=" or t[two + 1].text not in LATTICE:
        return None
    if t[two + 1].text[:3] == t[i].text[:3] or (three := x.atom(two + 2)) is None or (four := x.atom(three)) is None:
        return None
    first, second = _texts(x, i + 1, one), _texts(x, one, two)
    if sorted([first, second]) != sorted([_texts(x, two + 2, three), _texts(x, three, four)]):
        return None
    return (_equation(t[i + 1 : one], t[one:two], t[i]), four) if _bounded(x, i, four) else None


def _antisymmetric(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """Two conjuncts ``C₁ ∧ C₂`` at ``i`` (the first's start) bounding each side by the other as ``x = y``."""
    t = x.t
    if t[i].text == "∧" or (i and t[i - 1].text not in RUN_STOPS and t[i - 1].text != "("):
        return None
    middle = tables.conjunct_end[i]
    if middle >= len(t) or t[middle].text != "∧" or middle == i:
        return None
    end = tables.conjunct_end[middle + 1]
    for low, high in _bounds(t[i:middle]):
        for other_low, other_high in _bounds(t[middle + 1 : end]):
            if _plain(low) == _plain(other_high) and _plain(high) == _plain(other_low):
                return _equation(low, high, t[i]), end
    return None


def _bounds(conjunct: Tokens) -> list[tuple[Tokens, Tokens]]:
    """The readings ``(x, y)`` of ``conjunct`` as ``x ≤ y`` or stronger (module doc)."""
    tokens = _stripped(conjunct)
    if tokens and tokens[0].text == "¬":
        inner = _stripped(tokens[1:])
        split = _relation(inner)
        return [] if split is None or split[1] != "<" else [(split[2], split[0])]
    split = _relation(tokens)
    if split is None:
        return []
    left, op, right = split
    read = {"≤": [(left, right)], "≥": [(right, left)]}.get(op, [])
    zero = right if op in ("=", "≤") and _plain(left) != ["0"] else left if op in ("=", "≥") else []
    other = left if zero is right else right
    if _plain(zero) == ["0"] and (parts := _difference(other)) is not None:
        read.append(parts)
    return read


def _relation(tokens: Tokens) -> tuple[Tokens, str, Tokens] | None:
    """``tokens`` as ``left op right`` for the one relation outside brackets, else None."""
    found = _top(tokens, RELATIONS)
    if len(found) != 1 or not 0 < found[0] < len(tokens) - 1:
        return None
    return tokens[: found[0]], tokens[found[0]].text, tokens[found[0] + 1 :]


def _difference(tokens: Tokens) -> tuple[Tokens, Tokens] | None:
    """``a - b`` as ``(a, b)``: the last ``-`` outside brackets, after an operand, with no ``+``/``-`` after it."""
    tokens = _stripped(tokens)
    cut = None
    for k in _top(tokens, frozenset({"+", "-"})):
        if k and tokens[k - 1].text not in OPERATORS:
            cut = k if tokens[k].text == "-" else None
    return None if cut is None or cut == len(tokens) - 1 else (tokens[:cut], tokens[cut + 1 :])


OPERATORS: Final = frozenset({"+", "-", "*", "/", "%", "^", "(", "↑", "¬", *RELATIONS})


def _stripped(tokens: Tokens) -> Tokens:
    """``tokens`` without brackets around the whole of them."""
    while len(tokens) >= 2 and tokens[0].text == "(" and tokens[-1].text == ")" and _whole(tokens):
        tokens = tokens[1:-1]
    return tokens


def _whole(tokens: Tokens) -> bool:
    """Whether the first bracket of ``tokens`` closes at its last token."""
    depth = 0
    for k, token in enumerate(tokens):
        depth += (token.text in ("(", "[", "{", "⟨")) - (token.text in (")", "]", "}", "⟩"))
        if depth == 0:
            return k == len(tokens) - 1
    return False


def _plain(tokens: Tokens) -> list[str]:
    return [t.text for t in _stripped(tokens)]


def _modular(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """``a = b`` (``a ≠ b``: negated) at ``i`` where a side ascribes a part to ``ZMod n`` (``(a : ZMod n) =
    b``, ``((a : ℤ) : ZMod n) = (m : ZMod n) * (k + 1)``) as ``Int.ModEq (n) (a) (b)``, the ascriptions taken
    off: the casts to ``ZMod n`` commute with ``+ - * ^`` (``Int.cast_add``...), so ``b``'s other leaves
    elaborate as the cast of ``b``; not where a side divides or takes a remainder in ``ZMod n``."""
    t = x.t
    if i and t[i - 1].text not in BEFORE:
        return None
    equal = tables.side_end[i]
    if equal == i or equal >= len(t) or t[equal].text not in ("=", "≠"):
        return None
    end = tables.side_end[equal + 1]
    if end == equal + 1 or (end < len(t) and t[end].text not in AFTER):
        return None
    moduli: list[list[str]] = []
    sides = [_unascribed(x, i, equal, moduli), _unascribed(x, equal + 1, end, moduli)]
    if not moduli or any(m != moduli[0] for m in moduli) or _dividing(x, i, end):
        return None
    like = t[i]
    modulus = [make_token(text, like) for text in moduli[0]]
    negation = [make_token("¬", like)] if t[equal].text == "≠" else []
    congruence = [make_token("Int.ModEq", like), *(b for part in (modulus, *sides) for b in _group(part, like))]
    return [*negation, *congruence], end


def _dividing(x: Text, lo: int, hi: int) -> bool:
    """Whether ``x.t[lo:hi]`` divides or takes a remainder other than inside a group ascribed to another type
    (``(∑ m ∈ s, 1 / m : ℚ)``: computed there, then cast)."""
    k = lo
    while k < hi:
        close = x.partner[k] if x.t[k].text == "(" else None
        if close is not None and close > k and _other_type(x, k, close):
            k = close + 1
            continue
        if x.t[k].text in ("/", "⁻¹", "%"):
            return True
        k += 1
    return False


def _other_type(x: Text, k: int, close: int) -> bool:
    colons = _top(x.t[k + 1 : close], frozenset({":"}))
    return bool(colons) and k + 2 + colons[0] < close and x.t[k + 2 + colons[0]].text != "ZMod"


def _group(part: Tokens, like: Token) -> Tokens:
    return [make_token("(", like), *part, make_token(")", like)]


def _unascribed(x: Text, lo: int, hi: int, moduli: list[list[str]]) -> Tokens:
    """``x.t[lo:hi]`` with each ``(e : ZMod n)`` as ``(e)``, each ``n`` put in ``moduli``."""
    out: Tokens = []
    k = lo
    while k < hi:
        close = x.partner[k] if x.t[k].text == "(" else None
        read = _ascribed(x, k) if close is not None else None
        if read is None or close is None:
            out.append(x.t[k])
            k += 1
            continue
        moduli.append(_plain(read[1]))
        out += _group(list(_unascribed(x, k + 1, k + 1 + len(read[0]), moduli)), x.t[k])
        k = close + 1
    return out


def _ascribed(x: Text, i: int) -> tuple[Tokens, Tokens] | None:
    """``(a : ZMod n)`` at ``i``: ``a`` and ``n``."""
    close = x.partner[i]
    if close is None:
        return None
    inner = x.t[i + 1 : close]
    colons = _top(inner, frozenset({":"}))
    colon = colons[-1] if colons else len(inner)
    if colon + 2 >= len(inner) or inner[colon + 1].text != "ZMod":
        return None
    return inner[:colon], inner[colon + 2 :]


def _negated(x: Text, i: int, tables: Tables) -> tuple[Tokens, int] | None:
    """``¬ x ≠ y`` (``¬ (x ≠ y)``) at ``i``, a conjunct, as ``x = y`` (``not_not``, ``ne_eq``; red team 51: a
    Boolean ``¬ (x != y) = true`` under a premise, which the normal form alone read)."""
    t = x.t
    if t[i].text != "¬" or (i and t[i - 1].text not in BEFORE):
        return None
    end = tables.conjunct_end[i + 1] if i + 1 < len(t) else i + 1
    split = _relation(_stripped(t[i + 1 : end]))
    if split is None or split[1] != "≠" or (end < len(t) and t[end].text not in AFTER):
        return None
    return _equation(split[0], split[2], t[i]), end  # a conjunct between separators: no brackets needed


MATCHES: Final[tuple[Match, ...]] = (_boolean, _zero_distance, _lattice, _antisymmetric, _modular, _negated)
