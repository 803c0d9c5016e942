"""The canonical form ``_answer_copy`` compares in, and the other side found INSIDE a value (red team 18).

A copy padded with what changes nothing, ``A n ∧ True``, ``True ∧ A n``, ``¬¬A n``, ``if A n then True
else False``, ``decide (A n) = true``, ``e + 0``, ``1 * e``, ``S ∩ Set.univ``, ``Sᶜᶜ``, ``{x | x ∈ S ∧
True}``, ``[A n].head!``, ``max e e``, ``Nat.card {x // C}``, was no copy to an equality of tokens, and
the answer check can only say ``unknown``: each was accepted. The rule is by class: the value may not
CONTAIN a needle (:func:`needles`) as a sub-expression, bound variables matched up to renaming, also in
a binder's type (``∃ _ : A n, True``). The needles are the other side (read with the statement's
definitions unfolded and as written) and the conditions and bodies it binds, three levels down (a
set-builder's condition, also of a set the side applies a function to, ``Set.ncard {x | C}``, and a
binder's body, ``∑ j ∈ s, B``, ``P ∧ (∀ x, Q x)``), so that ``{n | C ∧ True}``, ``∑ j ∈ s, (B + 0)``
and ``P ∧ ∀ x, Q x ∧ True`` are found too. An honest closed form never holds the question it answers;
a value that holds it and still proves the theorem is the question padded.

What counts as a needle, so that a trivial side refuses nothing:

* a question (:func:`is_question`): at least two tokens, and a name that is not one of the names the
  solution is applied to, or a bound variable (the side binds something to solve for). A side of one
  token (``h``, ``S``, ``0``), or one made only of the solution's arguments and literals (``n + 1``), is
  a closed form the statement states, and an honest answer may hold it (``(n + 1) * 2``). It must be a
  whole term: brackets balanced (an absolute value's bars are a pair, ``_abs_bars``), no ``,``/``:``/``|``
  outside a binder's header, no binder without its body (a reading of the side cut at a binder's comma,
  ``∑ j ∈ s``, would refuse every sum over ``s``);
* a body or condition must also be big enough to ask alone (:func:`_asks_more`: a name of the
  challenge's own applied, three tokens with a name or binder, or :data:`UNNAMED` tokens; ``0 < x``
  under a set-builder is none); ``{f x | x > 0}``'s ``x > 0`` binds ``x`` and is no condition;
* no needle names a variable the theorem binds (``syntax.bound_names``: where Lean reads a binder,
  not every name in a bracket, red team 21; beside the solution's arguments): a value holds it only
  by binding the same name itself, where the canonical form does not know the binder (``∑' m, 1 / m
  ^ 2`` against ``∃ m, m ^ 2 = ..``). Hypotheses that define a variable are unfolded in a second
  reading of the side (``_answer_copy``), whose needles name no such variable.

Where a run of a needle's tokens is a sub-expression (:meth:`Haystack.contains`): its brackets balance
(parentheses count here though the comparison drops them; the run may take in parentheses the needle has
at its edges, or ones around an application or atom, ``(f a) + b``), and each neighbour ends a term
there: a bracket, a separator (``,``, ``=>``, ``|``, ``then``, ``else``...), or an operator that Lean's
precedences let the needle stand beside whole (``True ∧ P ∧ Q`` holds ``P ∧ Q``, ``P ∧ Q ∧ True`` does
not; a big operator's body is read at precedence 67, so ``∑ j ∈ s, f j + 0`` holds the sum, ``∑ j ∈ s, f
j * 2`` does not). A name or an unknown symbol beside it (``g A n``, ``↑A n``) makes the run part of a
larger application, unless the run is one bracketed group (``Set.image id {x | C}``), an argument.

It stays a reading of tokens after ``_answer_normal``'s rewrites and ``_answer_order``'s normal form (which
orders commutative operands, reads function forms as notation and takes padding off inside arguments and
bodies, red team 22): an equivalent condition rewritten beyond those identities (``n ≠ 0`` for ``0 < n``),
point-free padding of an eta-reduced copy, and spellings no rewrite reads as the side (``Set.Mem``) still
pass: that is the limit of a text rule, and the check by meaning (which Lean's gates lack) is the answer to
them. The search is linear in the value: the value is indexed once per reading, each needle looked for
from its rarest token's places, each place checked once and charged to the comparison's work budget.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from functools import lru_cache
from typing import Final

from putnam_solver.core.provers.lean._answer_binders import sorted_binders
from putnam_solver.core.provers.lean._answer_binding import Signature, in_scope, outside, signatures
from putnam_solver.core.provers.lean._answer_chains import (
    CHAINS,
    RESTRICTING,
    chain_of,
    held_by_operands,
    inside_longer,
    operator,
)
from putnam_solver.core.provers.lean._answer_order import CLOSERS, INFIX, OPEN_CLOSE, normal_order
from putnam_solver.core.provers.lean._answer_scopes import scoped
from putnam_solver.core.provers.lean._answer_sets import predicated
from putnam_solver.core.provers.lean._answer_spelling import one_spelling
from putnam_solver.core.provers.lean._idchars import all_digits, starts_alnum, starts_letter

BINDERS: Final = frozenset({"∀", "∃", "∃!", "∑", "∏", "fun", "λ", "⋃", "⋂", "⨆", "⨅"})
NUMBERED: Final = frozenset({"∫", "∮", "∑'", "∏'", "∀ᶠ", "∃ᶠ"})
"""Binders whose variables the canonical form numbers too, though no body of theirs is a needle (red team 21:
``∫ x in s, f x`` binds ``x``, which ``syntax.bound_names`` counts among the theorem's variables)."""
BINDER_ENDS: Final = frozenset({",", "=>", "↦", ":", "∈", "∉", "<", "≤", ">", "≥", "≠", "|", "//", "in"})
BODIES: Final = frozenset({",", "=>", "↦"})
"""What ends a binder's header: its body follows."""
PATTERN: Final = frozenset({",", "(", ")", "⟨", "⟩"})
"""What may stand beside the bound names of a set-builder's binder (``{(a, b) | C}``)."""
SET_BINDER_ENDS: Final = (":", "|", "//", "∈")
"""What follows the bound name of a set-builder: ``{x | C}``, ``{x : T | C}``, ``{x // C}``, ``{x ∈ s | C}``."""
PREFIX: Final = {"¬": 40, "-": 75}
"""Prefix operators and the precedence of their argument."""
BIG: Final = frozenset({"∑", "∏"})
BIG_BODY: Final = 67
"""Mathlib's big operators read their body at precedence 67 (``∑ x ∈ s, f x + 1`` is ``(∑ ..) + 1``)."""
SEPARATORS: Final = frozenset({",", "=>", "↦", "|", "//", ":=", ";", "<|", "|>", "$"})
KEYWORDS: Final = frozenset({"then", "else", "if", "in", "from", "do", "return", "with"})
POSTFIX: Final = frozenset({"ᶜ", "!", "⁻¹", "ᵀ", "ᴴ", "†"})
NEVER: Final = -1
"""The precedence that no neighbour passes: a binder's body runs on over every operator."""


def plain_name(text: str) -> bool:
    return starts_letter(text) and "." not in text and text not in ("fun", "λ", "by")


def canonical_kept(
    texts: Sequence[str], keep: bool = True, types: bool = False, normal: bool = True
) -> tuple[list[str], list[str]]:
    """``texts`` without parentheses and with bound variables numbered in the order they are bound (a copy
    regrouped, ``(∀ x, P x)`` for ``∀ x, P x``, or with a bound variable renamed, ``∑ i`` for ``∑ j``, is
    still a copy), and the same tokens with the parentheses kept (where a run's brackets are judged; empty
    unless ``keep``). Binders' types are left out unless ``types`` (where a needle may stand as well:
    ``∃ _ : A n, True``). Last, unless not ``normal``, the normal form of ``_answer_order`` (red team 22)."""
    kept = list(_canonical(tuple(texts), types))
    kept = normal_order(kept) if normal else kept
    return [t for t in kept if t not in ("(", ")")], kept if keep else []


@lru_cache(maxsize=16)
def _canonical(texts: Sequence[str], types: bool) -> tuple[str, ...]:
    """:func:`canonical_kept` before the normal form, with parentheses (the copy rule reads one value in
    both forms and several times: once). Each binding occurrence gets the next number, read as that only
    within its binder's scope (``_answer_scopes``): a name bound again inside, or used after the scope, is
    another variable (red team 19; the shadowing found after red team 29)."""
    texts = sorted_binders(one_spelling(texts, types))  # red teams 21, 22: as Lean reads them, `∃ c b a`
    at = [k for k, t in enumerate(texts) if t not in ("(", ")")]  # each plain token's place in `texts`
    plain = [texts[k] for k in at]
    sites: dict[int, int] = {}  # a binding occurrence (in `plain`) and its binder's token or `{` (in `texts`)
    typed_at: set[int] = set()  # the `:` of a typed pattern, `{(a, b) : T | ...}`
    for i in range(len(plain) - 1):  # `{(a, b) | ...}`: the pattern's names are bound like `{x | ...}`'s
        pattern = _pattern(plain, i + 1) if plain[i] == "{" else None
        first = i + 1 + (plain[i + 1] == "⟨")
        sites.update({first + 2 * k: at[i] for k in range(len(pattern or ()))})
        if pattern:
            typed_at.add(next(k for k in range(i + 1, len(plain)) if plain[k] in ("|", ":")))
    binding = typed = False
    binder = 0
    predicates = predicated(plain)
    out: list[str | None] = []
    for i, text in enumerate(plain):
        set_builder = i >= 1 and plain[i - 1] == "{" and i + 1 < len(plain) and plain[i + 1] in SET_BINDER_ENDS
        set_builder = set_builder or i in predicates  # `{x ≤ a | C}` (``_answer_sets``)
        if typed and text not in BINDER_ENDS:
            out.append(None)  # a binder's type (``∑ (j : ℕ) ∈ s``): the side elaborates the same without it
            continue
        typed = False
        if text in BINDERS or text in NUMBERED:
            binding, binder = True, at[i]
        elif (binding or (i >= 2 and plain[i - 2] == "{") or i in typed_at) and text == ":" and not types:
            typed = True  # red team 16: `{n | C}` for `{n : ℕ | C}`, the set's type fixes its element's
            out.append(None)
            continue
        elif text in BINDER_ENDS:
            binding = False
            text = "∈" if text == "in" else text  # ``∑ j in s`` is the older spelling of ``∑ j ∈ s``
        elif (binding or set_builder) and plain_name(text):
            sites[i] = binder if binding else at[i - 1]
        out.append(text)
    return tuple(scoped(texts, at, out, sites, BINDERS | NUMBERED))


def _pattern(texts: Sequence[str], i: int) -> list[str] | None:
    """The names ``a, b`` of a set-builder pattern ``a, b |``, ``⟨a, b⟩ |`` or typed, ``a, b : T |``, at
    ``texts[i]`` (parentheses already dropped), if there is one of at least two names (red team 21: the typed
    pattern's names were left free, and a padded copy of ``putnam_1976_a3``'s set was searched for nowhere)."""
    names, j = [], i + (texts[i] == "⟨")
    while j < len(texts) and plain_name(texts[j]):
        names.append(texts[j])
        if j + 1 < len(texts) and texts[j + 1] == ",":
            j += 2
        else:
            j += 1
            break
    j += j < len(texts) and texts[j] == "⟩"
    return names if len(names) >= 2 and j < len(texts) and texts[j] in ("|", ":") else None


def _bound(text: str) -> bool:
    """A bound variable, or a field of one (``#0.encard``)."""
    return text[:1] == "#" and all_digits(text[1:].partition(".")[0])


def _key(text: str) -> str:
    """``text`` with a bound variable's number left out (what :class:`Haystack` indexes by)."""
    return "#" + text.partition(".")[1] + text.partition(".")[2] if _bound(text) else text


def _atom_end(text: str) -> bool:
    return ((starts_alnum(text) or text[:1] in "_«#") and text not in KEYWORDS) or text in CLOSERS or text in POSTFIX


def is_question(kept: Sequence[str], args: Sequence[str]) -> bool:
    """Whether the side (canonical, parentheses kept) is a whole term that asks something (module doc)."""
    texts = [t for t in kept if t not in ("(", ")")]
    asks = any(_bound(t) or ((starts_letter(t) or t[:1] == "«") and t not in args and t not in KEYWORDS) for t in texts)
    if len(texts) < 2 or not asks or kept[0] in INFIX or kept[0] in SEPARATORS or not _atom_end(kept[-1]):
        return False
    depth, header = 0, False
    for text in kept:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in CLOSERS:
            depth -= 1
            if depth < 0:
                return False
        elif depth == 0 and text in BINDERS:
            header = True
        elif depth == 0 and header and text in BODIES:
            header = False
        elif depth == 0 and not header and (text in SEPARATORS or text in (":", ":=")):
            return False
    return depth == 0 and not header


def needles(
    kept: Sequence[str],
    args: Sequence[str],
    local: frozenset[str] = frozenset(),
    own: frozenset[str] = frozenset(),
    depth: int | None = None,
) -> list[tuple[list[str], list[str], dict[str, Signature]]]:
    """What the value may not hold (plain and with parentheses): the side itself, if it is a question, and
    the condition or body it binds, if that is one and names something or binds something itself: a
    set-builder's condition (``{x | C}``, ``{x // C}``, also as an argument, ``Set.ncard {x | C}``) and a
    leading binder's body (``∑ j ∈ s, B``, ``∀ x, B``), down to :data:`DEPTH` levels. A value that holds the
    condition under its own binder, ``{n | C ∧ True}``, is the question re-bound. ``depth`` 0: the side alone.
    Each with its variables bound outside it and their binders (``_answer_binding.outside``)."""
    found: list[tuple[list[str], list[str], dict[str, Signature]]] = []
    sites = signatures([t for t in kept if t not in ("(", ")")], BINDERS | NUMBERED)
    todo = [(list(kept), 0)]
    while todo:
        part, level = todo.pop()
        part = _unwrapped(part)
        whole = is_question(part, args)
        named = {t.partition(".")[0] for t in part if not _bound(t)} & local
        if whole and (level == 0 or _asks_more(part, args, own)) and named <= set(args):
            plain = [t for t in part if t not in ("(", ")")]
            found.append((plain, part, outside(plain, sites, BINDERS | NUMBERED)))
        if (whole or level) and level < (
            DEPTH if depth is None else depth
        ):  # a reading of the side that is no whole term: nothing in it
            todo += [(body, level + 1) for body in _bodies(part)]
    return found


DEPTH: Final = 3
UNNAMED: Final = 12
"""How long a body of bound names, literals and operators alone must be to be a question (``0 < a ∧ 0 < b
∧ 2*a^n = 4*c^n`` is; ``0 < x``, ``x ^ 2 = 2`` and ``0 < n ∧ n % 2 = 1`` are not)."""


def _unwrapped(kept: list[str]) -> list[str]:
    while len(kept) >= 2 and kept[0] == "(" and _partner(kept, 0) == len(kept) - 1:
        kept = kept[1:-1]
    return kept


def _asks_more(kept: Sequence[str], args: Sequence[str], own: frozenset[str]) -> bool:
    """A body big enough to be a question alone: a name of the challenge's own (``own``) applied (``A x``
    under ``{x | A x}``), three tokens or more with a name or a binder (``f x = 0``, ``Nat.choose (k + j)
    j``, ``0 < n ∧ ∃ a, ..``), or :data:`UNNAMED` tokens of bound names, literals and operators. Below
    that a body is a fragment (``P x``, ``0 < x``) an honest condition may repeat."""
    texts = [t for t in kept if t not in ("(", ")")]
    if len(texts) >= 2 and not own.isdisjoint(texts):
        return True
    named = any(
        t in BINDERS or ((starts_letter(t) or t[:1] == "«") and t not in args and t not in KEYWORDS) for t in texts
    )
    return len(texts) >= (3 if named else UNNAMED)


def _bodies(kept: list[str], nested: int = 0) -> list[list[str]]:
    """The conditions of the set-builders outside brackets (or that the side is) before the first binder
    outside brackets, and that binder's body (to the side's end); also of the terms in parentheses there
    (``P ∧ (∀ x, Q x)``), which are no needles themselves."""
    out = []
    depth = 0
    for i, text in enumerate(kept):
        if text in BINDERS and depth == 0 and (sep := _find(kept, i, len(kept), BODIES)) is not None:
            out.append(kept[sep + 1 :])  # the body runs to the side's end
            break
        if text == "(" and depth == 0 and nested < DEPTH and (close := _partner(kept, i)) is not None:
            out += _bodies(kept[i + 1 : close], nested + 1)
        if text == "{" and depth == 0 and (close := _partner(kept, i)) is not None:
            bar = _find(kept, i + 1, close, {"|", "//"})
            head = kept[i + 1 : bar if bar is None or kept[i + 2] not in ("∈", "∉") else i + 2]
            binder = bar is not None and all(_bound(t) or t in PATTERN for t in head)
            if binder and bar is not None:  # not `{f x | x > 0}`, whose `x > 0` binds `x`
                out.append(kept[bar + 1 : close])
        depth += (text in OPEN_CLOSE) - (text in CLOSERS)
    return out


def _find(kept: Sequence[str], lo: int, hi: int, wanted: Collection[str]) -> int | None:
    """The first of ``wanted`` in ``kept[lo:hi]`` outside the brackets opened there."""
    depth = 0
    for j in range(lo, hi):
        if depth == 0 and kept[j] in wanted:
            return j
        depth += (kept[j] in OPEN_CLOSE) - (kept[j] in CLOSERS)
    return None


def _reach(kept: Sequence[str]) -> tuple[float, float]:
    """How loosely the side binds on its left and on its right: the lowest precedence of its operators
    outside brackets before its first binder (on the left), and with that binder's body (on the right)."""
    left = right = float("inf")
    depth = 0
    for text in _unwrapped(list(kept)):  # `(P ∧ Q)`: the run is looked for without the parentheses
        if text in OPEN_CLOSE:
            depth += 1
        elif text in CLOSERS:
            depth -= 1
        elif depth == 0 and (text in BINDERS or text == "if"):
            return left, min(left, BIG_BODY if text in BIG else NEVER)
        elif depth == 0 and text in INFIX:
            left = right = min(left, INFIX[text][0])
    return left, right


def _partner(kept: Sequence[str], i: int) -> int | None:
    depth = 0
    for j in range(i, len(kept)):
        depth += (kept[j] in OPEN_CLOSE) - (kept[j] in CLOSERS)
        if depth == 0:
            return j
    return None


def _leading(kept: Sequence[str], bracket: str) -> int:
    """How many ``bracket`` tokens ``kept`` begins with."""
    count = 0
    while count < len(kept) and kept[count] == bracket:
        count += 1
    return count


def _left_ok(before: str | None, before_that: str | None, reach: float) -> bool:
    if before is None or before in OPEN_CLOSE or before in SEPARATORS or before in KEYWORDS or before == ":":
        return True
    prefix = before in PREFIX and (before_that is None or not _atom_end(before_that))
    if prefix:
        return reach >= PREFIX[before]
    if before in INFIX:
        precedence, assoc = INFIX[before]
        return reach >= precedence if assoc == "r" else reach > precedence
    return False


def _right_ok(after: str | None, reach: float) -> bool:
    if after is None or after in CLOSERS or after in SEPARATORS or after in KEYWORDS or after == ":":
        return True
    if after in INFIX:
        precedence, assoc = INFIX[after]
        return precedence < reach or (precedence == reach and assoc == "l")
    return False


def haystacks(source: list[str]) -> list[Haystack]:
    """The value's tokens ``source`` indexed for the search, and again with binders' types kept if it has
    any (a needle in a type, ``∃ _ : A n, True``, is held as well)."""
    found = []
    for normal in (True, False):  # in normal form and as written (``_answer_copy._forms``)
        plain = Haystack(source, canonical_kept(source, normal=normal), normal)
        typed = canonical_kept(source, types=True, normal=normal)
        found += [plain] if typed[0] == plain.plain else [plain, Haystack(source, typed, normal)]
    return found


class Haystack:
    """A value's tokens (``source``) in canonical form and with parentheses (``canonical``, from
    :func:`canonical_kept`), with each plain token's place in ``kept``, each bracket's partner and where
    each token occurs."""

    def __init__(self, source: list[str], canonical: tuple[list[str], list[str]], normal: bool = True) -> None:
        self.source, self.normal = source, normal
        self.plain, self.kept = plain, kept = canonical
        self.at = [i for i, t in enumerate(kept) if t not in ("(", ")")]
        self.partner: dict[int, int] = {}
        self.opener: dict[int, int] = {}
        self.depth = [0] * (len(kept) + 1)
        stack: list[int] = []
        for i, text in enumerate(kept):
            self.depth[i + 1] = self.depth[i]
            if text in OPEN_CLOSE:
                stack.append(i)
                self.depth[i + 1] += 1
            elif text in CLOSERS:
                self.depth[i + 1] -= 1
                if stack:
                    self.partner[stack[-1]], self.opener[i] = i, stack[-1]
                    stack.pop()
        self.sites = signatures(plain, BINDERS | NUMBERED)  # each bound variable's binder (``_answer_binding``)
        self.where: dict[str, list[int]] = {}
        for i, text in enumerate(plain):
            self.where.setdefault(_key(text), []).append(i)

    def contains(
        self,
        side: list[str],
        side_kept: list[str],
        budget: list[int],
        padded: Collection[str] = CHAINS,
        free: Mapping[str, Signature] | None = None,
    ) -> bool:
        """Whether ``side`` stands in the value as a sub-expression (module doc); each comparison is
        charged to ``budget`` (``_answer_normal.work_for``), which it marks when spent. A side that is a
        chain is read by its operands (``_answer_chains``): held among more where its operator is one of
        ``padded``, else never as a part of a longer chain. A variable of the side bound outside it (``free``)
        is matched only by one the value binds alike (``_answer_binding``)."""
        free = free or {}

        def scoped(pairs: Mapping[str, str]) -> bool:
            return in_scope(pairs, free, self.sites)

        size = len(side)
        if size > len(self.plain) or size == 0:
            return False
        chain = chain_of(side_kept)
        op = operator(chain) if chain is not None else ""
        if chain is not None and op in padded and held_by_operands(self.kept, chain, budget, scoped):
            return True
        longer = RESTRICTING - frozenset(padded)  # a premise beside more by ∧/∩: restricted (``_answer_chains``)
        anchors = [(len(self.where.get(_key(t), ())), k) for k, t in enumerate(side)]
        count, offset = min(anchors)
        if not count:
            return False
        reach = _reach(side_kept)
        edges = (_leading(side_kept, "("), _leading(side_kept[::-1], ")"))
        for position in self.where[_key(side[offset])]:
            start = position - offset
            if start < 0 or start + size > len(self.plain):
                continue
            budget[0] -= size
            if budget[0] < 0:
                budget[1] = 1
                return False
            if self._alpha_equal(start, side, scoped) and self._delimited(start, start + size, reach, edges):
                span = (self.at[start], self.at[start + size - 1] + 1)
                if not longer or not inside_longer(self.kept, *span, longer):
                    return True
        return False

    def _application(self, opener: int | None) -> bool:
        """The group opened at ``opener`` holds an application or an atom (``(f a)``, ``(A)``): parentheses
        around it change no reading, so the run may take them in though the side has none there."""
        if opener is None or opener not in self.partner:
            return False
        depth = 0
        for text in self.kept[opener + 1 : self.partner[opener]]:
            if depth == 0 and not (_atom_end(text) or text in OPEN_CLOSE):
                return False
            depth += (text in OPEN_CLOSE) - (text in CLOSERS)
        return True

    def _alpha_equal(self, start: int, side: list[str], scoped: Callable[[Mapping[str, str]], bool]) -> bool:
        """The run at ``start`` is ``side`` with its bound variables renamed one to one, those bound outside
        the side to ones bound alike (``scoped``)."""
        forward: dict[str, str] = {}
        backward: dict[str, str] = {}
        for mine, theirs in zip(self.plain[start : start + len(side)], side, strict=True):
            if _bound(mine) and _bound(theirs):
                (mine, _, field), (theirs, _, other) = mine.partition("."), theirs.partition(".")
                if field != other or forward.setdefault(mine, theirs) != theirs:
                    return False
                if backward.setdefault(theirs, mine) != mine:
                    return False
            elif mine != theirs:
                return False
        return scoped(backward)

    def _delimited(self, start: int, end: int, reach: tuple[float, float], edges: tuple[int, int]) -> bool:
        """The run ``plain[start:end]`` is a sub-expression: balanced once the side's own parentheses at
        its edges (``edges``: ``(C) ∧ (D)`` has one on each) are taken in, and its neighbours end a term."""
        lo, hi, kept = self.at[start], self.at[end - 1] + 1, self.kept
        for k in range(self.depth[lo] - min(self.depth[lo + 1 : hi + 1])):
            lo -= 1
            if lo < 0 or kept[lo] != "(" or (k >= edges[0] and not self._application(lo)):
                return False
        for k in range(self.depth[hi] - self.depth[lo]):
            if hi >= len(kept) or kept[hi] != ")" or (k >= edges[1] and not self._application(self.opener.get(hi))):
                return False
            hi += 1
        if self.depth[hi] != self.depth[lo]:
            return False
        if self.partner.get(lo) == hi - 1:
            return True  # one bracketed group: an argument whatever stands beside it
        before = kept[lo - 1] if lo >= 1 else None
        before_that = kept[lo - 2] if lo >= 2 else None
        after = kept[hi] if hi < len(kept) else None
        return _left_ok(before, before_that, reach[0]) and _right_ok(after, reach[1])
