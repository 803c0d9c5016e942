"""The no-answer value (and the statement's other side) rewritten to what Lean elaborates it to, before
``_answer_copy`` compares them: each rewrite replaces a term by a definitionally equal one.

Red team 15 found the copied question accepted in wrappers ``_answer_unwrap`` reads only at the head, or
not at all: local definitions (``let g := A; g n``, ``h where h := A``, ``let rec``, ``have``),
identities (``Id.run do e``, ``(fun x => x) e``, ``@id T e``, ``cast rfl e``, ``Function.comp f id``,
``A ∘ fun x => x``), beta and eta redexes, ascriptions (``A (n : ℕ)``), tactic blocks that only
introduce and give the term (``by intro n; exact A n``, ``by classical exact A``, ``show T by exact A``),
a one-case ``match``, a pair rebuilt from its projections (``⟨p.1, p.2⟩``), universes (``A.{}``), and
the statement's own definitions unfolded (``HasWinningStrategy n []`` for ``AliceHasWinningStrategy n``).
Red team 27: a ``·`` section anywhere and a named argument of a function whose binders are seen
(``_answer_sections``).
Each is rewritten wherever it stands, on both sides alike. It is still a reading of tokens: a copy in
logic (``A n ∧ True``) or arithmetic (``n + 0``) is no rewrite (``_answer_contains`` finds the side held
inside such padding), and an equivalent one reordered passes. Passes are linear but for their rewrites, and
bounded (:data:`PASSES`, a work budget, :data:`GROWTH`); a value that meets a bound while a rule still
applies is refused (``_answer_copy``), since padding it to the bound would otherwise hide a copy.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from functools import partial
from typing import Final

from putnam_solver.core.provers.lean import (
    _answer_ascribed_sums,
    _answer_binop_casts,
    _answer_divisibility,
    _answer_equalities,
    _answer_gcds,
    _answer_hypothesis_binders,
    _answer_images,
    _answer_intervals,
    _answer_library,
    _answer_multiples,
    _answer_natabs,
    _answer_operations,
    _answer_positives,
    _answer_scalars,
    _answer_successors,
    _answer_tuple_witnesses,
)
from putnam_solver.core.provers.lean._answer_modeq import TRIGGER, congruences
from putnam_solver.core.provers.lean._answer_naturals import carriers, cases
from putnam_solver.core.provers.lean._answer_pairs import pair_point, tuple_pattern
from putnam_solver.core.provers.lean._answer_reduce import (
    PROJECTORS,
    QUANTIFIERS,
    UNCURRY,
    anonymous,
    big_operators,
    membership,
    projections,
    set_builders,
    set_fields,
    uncurried,
)
from putnam_solver.core.provers.lean._answer_sections import named_arguments, sections
from putnam_solver.core.provers.lean._answer_sets import member_builders
from putnam_solver.core.provers.lean._answer_terms import (
    ARROWS,
    BINDERS,
    CLOSERS,
    FUNS,
    IDENTITIES,
    LOCALS,
    OPEN_CLOSE,
    QUIET,
    TERM_TACTICS,
    TRANSPORTS,
    Text,
    Tokens,
    ascription,
    beta,
    binder_names,
    identity,
    is_name,
    lam,
    make_token,
    pairs,
    rewrite,
    substituted,
)
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Command, Token, normalize_name, top_level_assign

PASSES: Final = 32
WORK: Final = 400_000
"""Token visits the normalizations of one comparison may make together (or four per token of a longer value)."""
GROWTH: Final = 8
Unfold = Mapping[str, Tokens] | None
Budget = list[int] | None


def normalized(tokens: Sequence[Token], unfold: Unfold = None, budget: Budget = None) -> Tokens:
    """``tokens`` rewritten until no rule applies (within the bounds of the module doc), the challenge's
    own definitions ``unfold`` (:func:`definitions`) unfolded; names read as Lean means them (``«A»``,
    ``_root_.A``: ``A``)."""
    plain = [normalize_name(t.text).removeprefix("_root_.") if t.kind == IDENT else "" for t in tokens]
    out = [t._replace(text=name) if name and name != t.text else t for t, name in zip(tokens, plain, strict=True)]
    limit, work = GROWTH * len(out) + 256, budget if budget is not None else work_for(out)
    unfolding: Rule = (frozenset(unfold or ()), partial(_unfolded, dict(unfold or {})))
    rules = [*RULES, unfolding] if unfold else RULES
    text, present = Text(out), _present(t.text for t in out)
    for _ in range(PASSES):
        changed = False
        for trigger, rule in rules:
            if trigger.isdisjoint(present):
                continue
            if work[0] < 0:
                work[1] = 1  # a rule that could apply was not run
                continue
            work[0] -= len(out)
            new = rule(text)
            if new is not None and len(new) > limit:
                work[1] = 1
            elif new is not None and new != out:
                out, changed = new, True
                text, present = Text(out), _present(t.text for t in out)
        if not changed:
            break
    else:
        work[1] = 1
    return out


def _present(texts: Iterable[str]) -> set[str]:
    """The token texts, and each field a dotted name calls (``s.image`` triggers ``.image``)."""
    present = set(texts)
    return present | {"." + text.rpartition(".")[2] for text in present if "." in text[1:]}


def _unfolded(unfold: dict[str, Tokens], x: Text) -> Tokens | None:
    return substituted([t for t in x.t if t.text != "@"], unfold)


def normalized_texts(texts: Sequence[str], unfold: Unfold = None, budget: Budget = None) -> list[str]:
    """:func:`normalized` of plain token texts (the statement's other side)."""
    if TRIGGERS.isdisjoint(_present(texts)) and (not unfold or set(unfold).isdisjoint(texts)):
        return list(texts)  # no rule applies (the usual case, decided without making tokens)
    return [t.text for t in normalized([make_token(text, None) for text in texts], unfold, budget)]


def work_for(tokens: Sequence[Token]) -> list[int]:
    """The work budget of :data:`WORK` for the normalizations one comparison makes together, and whether
    one stopped at a bound (:data:`PASSES`, the budget, :data:`GROWTH`) with a rule still applying."""
    return [max(WORK, 4 * len(tokens)), 0]


def definitions(commands: Sequence[Command], skip: Collection[str]) -> dict[str, Tokens]:
    """The challenge's plain, non-recursive ``def``/``abbrev``s (not its answers, ``skip``), each as
    ``fun binders => body``: a name applied and its unfolding are the same term."""
    found: dict[str, Tokens] = {}
    for command in commands:
        tokens = list(command.tokens[command.head + 1 :])
        assign = top_level_assign(tokens, last=False)
        if command.keyword not in ("def", "abbrev") or command.name in skip or not assign:
            continue
        inlined = _inlined(tokens, 0, assign, len(tokens))
        if inlined is not None and not any(t.text in ("|", "where", "deriving") for t in tokens[assign:]):
            found[inlined[0]] = inlined[1]
    return found


def _show(x: Text) -> Tokens | None:
    """``show T from e`` is ``e``, ``show T by tac`` is ``by tac``."""
    after: list[int | None] = [None] * len(x.t)  # the next `from`/`by` beside each token, right to left
    held: list[int | None] = [None]
    for i in range(len(x.t) - 1, -1, -1):
        text = x.t[i].text
        if text in CLOSERS:
            held.append(None)
        elif text in OPEN_CLOSE and len(held) > 1:
            held.pop()
        after[i] = held[-1]
        held[-1] = i if text in ("from", "by") else held[-1]

    def match(i: int) -> tuple[Tokens, int] | None:
        found = after[i] if x.t[i].text == "show" else None
        return ([], found + (x.t[found].text == "from")) if found is not None and found + 1 < x.end[i] else None

    return rewrite(x.t, match)


def _tactic(x: Text) -> Tokens | None:
    """``by [classical] [intro xs;] [show T;] exact e`` (``first | exact e``, ``(exact e)``): ``fun xs => e``."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text != "by":
            return None
        end, j = x.end[i], i + 1
        params: list[str] = []
        column = t[j].col if j < end else 0
        while j < end:
            head = t[j].text
            if head == "classical" or (head == "first" and j + 1 < end and t[j + 1].text == "|"):
                j += 1 + (head == "first")
                continue
            if head == "(" and x.partner[j] == end - 1:
                j, end = j + 1, end - 1
                continue
            if head in TERM_TACTICS and j + 1 < end:
                after = _step_end(x, j, end, column)
                return (lam(params, t[j + 1 : end], t[i]), x.end[i]) if after == end else None
            if head not in QUIET and head != "intro":
                return None
            after = _step_end(x, j, end, column)
            if head == "intro":
                params += [n.text for n in t[j + 1 : after] if is_name(n)]
                if len(params) != len(set(params)) or not all(is_name(n) for n in t[j + 1 : after]):
                    return None
            j = after + (after < end and t[after].text == ";")
        return None

    return rewrite(t, match)


def _step_end(x: Text, j: int, end: int, column: int) -> int:
    """Where the tactic at ``j`` ends: a ``;`` or a later line that begins no further right than ``column``."""
    k, t = j + 1, x.t
    while k < end and t[k].text != ";" and not (t[k].line > t[k - 1].line and t[k].col <= column):
        k = x.skip(k)
    return min(k, end)


def _match(x: Text) -> Tokens | None:
    """``match x with | y => e`` (one alternative, a name or ``_``): ``e`` with ``x`` for ``y``; and a tuple
    pattern, ``match x with | (a, b) => e``, ``e`` with ``x.1`` for ``a`` and ``x.2`` for ``b`` (``x.2.1``...
    for a longer tuple, which nests to the right): what the pattern set-builder ``{(a, b) | e}`` means, and
    copy red team 32's ``{p | match p with | (a, b) => C}`` passed against ``C ↔ (a, b) ∈ solution``."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text != "match" or i + 4 >= len(t) or not is_name(t[i + 1]) or t[i + 2].text != "with":
            return None
        j = i + 3 + (t[i + 3].text == "|")
        names, arrow = tuple_pattern(x, j, t[i + 1])
        if arrow + 1 >= x.end[i] or t[arrow].text not in ARROWS or x.find(arrow + 1, x.end[i], {"|"}) is not None:
            return None
        body = substituted(t, names, arrow + 1, x.end[i])
        return (lam([], body, t[i]), x.end[i]) if body is not None else None

    return rewrite(t, match)


def _let_pattern(x: Text) -> Tokens | None:
    """``let (a, b) := p; e``: ``match p with | (a, b) => e`` (Lean's ``let`` with a pattern), read so."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text != "let" or i + 1 >= x.end[i] or t[i + 1].text not in ("(", "⟨"):
            return None
        close = x.partner[i + 1]
        if close is None or close + 3 >= x.end[i] or t[close + 1].text != ":=" or not is_name(t[close + 2]):
            return None
        names, after = tuple_pattern(x, i + 1, t[close + 2])
        start = close + 3 + (t[close + 3].text == ";")
        if not names or after != close + 1 or (start == close + 3 and t[start].line == t[close + 2].line):
            return None
        body = substituted(t, names, start, x.end[i])
        return (lam([], body, t[i]), x.end[i]) if body is not None else None

    return rewrite(t, match)


_POINT: Final = {"∃": "∧", "∀": "→"}


def _one_point(x: Text) -> Tokens | None:
    """``∃ m, m = e ∧ P`` and ``∀ m, m = e → P`` (``e = m`` too, ``m`` typed or not, ``e`` one name or
    numeral): ``P`` with ``e`` for ``m``. Red team 19: the question re-bound to a variable the body pins to
    the solution's argument (``fun n => ∃ m, m = n ∧ A m``) is the question; the two are equivalent."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        if t[i].text not in _POINT or i + 1 >= x.end[i]:
            return None
        j, end = i + 1, x.end[i]
        group = t[j].text == "(" and x.partner[j] is not None
        name = t[j + 1] if group else t[j]
        comma = x.find(x.skip(j) if group else j + 1, end, {","})
        if not is_name(name) or "." in name.text or comma is None or comma + 4 >= end:
            return None
        if (group and (t[j + 2].text != ":" or x.skip(j) != comma)) or (not group and t[j + 1].text not in (",", ":")):
            return None
        left, eq, right, op = t[comma + 1 : comma + 5]
        if eq.text != "=" or op.text != _POINT[t[i].text] or name.text not in (left.text, right.text):
            return None
        value = right if left.text == name.text else left
        if value.text == name.text or not (is_name(value) or value.kind == NUMBER):
            return None
        body = t[comma + 5 : end]
        if any(b.text == value.text for b in body) and any(b.text in BINDERS or b.text in LOCALS for b in body):
            return None  # a binder in the body may take `e`'s name: substituting could capture it
        inlined = substituted(t, {name.text: [value]}, comma + 5, end)
        return (lam([], inlined, t[i]), end) if inlined is not None else None

    return rewrite(t, match)


def _definition(x: Text, j: int, hi: int, first: Token) -> tuple[int, int] | None:
    """For a local definition whose binders begin at ``j``: its ``:=`` and the end of its value (a ``;``
    or a later line no further right than ``first``, its keyword or name), before ``hi``."""
    assign = x.find(j, hi, {":="})
    if assign is None:
        return None
    k, t = assign + 1, x.t
    while k < hi and t[k].text != ";" and not (k > assign + 1 and t[k].line > first.line and t[k].col <= first.col):
        k = x.skip(k)
    return assign, min(k, hi)


def _inlined(t: Sequence[Token], j: int, assign: int, stop: int) -> tuple[str, Tokens] | None:
    """The definition ``name binders : T := value`` at ``j`` as its name and ``fun binders => value``;
    None for a pattern or a recursive one."""
    depth, typed = 0, assign
    for k in range(j + 1, assign):
        depth += (t[k].text in OPEN_CLOSE) - (t[k].text in CLOSERS)
        if t[k].text == ":" and depth == 0:
            typed = k
            break
    params, value = binder_names(t[j + 1 : typed]), list(t[assign + 1 : stop])
    if not is_name(t[j]) or "." in t[j].text or params is None or not value:
        return None
    if any(v.kind == IDENT and v.text.partition(".")[0] == t[j].text for v in value):
        return None
    return t[j].text, lam(params, value, t[j])


def _local(x: Text) -> Tokens | None:
    """``let g xs := v; e`` (``have``, ``letI``, ``let rec``...): ``e`` with ``fun xs => v`` for ``g``
    (``have : P := p; e``: ``this``)."""
    t = x.t

    def match(i: int) -> tuple[Tokens, int] | None:
        j = i + 1 + (i + 1 < len(t) and t[i + 1].text == "rec")
        if t[i].text not in LOCALS or j >= x.end[i]:
            return None
        anonymous = t[j].text in (":", ":=")
        span = _definition(x, j if anonymous else j + 1, x.end[i], t[i])
        if span is None or span[1] >= x.end[i]:
            return None
        found = ("this", lam([], t[span[0] + 1 : span[1]], t[i])) if anonymous else _inlined(t, j, *span)
        if not found:
            return None
        inlined = substituted(t, dict([found]), span[1] + (t[span[1]].text == ";"), x.end[i])
        return (lam([], inlined, t[i]), x.end[i]) if inlined is not None else None

    return rewrite(t, match)


def _where(x: Text) -> Tokens | None:
    """``e where g xs := v`` (every clause a plain definition): ``e`` with ``fun xs => v`` for ``g``."""
    where = x.find(0, len(x.t), {"where"})
    names: dict[str, Tokens] = {}
    j = where + 1 if where is not None else len(x.t)
    while j < len(x.t):
        span = _definition(x, j + 1, len(x.t), x.t[j])
        found = _inlined(x.t, j, *span) if span is not None else None
        if span is None or found is None:
            return None
        names[found[0]] = found[1]
        j = span[1] + (span[1] < len(x.t) and x.t[span[1]].text == ";")
    return substituted(x.t[:where], names) if names else None


Rule = tuple[frozenset[str], Callable[[Text], "Tokens | None"]]
RULES: Final[list[Rule]] = [
    (frozenset({"show"}), _show),
    (frozenset({"where"}), _where),
    (LOCALS, _local),
    (frozenset({"by"}), _tactic),
    (frozenset({"match"}), _match),
    (frozenset({"match"}), cases),
    (frozenset({"let"}), _let_pattern),
    (frozenset(_POINT), _one_point),
    (frozenset({"∃"}), pair_point),
    (frozenset({"∃", "∀"}), carriers),
    (frozenset({"∃", "∀"}), anonymous),
    (frozenset({"·"}), sections),
    (frozenset({":="}), named_arguments),
    (FUNS, beta),
    (IDENTITIES | TRANSPORTS | FUNS | {"do", "·", "∘", ".", "Function.comp"}, identity),
    (frozenset({"Set.range", "''", "Set.image"}), _answer_images.subtype_ranges),
    (_answer_images.TRIGGERS, _answer_images.typed_images),
    (_answer_equalities.TRIGGERS, _answer_equalities.equalities),
    (_answer_positives.TRIGGERS, _answer_positives.positives),
    (_answer_operations.TRIGGERS, _answer_operations.operations),
    (_answer_divisibility.TRIGGERS, _answer_divisibility.divisibility),
    (_answer_gcds.TRIGGERS, _answer_gcds.gcds),
    (_answer_multiples.TRIGGERS, _answer_multiples.multiples),
    (_answer_hypothesis_binders.TRIGGERS, _answer_hypothesis_binders.hypothesis_binders),
    (_answer_successors.TRIGGERS, _answer_successors.successors),
    (_answer_scalars.TRIGGERS, _answer_scalars.scalars),
    (_answer_intervals.TRIGGERS | _answer_intervals.OPERATORS, _answer_intervals.intervals),
    (_answer_library.TRIGGERS, _answer_library.library),
    (_answer_natabs.TRIGGERS, _answer_natabs.natabs),
    (_answer_tuple_witnesses.TRIGGERS, _answer_tuple_witnesses.tuple_witnesses),
    (_answer_ascribed_sums.TRIGGERS, _answer_ascribed_sums.ascribed_sums),
    (_answer_binop_casts.TRIGGERS, _answer_binop_casts.binop_casts),
    (frozenset({":"}), ascription),
    (frozenset({","}), pairs),
    (frozenset({".", "Function.const", *PROJECTORS}), projections),
    (frozenset({UNCURRY}), uncurried),
    (frozenset({"setOf"}), membership),
    (frozenset({"setOf", "{"}), set_builders),
    (_answer_images.TRIGGERS, _answer_images.images),
    (frozenset({"∈"}), member_builders),
    (frozenset({"{"}), set_fields),
    (frozenset({"Finset.sum", "Finset.prod", "sum", "prod", *QUANTIFIERS}), big_operators),
    (TRIGGER, congruences),
]
TRIGGERS: Final = frozenset().union(*(trigger for trigger, _ in RULES))
