"""The other side found INSIDE a value (red team 18): where a needle stands as a sub-expression.

A copy padded with what changes nothing, ``A n ∧ True``, ``True ∧ A n``, ``¬¬A n``, ``if A n then True
else False``, ``decide (A n) = true``, ``e + 0``, ``1 * e``, ``S ∩ Set.univ``, ``Sᶜᶜ``, ``{x | x ∈ S ∧
True}``, ``[A n].head!``, ``max e e``, ``Nat.card {x // C}``, was no copy to an equality of tokens, and
the answer check can only say ``unknown``: each was accepted. The rule is by class: the value may not
CONTAIN a needle (``_answer_needles``) as a sub-expression, bound variables matched up to renaming, also in
a binder's type (``∃ _ : A n, True``), both in the canonical form of ``_answer_canonical``.

Where a run of a needle's tokens is a sub-expression (:meth:`Haystack.contains`): its brackets balance
(parentheses count here though the comparison drops them; the run may take in parentheses the needle has
at its edges, or ones around an application or atom, ``(f a) + b``), those inside it group as the needle's
do (:func:`groups`; copy red team 31: ``2 * (n + 3)`` held ``2 * n + 3``), and each neighbour ends a term
there: a bracket, a separator (``,``, ``=>``, ``|``, ``then``, ``else``...), or an operator that Lean's
precedences let the needle stand beside whole (``True ∧ P ∧ Q`` holds ``P ∧ Q``, ``P ∧ Q ∧ True`` does
not; a big operator's body is read at precedence 67, so ``∑ j ∈ s, f j + 0`` holds the sum, ``∑ j ∈ s, f
j * 2`` does not). A name or an unknown symbol beside it (``g A n``, ``↑A n``) makes the run part of a
larger application, unless the run is one bracketed group (``Set.image id {x | C}``), an argument.

It stays a reading of tokens after ``_answer_normal``'s rewrites and ``_answer_order``'s normal form (which
orders commutative operands, reads function forms as notation and takes padding off inside arguments and
bodies, red team 22; the identities it applies are listed in ``_answer_commute``): an equivalent condition
rewritten beyond those identities (distributivity, ``x * x`` for ``x ^ 2``, ``n ≠ 0`` for ``0 < n`` where
``n`` is not shown to be a natural number) and point-free padding of an eta-reduced copy still pass. Copy
red team 34 closed what round 33 left (a field on a constant, ``Set.univ.InjOn f``; the pair's equation
anywhere among the conjuncts, its names in typed groups or nested ``∃``; a point-free ``Function.uncurry``;
``⋃₀ S`` for a set of sets not written out; ``Set.InjOn`` written out as nested ``∀``; a bound variable
left untyped where what it stands beside types it; a ``Bool`` solution compared with ``true``). What a text
rule still cannot tell: whether a premise on a quantifier's own variable restricts its domain or holds of
every value (``0 < x`` or ``0 ≤ x`` on ``ℕ``), so both are read as padding and an honest answer that
restricts the domain (``Set.InjOn f {x | 0 < x}`` against ``Function.Injective f``) is refused (copy red
team 35: a premise some value violates is no safer, ``a ≠ b → f a = f b → a = b`` is injectivity); a bound
variable typed only through an application. Copy red team 35 closed a field on a variable whose type is
unwritten (``s.image f``), ``{x | x ∈ S}`` for a term ``S``, ``k + k``, a variable ascribed ``ℕ``. That is
the limit of a text rule, and the check by meaning (which Lean's gates lack) is the answer to them. The
search is linear in the value: the value is indexed once per reading, each needle looked for from its
rarest token's places, each place checked once and charged to the comparison's work budget.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_binding import Signature, in_scope, marked, signatures
from putnam_solver.core.provers.lean._answer_canonical import BINDERS, NUMBERED, canonical_kept
from putnam_solver.core.provers.lean._answer_chains import (
    CHAINS,
    RESTRICTING,
    chain_of,
    held_by_operands,
    inside_longer,
    operator,
)
from putnam_solver.core.provers.lean._answer_needles import KEYWORDS, SEPARATORS, atom_end, unwrapped
from putnam_solver.core.provers.lean._answer_nodes import BODY, CLOSERS, INFIX, OPEN_CLOSE, closers, renamed, unnumbered

PREFIX: Final = {"¬": 40, "-": 75}
"""Prefix operators and the precedence of their argument."""
NEVER: Final = -1
"""The precedence that no neighbour passes: a binder's body runs on over every operator."""


