"""The answer check's reading of a set or predicate answer at points: one where Coq decides the two apart.

Red team 31. A wrong set answer was only ever ``unknown``: the equality attempt compares the two conditions
at every point by logic (``answers.SAME_SET``), which can confirm, never refute, and the other attempts read
numbers. On a statement every answer satisfies (the vacuous ``putnam_2013_b2``'s kind) only ``differs``
keeps a wrong answer from being ``accepted``; so ``fun n => n = 1`` for the official ``fun n => n = 1 \\/ n =
7`` was ``accepted``, though Coq decides that ``7`` is in one set and not in the other.

So a last attempt applies the hypothesis ``candidate = official`` at concrete points and, at each, asks a
fixed decision tactic (:data:`DECIDE`: ``lia``, ``lra``, computation, ``nra``) to prove the point a member of
one set and not of the other. The points come from the official answer's declared type, read in the pinned
text: each argument of a predicate (``nat -> nat -> Prop``), the element type of ``set T``/``Ensemble T``, a
pair of such types, and each set of a tuple answer (``(set nat) * (set nat)``); ``nat``, ``Z`` and, where the
statement loads the standard reals, ``R``. Their values are the numerals of both answers and their neighbours
(where two sets usually part), then small defaults, :data:`POINT_BUDGET` tuples at most.

Only where the statement pins membership at every point (:func:`asked_everywhere`: ``X = solution``, or ``forall
x, P x <-> solution x`` with no hypothesis or premise): an answer apart from the official one only where the
question does not ask (``a <= 0`` for ``putnam_1995_a2``, which asks where ``a > 0``) is the same answer, as a
function answer equal where asked is (``answers.POINTS``), and would be ``disputed`` with a sound proof.

Nothing here can make a ``differs`` wrong: the attempt is a ``Qed`` of ``candidate <> official`` the kernel
checks in the harness's file. A type it does not know, a point of the wrong type, a membership no tactic
decides, or its ``Timeout`` leave the answer ``unknown``, as before. The candidate's text only proposes
points; Coq decides at each.

Round 44: before a point is decided, set membership is read as application by the libraries the file has
loaded (``loaded_unfold``'s ``membership``: MathComp's ``mkset`` and the sets' operations, Ensembles' ``In``,
each looked up by Ltac2's ``Env.get``), no longer by the words of the statement's text: a library loaded
without its name (``Rstruct`` loads ``classical_sets``) left the wrappers folded and a point undecided, and
a library named only in a comment put a missing constant in the attempt's ``Ltac``, which stopped its file.
Round 46: whether points of the standard reals are tried (``reals``) follows what the reference loads, asked
of Coq by the answer check (``loaded_reals``), no longer the text's words.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from typing import Final

from putnam_solver.core.provers.rocq.answer_bounds import z_term
from putnam_solver.core.provers.rocq.loaded_unfold import MEMBERSHIP_TACTIC, loaded_sentences
from putnam_solver.core.provers.rocq.statement_shape import Statement, solution_body_start
from putnam_solver.core.provers.rocq.syntax import Kind, LexError, tokenize

POINT_BUDGET: Final = 64
"""How many points (tuples of arguments) each set of the answer is tried at."""
NUMERAL_LIMIT: Final = 1000
"""The largest numeral taken from an answer as a point (``nat`` is unary: ``10 ^ 6`` as a term is large)."""
DEFAULTS: Final = (*map(Fraction, (0, 1, 2, 3, -1, -2, 4, 5)), Fraction(1, 2), Fraction(-1, 2))
"""Points tried after the answers' own numerals, in this order (each where its type has it)."""
DECIDE: Final = "first [ lia | lra | (vm_compute; intuition congruence) | nra ]"
"""The decision of one membership, or of its negation, at a closed point: arithmetic over ``nat``, ``Z`` and
the standard reals, or computation (MathComp's Boolean tests: ``prime``, ``%|``, ``%[mod]``)."""
APART: Final = "__putnam_member_apart"
MEMBER_LTAC: Final = (
    f"Ltac {APART} q := lazymatch type of q with @Coq.Init.Logic.eq Prop ?A ?B => "
    "let a := fresh in let b := fresh in first [ "
    f"(assert (a : A) by ({DECIDE}); assert (b : Coq.Init.Logic.not B) by ({DECIDE}); "
    "exact (b (Coq.Init.Logic.eq_ind A (fun p : Prop => p) a B q))) "
    f"| (assert (b : B) by ({DECIDE}); assert (a : Coq.Init.Logic.not A) by ({DECIDE}); "
    "exact (a (Coq.Init.Logic.eq_ind B (fun p : Prop => p) b A (Coq.Init.Logic.eq_sym q)))) ] end."
)
"""From ``q : A = B`` (two memberships), ``False`` when one is proved and the other refuted."""

