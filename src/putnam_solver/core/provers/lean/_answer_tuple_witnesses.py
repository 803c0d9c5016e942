"""Witnesses packed in a function, read as the witnesses themselves, for ``_answer_normal`` (value red team 52).

``putnam_2024_a1`` asks ``∃ (a b c : ℕ), 0 < a ∧ .. ∧ 2*a^n + 3*b^n = 4*c^n``; its copy with the three
witnesses packed in one ``v : Fin 3 → ℕ`` (``0 < v 0 ∧ .. ∧ 2*(v 0)^n + 3*(v 1)^n = 4*(v 2)^n``) passed.
A function read only at numerals is its values there: ``∃ v : D → T, P (v 0) (v 1)`` is ``∃ a b : T, P a b``
and ``∀`` likewise (``Fin.exists_fin_succ``, ``Fin.forall_fin_succ``; for ``D`` ``ℕ`` or ``ℤ`` any values at
distinct points are a function's, ``Function.update``), ``D`` ``Fin k`` with every numeral below ``k`` (a
numeral of ``Fin k`` is read modulo ``k``), ``ℕ`` or ``ℤ``. A conjunct ``∀ i, Q (v i)`` over ``Fin k`` is
``Q (v 0) ∧ .. ∧ Q (v (k-1))`` (``Fin.forall_fin_succ``) and read so first.

Read only where the tokens delimit it: the binder ``∃ v : D → T,`` (or ``(v : D → T)``) and every
occurrence of ``v`` in its body applied to one numeral (``v.1``, ``v`` alone, bound again: no reading); the
new names occur nowhere in the text. Reading more as the question only refuses more.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._answer_terms import Text, Tokens, is_name, make_token
from putnam_solver.core.provers.lean.syntax import NUMBER, Token

TRIGGERS: Final = frozenset({"Fin", "→"})
DOMAINS: Final = frozenset({"ℕ", "Nat", "ℤ", "Int"})
LIMIT: Final = 16
"""The most witnesses one function is read as (``Fin 1000 → ℕ`` is no tuple the question spells out)."""


def tuple_witnesses(x: Text) -> Tokens | None:
    """The first function-packed witnesses of ``x`` read as the witnesses (module doc); None when none."""
    for i in range(len(x.t)):
        found = _unpacked(x, i)
        if found is not None:
            return [*x.t[:i], *found, *x.t[x.end[i] :]]
    return None


def _header(t: Tokens, i: int) -> tuple[Token, int | None, Tokens, int] | None:
    """For ``∃ v : D → T ,`` (``∃ (v : D → T) ,``) at ``i``: ``v``, ``k`` for ``D`` ``Fin k`` (None for ``ℕ``,
    ``ℤ``), ``T`` and the ``,``."""
    if t[i].text not in ("∃", "∀") or i + 5 >= len(t):
        return None
    grouped = t[i + 1].text == "("
    at = i + 2 if grouped else i + 1
    if not is_name(t[at]) or "." in t[at].text or t[at + 1].text != ":":
        return None
    k: int | None = None
    if t[at + 2].text == "Fin" and t[at + 3].kind == NUMBER and t[at + 3].text.isdigit():
        k, arrow = int(t[at + 3].text), at + 4
    elif t[at + 2].text in DOMAINS:
        arrow = at + 3
    else:
        return None
    stop = next((j for j in range(arrow + 1, len(t)) if t[j].text in (",", ")", "→", "(", ":")), None)
    if k == 0 or (k or 0) > LIMIT or t[arrow].text != "→" or stop is None or stop == arrow + 1:
        return None
    comma = stop + 1 if grouped and t[stop].text == ")" else stop
    if comma >= len(t) or t[comma].text != ",":
        return None
    return t[at], k, t[arrow + 1 : stop], comma


def _unpacked(x: Text, i: int) -> Tokens | None:
    t = x.t
    found = _header(t, i)
    if found is None:
        return None
    v, k, kind, comma = found
    body = _spread(Text(list(t[comma + 1 : x.end[i]])), v.text, k) if k is not None else list(t[comma + 1 : x.end[i]])
    texts = {u.text for u in t}
    out, points = list[Token](), dict[int, str]()
    at = 0
    while at < len(body):
        u = body[at]
        if u.text.partition(".")[0] == v.text and u.text != v.text:
            return None
        if u.text != v.text:
            out.append(u)
            at += 1
            continue
        c = body[at + 1] if at + 1 < len(body) else None
        if c is None or c.kind != NUMBER or not c.text.isdigit() or (k is not None and int(c.text) >= k):
            return None
        name = points.setdefault(int(c.text), f"{v.text}_{int(c.text)}")
        if name in texts or len(points) > LIMIT:
            return None
        out.append(make_token(name, u))
        at += 2
    if not points:
        return None
    names = [make_token(points[c], v) for c in sorted(points)]
    return [t[i], *names, make_token(":", v), *kind, t[comma], *out]


def _spread(body: Text, v: str, k: int) -> Tokens:
    """``body`` with each ``∀ j, Q`` (``∀ j : Fin k,``) whose ``j`` stands only as ``v j`` read as ``(Q (v 0)
    ∧ .. ∧ Q (v (k-1)))``."""
    t = body.t
    for i in range(len(t) - 3):
        if t[i].text != "∀" or not is_name(t[i + 1]):
            continue
        j = t[i + 1].text
        header = [u.text for u in t[i + 2 : i + 5]]
        start = i + 3 if header[0] == "," else i + 6 if header == [":", "Fin", str(k)] else None
        if start is None or start > len(t) or t[start - 1].text != ",":
            continue
        inner = t[start : body.end[i]]
        uses = [m for m, u in enumerate(inner) if u.text.partition(".")[0] == j]
        if not uses or any(m == 0 or inner[m - 1].text != v or inner[m].text != j for m in uses):
            continue
        like = t[i]
        spread: Tokens = [make_token("(", like)]
        for c in range(k):
            point = make_token(str(c), like)
            spread += [make_token("∧", like)] if c else []
            spread += [make_token("(", like), *(point if u.text == j else u for u in inner), make_token(")", like)]
        return _spread(Text([*t[:i], *spread, make_token(")", like), *t[body.end[i] :]]), v, k)
    return list(t)