def _reach(kept: Sequence[str]) -> tuple[float, float]:
    """How loosely the side binds on its left and on its right: the lowest precedence of its operators
    outside brackets before its first binder (on the left), and with that binder's body (on the right)."""
    left = right = float("inf")
    depth = 0
    for text in unwrapped(list(kept)):  # `(P ∧ Q)`: the run is looked for without the parentheses
        if text in OPEN_CLOSE:
            depth += 1
        elif text in CLOSERS:
            depth -= 1
        elif depth == 0 and (text in BINDERS or text == "if"):
            return left, min(left, BODY.get(text, NEVER))  # a body read at a precedence
        elif depth == 0 and text in INFIX:
            left = right = min(left, INFIX[text][0])
    return left, right


def _leading(kept: Sequence[str], bracket: str) -> int:
    """How many ``bracket`` tokens ``kept`` begins with."""
    count = 0
    while count < len(kept) and kept[count] == bracket:
        count += 1
    return count


def left_ok(before: str | None, before_that: str | None, reach: float) -> bool:
    if before is None or before in OPEN_CLOSE or before in SEPARATORS or before in KEYWORDS or before == ":":
        return True
    prefix = before in PREFIX and (before_that is None or not atom_end(before_that))
    if prefix:
        return reach >= PREFIX[before]
    if before in INFIX:
        precedence, assoc = INFIX[before]
        return reach >= precedence if assoc == "r" else reach > precedence
    return False


def right_ok(after: str | None, reach: float) -> bool:
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
        typed = canonical_kept(source, types=True, normal=normal)
        plain = Haystack(source, canonical_kept(source, normal=normal), normal, typed[0])
        found += [plain] if typed[0] == plain.plain else [plain, Haystack(source, typed, normal, typed[0])]
    return found