_R = "Coq.Reals.Rdefinitions"
Node = str | tuple[str, "Node", "Node"]
"""A type read by :func:`_parse`: a name, or an operator (``->``, ``*``, ``app``) with its two operands."""


def _term(base: str, value: Fraction) -> str | None:
    """``value`` as a closed term of ``base`` in full names (no numeral notation, whose scope may be unloaded),
    or None where the type has no such value."""
    whole = value.denominator == 1
    if base == "nat":
        return f"{value.numerator}%nat" if whole and 0 <= value <= NUMERAL_LIMIT else None
    if base == "Z":
        return z_term(value.numerator) if whole else None
    if value.denominator == 1:
        return f"({_R}.IZR {z_term(value.numerator)})"
    return f"({_R}.Rdiv ({_R}.IZR {z_term(value.numerator)}) ({_R}.IZR {z_term(value.denominator)}))"


def _parse(words: list[str]) -> Node | None:
    """A type's words as a tree: ``("->", a, b)``, ``("*", a, b)``, ``("app", f, a)``, or a name. None when
    the words are no type this reading knows (a ``%type`` scope after a bracket is passed over)."""

    def arrow(i: int) -> tuple[Node, int]:
        left, i = product(i)
        if i < len(words) and words[i] == "->":
            right, i = arrow(i + 1)
            return ("->", left, right), i
        return left, i

    def product(i: int) -> tuple[Node, int]:
        left, i = application(i)
        while i < len(words) and words[i] == "*":
            right, i = application(i + 1)
            left = ("*", left, right)
        return left, i

    def application(i: int) -> tuple[Node, int]:
        parts: list[Node] = []
        while i < len(words) and words[i] not in ("->", "*", ")"):
            if words[i] == "(":
                inner, i = arrow(i + 1)
                if i >= len(words) or words[i] != ")":
                    raise ValueError(words)
                i += 1 + 2 * (words[i + 1 : i + 3] == ["%", "type"])
                parts.append(inner)
            else:
                parts.append(words[i])
                i += 1
        if not parts or len(parts) > 2:
            raise ValueError(words)
        return (parts[0] if len(parts) == 1 else ("app", parts[0], parts[1])), i

    try:
        tree, end = arrow(0)
    except (ValueError, IndexError, RecursionError):
        return None
    return tree if end == len(words) else None


def _leaves(node: Node, bases: frozenset[str]) -> list[str] | None:
    """The base types of a point's type (a pair's two), or None where one is not in ``bases``."""
    if isinstance(node, str):
        return [node] if node in bases else None
    operator, a, b = node
    left, right = _leaves(a, bases), _leaves(b, bases)
    return left + right if operator == "*" and left is not None and right is not None else None


def _arguments(node: Node, bases: frozenset[str]) -> list[Node] | None:
    """The argument types of a predicate type (``A -> B -> Prop``, ``set A``, ``Ensemble A``), or None."""
    if isinstance(node, str):
        return [] if node == "Prop" else None
    operator, a, b = node
    if operator == "->":
        rest = _arguments(b, bases)
        return [a, *rest] if rest is not None and _leaves(a, bases) else None
    if operator == "app" and a in ("set", "Ensemble"):
        return [b] if _leaves(b, bases) else None
    return None


def _components(
    node: Node, bases: frozenset[str], path: tuple[str, ...] = ()
) -> list[tuple[tuple[str, ...], list[Node]]]:
    """Each set of the answer with its projections from the whole (``fst``, ``snd``) and argument types."""
    arguments = _arguments(node, bases)
    if arguments:
        return [(path, arguments)]
    if isinstance(node, tuple) and node[0] == "*":
        return _components(node[1], bases, (*path, "fst")) + _components(node[2], bases, (*path, "snd"))
    return []


