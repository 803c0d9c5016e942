"""The shapes a no-answer value takes, read as the function or set they denote (``_answer_copy``).

A copy of the question may be written as an eta-reduced name, a section ``(f · b)``, a pipeline ``x |> f``,
a pattern set-builder ``{(a, b) | C}``, a ``fun p => .. p.1 .. p.2`` over a tuple, or with spellings that
elaborate alike (``«f»``, ``_root_.f``, ``@f``, ``id``): each is read here as the parameters and body it
denotes, and the statement's side abstracted over the solution's arguments (:func:`rebound`) as the set or
function a value written whole is compared with.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_binders import plain_name
from putnam_solver.core.provers.lean._answer_sides import tuple_names
from putnam_solver.core.provers.lean._answer_terms import OPEN_CLOSE
from putnam_solver.core.provers.lean._idchars import starts_digit, starts_letter, starts_name, starts_term
from putnam_solver.core.provers.lean.syntax import IDENT, Token, normalize_name


def tuple_set(texts: list[str], params: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """``{(a, b) | c}`` or ``{⟨a, b⟩ | c}`` (Mathlib's pattern set-builder) as the condition ``c`` of its
    names ``a``, ``b``."""
    if params or len(texts) < 2 or texts[0] != "{" or texts[-1] != "}":
        return params, texts
    names = tuple_names(texts[1:])
    bar = 2 * len(names) + 2 if names is not None else 0
    if names is not None and bar < len(texts) and texts[bar] == ":":  # `{(a, b) : ℤ × ℤ | c}` (red team 23)
        bar = next((i for i in range(bar, len(texts) - 1) if texts[i] == "|"), bar)
    if names is None or bar >= len(texts) - 1 or texts[bar] != "|":
        return params, texts
    return tuple(names), list(texts[bar + 1 : -1])


def glued_projections(texts: Sequence[str]) -> list[str]:
    """``p . 1`` and ``p . 2.1`` (the lexer reads ``2.1`` as a number) as the one name ``p.1``, ``p.2.1``."""
    out: list[str] = []
    for text in texts:
        if len(out) >= 2 and out[-1] == "." and starts_digit(text) and plain_name(out[-2].split(".")[0]):
            out[-2:] = [f"{out[-2]}.{text}"]
        else:
            out.append(text)
    return out


def projections(param: str, args: Sequence[str]) -> dict[str, str]:
    """``p.1``, ``p.2.1``, ``p.2.2``... (and ``fst``/``snd``) of a tuple ``p`` read as the names ``args``
    (Lean's tuples nest to the right: ``(a, b, c)`` is ``(a, (b, c))``)."""
    out: dict[str, str] = {}
    for k, arg in enumerate(args):
        last = k == len(args) - 1
        for first, second in (("1", "2"), ("fst", "snd")):
            out[".".join([param, *[second] * k, *([] if last else [first])])] = arg
    return out


def spelled(texts: Sequence[str]) -> list[str]:
    """One spelling per term: a name without escapes or ``_root_.`` (``«f»``, ``_root_.f`` and ``@f`` are
    ``f``), and without the identity (``id x``, ``f ∘ id`` and ``id ∘ f`` are ``x`` and ``f``)."""
    names = [_one_name(t) for t in texts if t != "@"]
    out: list[str] = []
    i = 0
    while i < len(names):
        after = names[i + 1] if i + 1 < len(names) else None
        if (names[i], after) in (("∘", "id"), ("id", "∘")):
            i += 2
            continue
        if names[i] != "id" or after is None or not (starts_term(after) or after[:1] == "("):
            out.append(names[i])
        i += 1
    return out


def _one_name(text: str) -> str:
    if not starts_name(text):
        return text
    name = normalize_name(text)
    return name.removeprefix("_root_.") if name != "_root_" else name


MAX_ETA: Final = 4
"""How many of the statement's arguments an eta-reduced copy may leave off (``AliceHasWinningStrategy``
for ``fun n => AliceHasWinningStrategy n``; no solution takes more)."""


def applicative(texts: Sequence[str]) -> bool:
    """Whether ``texts`` is a name applied to arguments (nothing but names, numbers and bracketed groups
    outside brackets): only then is ``texts a`` the application of the whole to ``a``, which an eta-reduced
    copy leaves off (``g + h`` applied to ``n`` is not ``g + h n``). A set written whole (``{x | C}``) is read
    with its parameter already, its application being membership (``_answer_commute.applied``)."""
    if texts[:1] == ["{"]:
        return False
    depth = 0
    for text in texts:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
        elif depth == 0 and not starts_term(text):
            return False
    return bool(texts) and depth == 0


def sections(texts: list[str], params: tuple[str, ...]) -> tuple[tuple[str, ...], list[str]]:
    """``(f · b ·)`` is ``fun x y => f x b y`` (Lean's ``·`` abstracts its nearest enclosing parentheses,
    which the readings may have taken off already): the body without the parentheses, each ``·`` a
    parameter after ``params``."""
    written = texts
    if len(texts) >= 3 and texts[0] == "(" and texts[-1] == ")":
        texts = texts[1:-1]
    depth, dots = 0, []
    for i, text in enumerate(texts):
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
            if depth < 0:
                return params, written  # `(a) + (b)`: the first bracket closes before the end (red team 23)
        elif text == "·" and depth == 0:
            dots.append(i)
    if not dots:
        return params, texts
    names = {i: f"·{k}" for k, i in enumerate(dots)}
    return (*params, *names.values()), [names.get(i, t) for i, t in enumerate(texts)]


def piped(texts: list[str]) -> list[str]:
    """The application a pipeline spells: ``x |> f |> g`` is ``g (f x)``, ``f <| x`` and ``f $ x`` are
    ``f x`` (src/Init/Prelude.lean's ``|>``, ``<|``, ``$``); read at the outer level, brackets dropped as
    ``_answer_canonical.canonical_kept`` drops them."""
    depth, parts = 0, list[list[str]]()
    current: list[str] = []
    for text in texts:
        if text in OPEN_CLOSE:
            depth += 1
        elif text in OPEN_CLOSE.values():
            depth -= 1
        if depth == 0 and text == "|>":
            parts.append(current)
            current = []
        elif not (depth == 0 and text in ("<|", "$")):
            current.append(text)
    parts.append(current)
    return [t for part in reversed(parts) for t in part]


def names_something(body: Sequence[Token]) -> bool:
    """Whether ``body`` uses a name outside a type ascription: a literal (``1``, ``(1 : ℕ)``) beside the
    solution is a statement that gives its answer away (a client's toy record), not a question copied; so is
    a truth value (``t_solution n = true`` answered ``fun _ => true``, copy red team 34)."""
    header = False  # a parameter's name (`fun n => true`) is no use of it
    for i, t in enumerate(body):
        header = t.text in ("fun", "λ") or (header and t.text not in ("=>", "↦"))
        if not header and t.kind == IDENT and t.text not in TRUTH_VALUES and (i == 0 or body[i - 1].text != ":"):
            return True
    return False


TRUTH_VALUES: Final = frozenset({"true", "false", "True", "False"})


def rebound(other: list[str], args: list[str], tupled: bool = False) -> list[list[str]]:
    """The other side abstracted over the names the solution is applied to (red team 23): against ``C P ↔ P ∈
    solution`` a value may hold the question as ``{P | C P}`` or ``fun P => C P`` inside padding that changes
    nothing (``{P | C P} ∩ Set.univ``, ``{P | C P}ᶜᶜ``, ``S ∪ S``), where ``P`` is bound by the value and
    free in ``C P``, so the side itself is never found there; its abstraction, read with ``P`` bound, is.
    Against ``(a, b) ∈ solution`` (``tupled``): ``{(a, b) | C a b}`` and ``{p | C p.1 p.2}``."""
    if not args or not all(starts_letter(a) and "." not in a for a in args):
        return []
    if not tupled:
        return [["{", args[0], "|", *other, "}"]] * (len(args) == 1) + [["fun", *args, "=>", *other]]
    pair = next(f"p{k}" for k in range(len(other) + 1) if f"p{k}" not in other)
    names = {arg: name for name, arg in projections(pair, args).items() if ".fst" not in name and "snd" not in name}
    projected = [part for t in other for part in (names[t].partition(".") if t in names else [t])]  # `p0 . 2.1`
    pattern = ["(", *[t for arg in args for t in (",", arg)][1:], ")"]
    return [["{", *pattern, "|", *other, "}"], ["{", pair, "|", *projected, "}"], ["fun", pair, "=>", *projected]]