class Haystack:
    """A value's tokens (``source``) in canonical form and with parentheses (``canonical``, from
    :func:`canonical_kept`), with each plain token's place in ``kept``, each bracket's partner and where
    each token occurs."""

    def __init__(
        self, source: list[str], canonical: tuple[list[str], list[str]], normal: bool = True, typed: Sequence[str] = ()
    ) -> None:
        self.source, self.normal = source, normal
        self.plain, self.kept = plain, kept = canonical
        self.at = [i for i, t in enumerate(kept) if t not in ("(", ")")]
        self.partner = closers(kept)
        self.opener = {close: opener for opener, close in self.partner.items()}
        self.depth = [0]  # how many brackets are open before each place
        for text in kept:
            self.depth.append(self.depth[-1] + (text in OPEN_CLOSE) - (text in CLOSERS))
        self.sites = signatures(plain, BINDERS | NUMBERED)  # each bound variable's binder (``_answer_binding``),
        self.sites = marked(self.sites, typed) if typed else self.sites  # a quantifier's domain a point or open
        self.where: dict[str, list[int]] = {}
        for i, text in enumerate(plain):
            self.where.setdefault(unnumbered(text), []).append(i)

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
        anchors = [(len(self.where.get(unnumbered(t), ())), k) for k, t in enumerate(side)]
        count, offset = min(anchors)
        if not count:
            return False
        reach = _reach(side_kept)
        edges = (_leading(side_kept, "("), _leading(side_kept[::-1], ")"))
        for position in self.where[unnumbered(side[offset])]:
            start = position - offset
            if start < 0 or start + size > len(self.plain):
                continue
            budget[0] -= size
            if budget[0] < 0:
                budget[1] = 1
                return False
            if not self._alpha_equal(start, side, scoped):
                continue
            run = self._delimited(start, start + size, reach, edges)
            if run is not None and groups(self.kept, *run) == groups(side_kept, 0, len(side_kept)):
                span = (self.at[start], self.at[start + size - 1] + 1)
                if not longer or not inside_longer(self.kept, *span, longer):
                    return True
        return False

    def _application(self, opener: int | None) -> bool:
        """The group opened at ``opener`` holds an application or an atom (``(f a)``, ``(A)``): parentheses
        around it change no reading, so the run may take them in though the side has none there."""
        if opener is None or opener not in self.partner:
            return False
        return _applicative(self.kept[opener + 1 : self.partner[opener]])

    def _alpha_equal(self, start: int, side: list[str], scoped: Callable[[Mapping[str, str]], bool]) -> bool:
        """The run at ``start`` is ``side`` with its bound variables renamed one to one, those bound outside
        the side to ones bound alike (``scoped``)."""
        backward: dict[str, str] = {}
        return renamed(self.plain[start : start + len(side)], side, {}, backward) and scoped(backward)

    def _delimited(
        self, start: int, end: int, reach: tuple[float, float], edges: tuple[int, int]
    ) -> tuple[int, int] | None:
        """The run ``plain[start:end]`` as a sub-expression, its span in ``kept``: balanced once the side's
        own parentheses at its edges (``edges``: ``(C) ∧ (D)`` has one on each) are taken in, and its
        neighbours end a term; else None."""
        lo, hi, kept = self.at[start], self.at[end - 1] + 1, self.kept
        for k in range(self.depth[lo] - min(self.depth[lo + 1 : hi + 1])):
            lo -= 1
            if lo < 0 or kept[lo] != "(" or (k >= edges[0] and not self._application(lo)):
                return None
        for k in range(self.depth[hi] - self.depth[lo]):
            if hi >= len(kept) or kept[hi] != ")" or (k >= edges[1] and not self._application(self.opener.get(hi))):
                return None
            hi += 1
        if self.depth[hi] != self.depth[lo]:
            return None
        if self.partner.get(lo) == hi - 1:
            return lo, hi  # one bracketed group: an argument whatever stands beside it
        before = kept[lo - 1] if lo >= 1 else None
        before_that = kept[lo - 2] if lo >= 2 else None
        after = kept[hi] if hi < len(kept) else None
        return (lo, hi) if left_ok(before, before_that, reach[0]) and right_ok(after, reach[1]) else None


def groups(kept: Sequence[str], lo: int, hi: int) -> list[tuple[int, str]]:
    """The parentheses of ``kept[lo:hi]`` that group operators, each with the number of other tokens before
    it: the plain tokens of a run leave grouping out, and a value is no copy of a side grouped otherwise
    (copy red team 31: ``2 * (n + 3)`` held ``2 * n + 3``, ``↑(n - 5) - 1`` held ``↑n - 5 - 1``). A pair
    around an application or an atom (``(f a) + b``) groups nothing and is left out."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i in range(lo, hi):
        if kept[i] == "(":
            stack.append(i)
        elif kept[i] == ")" and stack:
            pairs[stack.pop()] = i
    grouping = {
        i for opener, close in pairs.items() if not _applicative(kept[opener + 1 : close]) for i in (opener, close)
    }
    out, plain = [], 0
    for i in range(lo, hi):
        if kept[i] in ("(", ")"):
            out += [(plain, kept[i])] if i in grouping else []
        else:
            plain += 1
    return out


def _applicative(inner: Sequence[str]) -> bool:
    """``inner`` is an application or an atom: each token outside its brackets ends a term."""
    depth = 0
    for text in inner:
        if depth == 0 and not (atom_end(text) or text in OPEN_CLOSE):
            return False
        depth += (text in OPEN_CLOSE) - (text in CLOSERS)
    return bool(inner)