def _numerals(*texts: str) -> list[Fraction]:
    """The whole numerals of ``texts`` in order, each with its neighbours (``n``, ``n + 1``, ``n - 1``, ``n +-
    1/2``), their negations, then :data:`DEFAULTS`: where two sets defined by numerals part."""
    found: list[Fraction] = []
    for text in texts:
        try:
            tokens = tokenize(text)
        except LexError:
            continue
        found += [
            Fraction(int(t.text)) for t in tokens if t.kind is Kind.WORD and t.text.isdigit() and len(t.text) < 10
        ]
    near = [n + d for n in found for d in (0, 1, -1, Fraction(1, 2), Fraction(-1, 2))]
    return list(dict.fromkeys([*near, *(-n for n in near), *DEFAULTS]))


def _tuples(coordinates: list[list[str]]) -> list[tuple[str, ...]]:
    """At most :data:`POINT_BUDGET` tuples of the coordinates' values, those of their first values first."""
    width = max(2, math.ceil(POINT_BUDGET ** (1 / max(1, len(coordinates)))))
    heads = [values[:width] for values in coordinates]
    ranked = sorted(itertools.product(*(range(len(h)) for h in heads)), key=lambda ix: (max(ix, default=0), ix))
    return [tuple(h[i] for h, i in zip(heads, ix, strict=True)) for ix in ranked[:POINT_BUDGET]]


def _point(argument: Node, values: tuple[str, ...]) -> tuple[str, int]:
    """An argument's term from the coordinates ``values`` (a pair takes two), and how many it took."""
    if isinstance(argument, tuple) and argument[0] == "*":
        left, used = _point(argument[1], values)
        right, more = _point(argument[2], values[used:])
        return f"(Coq.Init.Datatypes.pair {left} {right})", used + more
    return values[0], 1


def _depths(words: list[str]) -> list[int]:
    """Each word's bracket depth (a bracket itself counts at the outer depth)."""
    depths, depth = [], 0
    for word in words:
        depth -= word in (")", "]", "}")
        depths.append(depth)
        depth += word in ("(", "[", "{")
    return depths


def _unwrapped(words: list[str]) -> list[str]:
    """``words`` without brackets around the whole."""
    while len(words) > 1 and words[0] == "(" and words[-1] == ")" and min(_depths(words)[1:-1], default=1) >= 1:
        words = words[1:-1]
    return words


def _top(words: list[str], word: str) -> list[int]:
    return [i for i, (w, d) in enumerate(zip(words, _depths(words), strict=True)) if w == word and d == 0]


MEMBERSHIP_WORDS: Final = frozenset({"In", "_", "fst", "snd", "in", "\\", "(", ")", ","})
"""What may stand beside the solution and its arguments where the statement asks a membership (``In _ sol n``,
``n \\in fst sol``, ``sol (b, c)``)."""


def asked_everywhere(statement: Statement) -> bool:
    """Whether the statement pins the answer's membership at every point, so that two answers apart at a point
    are two answers, one of them wrong: its theorem concludes ``X = solution`` (or ``solution = X``), or it has
    no hypothesis (only ``let``-bound binders) and states ``forall x ..., P x ... <-> solution x ...`` with
    binders of one-word types and no premise. A question asked only where ``a > 0`` (``putnam_1995_a2``), under
    a hypothesis (``putnam_1997_b3``'s ``hn : gt n 0``) or at one point is not: two answers apart only where it
    does not ask are the same answer, as two function answers equal where the question asks are
    (``answers.POINTS``). Read in the pinned text; any other shape is no (the answer then stays ``unknown``)."""
    sentence = statement.sentences[statement.theorem]
    words = [t.text for t in sentence.tokens[sentence.command_index() + 2 : -1]]
    colon = _top(words, ":")
    if not colon:
        return False
    binders, conclusion = words[: colon[0]], _unwrapped(words[colon[0] + 1 :])
    name = statement.solution_name
    if len(_top(conclusion, "=")) == 1 and not any(_top(conclusion, w) for w in ("<->", "->", "/\\", "\\/")):
        at = _top(conclusion, "=")[0]
        return [name] in (conclusion[:at], conclusion[at + 1 :])
    groups = _groups(binders)
    if groups is None or not all(_top(group, ":=") for group in groups):
        return False  # a binder that is no `let` (a hypothesis, a parameter the answer may be asked at)
    bound: set[str] = set()
    if conclusion[:1] == ["forall"] and (comma := _top(conclusion, ",")):
        names = _bound(conclusion[1 : comma[0]])
        if names is None:
            return False  # a binder whose type is more than one word (a proposition, a subset)
        bound, conclusion = names, _unwrapped(conclusion[comma[0] + 1 :])
    iff = _top(conclusion, "<->")
    if len(iff) != 1 or _top(conclusion, "->"):
        return False
    sides = (conclusion[: iff[0]], conclusion[iff[0] + 1 :])
    return any(name in side and set(side) <= {name, *bound, *MEMBERSHIP_WORDS} for side in sides)


