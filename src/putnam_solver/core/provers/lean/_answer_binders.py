"""One order for the names a run of ``∀`` or ``∃`` binds, before ``_answer_contains`` numbers bound variables
(red team 22).

The canonical form numbers bound variables in the order they are bound, so the question's condition copied
with its binders listed in another order, ``∃ (c b a : ℕ), P a b c`` for ``∃ (a b c : ℕ), P a b c``, or
nested, ``∃ c, ∃ b, ∃ a, P a b c``, numbered its body's variables otherwise and was no copy. Lean reads
``∃ x y, B`` as ``∃ x, ∃ y, B`` (src/Init/NotationExtra.lean: ``expandExplicitBinders`` folds the binders
into nested ``Exists``; ``∀`` likewise nests its binders), and two nested quantifiers of one kind over
variables whose types name neither commute (src/Init/PropLemmas.lean: ``theorem exists_comm
{p : α → β → Prop} : (∃ a b, p a b) ↔ (∃ b a, p a b)``, ``forall_comm`` likewise).
Here a run of one quantifier is written with its names sorted, names kept (the body is untouched): a header
of bare names and bracketed groups without types (``_answer_spelling`` has
dropped them in the reading without types) is flattened, the headers of the same quantifier right after it
merged in, and the names sorted; a group that keeps its type (the reading with types) or a bound (``∀ x y >
0``, each name bound alike) has its names sorted inside the group. Only ``∀`` and ``∃``: not ``∃!``
(``∃! x y`` is no ``∃! y x``), ``fun`` or a big operator.
A run that binds one name twice (shadowing) is left as written, whole. Linear in the tokens: a header is read
once, up to the first token that is no name or bracket.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import PREDICATES
from putnam_solver.core.provers.lean._idchars import starts_name

QUANTIFIERS: Final = frozenset({"∀", "∃"})
HEADER_ENDS: Final = frozenset({":", *PREDICATES})
"""What may follow a header's bare names: a type or a bound (``∀ x y > 0``, each name bound alike) to the ``,``."""
DEPTH: Final = {"(": 1, ")": -1, "[": 1, "]": -1, "{": 1, "}": -1, "⟨": 1, "⟩": -1}


def plain_name(text: str) -> bool:
    """A name a binder may bind: an identifier (``_idchars.starts_name``: ``_a`` and ``«a»`` too, the hole ``_``
    not), no dotted name, no keyword that begins a term."""
    return starts_name(text) and "." not in text and text not in ("_", "fun", "λ", "by")


def _header(texts: Sequence[str], i: int) -> tuple[list[str], bool, int] | None:
    """The binder header at ``texts[i]`` up to its ``,``: its tokens with each group's names sorted (the
    ``,`` last), whether a group keeps a type or a bound after a ``:`` or relation (then it is not merged
    with the next), and the place after the ``,``; None if the header is anything else (a pattern, an
    anonymous ``_``). An untyped header's tokens are its names alone."""
    out: list[str] = []
    typed = False
    bare: list[str] = []
    while i < len(texts):
        text = texts[i]
        if plain_name(text) and not out:
            bare.append(text)
            i += 1
        elif text == "(" and not bare:
            j = i + 1
            names: list[str] = []
            while j < len(texts) and plain_name(texts[j]):
                names.append(texts[j])
                j += 1
            type_start, depth = j, 0
            if j < len(texts) and texts[j] == ":":
                while j < len(texts) and (depth or texts[j] != ")") and depth >= 0:
                    depth += DEPTH.get(texts[j], 0)
                    j += 1
            if not names or j >= len(texts) or texts[j] != ")" or depth:
                return None
            typed = typed or j > type_start
            out += ["(", *sorted(names), *texts[type_start:j], ")"]
            i = j + 1
        elif text in HEADER_ENDS and bare:  # `∀ x y : T,`, `∀ x y > 0,`: one group
            j, depth = i, 0
            while j < len(texts) and (depth or texts[j] != ",") and depth >= 0:
                depth += DEPTH.get(texts[j], 0)
                j += 1
            return ([*sorted(bare), *texts[i:j], ","], True, j + 1) if j < len(texts) and depth == 0 else None
        elif text == "," and (bare or out):
            names = bare or [t for t in out if t not in ("(", ")")]
            return ([*out, ","] if typed else names), typed, i + 1
        else:
            return None
    return None


def sorted_binders(texts: Sequence[str]) -> tuple[str, ...]:
    """``texts`` with each run of ``∀`` or ``∃`` binders written in one order (module doc)."""
    out: list[str] = []
    i = 0
    while i < len(texts):
        text = texts[i]
        read = _header(texts, i + 1) if text in QUANTIFIERS else None
        if read is None:
            out.append(text)
            i += 1
            continue
        names, typed, after = read
        if typed:
            out += [text, *names]
            i = after
            continue
        while after < len(texts) and texts[after] == text and (more := _header(texts, after + 1)) is not None:
            if more[1]:
                break
            names += more[0]
            after = more[2]
        out += [*texts[i:after]] if len(set(names)) < len(names) else [text, *sorted(names), ","]
        i = after
    return tuple(out)