def _groups(words: list[str]) -> list[list[str]] | None:
    """The contents of the bracketed groups ``words`` is made of (``(a : T) (b : U := e)``), or None."""
    groups: list[list[str]] = []
    for word, depth in zip(words, _depths(words), strict=True):
        if depth > 0:
            groups[-1].append(word)
        elif word == "(":
            groups.append([])
        elif word != ")":
            return None  # a word outside the groups
    return groups


def _bound(binders: list[str]) -> set[str] | None:
    """The names ``forall`` binds in ``a b : T`` or ``(a b : T) (c : U)``, each type one word; else None."""
    groups = [binders] if binders[:1] != ["("] else _groups(binders)
    names: set[str] = set()
    for group in groups or [[]]:
        if len(group) < 3 or group[-2] != ":" or group.count(":") != 1 or {"(", ")"} & set(group):
            return None
        names |= set(group[:-2])
    return names


MEMBER: Final = "__putnam_member"
DIFFERENT_MEMBER: Final = f"intro __putnam_h; {MEMBER} __putnam_h"
"""The attempt's tactic: the Ltac :func:`member_ltac` defines, on the hypothesis ``candidate = official``."""


def member_ltac(statement: Statement, ours: str, theirs: str, reals: bool) -> str:
    """The Ltac definitions the attempt's tactic calls: ``__putnam_member h`` refutes ``h : candidate =
    official`` at a point of a set of the answer, and fails when no set of the answer has argument types
    this reading knows (:func:`member_points`); after the tactics that read set membership by what the file
    has loaded (``loaded_unfold``)."""
    tries = member_points(statement, ours, theirs, reals)
    loaded = "\n".join(loaded_sentences())
    return f"{loaded}\n{MEMBER_LTAC}\nLtac {MEMBER} h := first [ {' | '.join(tries) or 'fail'} ]."


def member_points(statement: Statement, ours: str, theirs: str, reals: bool) -> list[str]:
    """One tactic per point of each set of the answer, each refuting ``h`` there or failing (none when no set
    of the answer has argument types this reading knows)."""
    assert statement.solution is not None
    sentence = statement.sentences[statement.solution]
    words = [t.text for t in sentence.tokens[sentence.command_index() + 2 : solution_body_start(sentence)]]
    tree = _parse(words[1 : -1 if words[-1:] == [":="] else None]) if words[:1] == [":"] else None
    bases = frozenset({"nat", "Z", *(("R",) if reals else ())})
    components = _components(tree, bases) if tree is not None else []
    unfold = f"{MEMBERSHIP_TACTIC}; cbv beta iota zeta delta [Coq.Init.Datatypes.fst Coq.Init.Datatypes.snd] in q"
    numerals = _numerals(theirs, ours)
    tries = []
    for path, arguments in components:
        leaves = [base for argument in arguments for base in _leaves(argument, bases) or ()]
        coordinates = [[t for v in numerals if (t := _term(base, v)) is not None] for base in leaves]
        whole = "f"
        for projection in path:
            whole = f"(Coq.Init.Datatypes.{projection} {whole})"
        for values in _tuples(coordinates):
            terms, at = [], 0
            for argument in arguments:
                term, used = _point(argument, values[at:])
                terms.append(term)
                at += used
            tries.append(
                "(lazymatch type of h with @Coq.Init.Logic.eq ?X _ _ => let q := fresh in pose proof "
                f"(Coq.Init.Logic.f_equal (fun f : X => {whole} {' '.join(terms)}) h) as q; {unfold}; "
                f"{APART} q end)"
            )
    return tries
