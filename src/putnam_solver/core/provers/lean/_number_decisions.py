"""Which ``if``s of a no-answer value the library decides whatever is open (red team 37's honest twins).

Where the candidate's own ``open`` puts ``Classical`` in force at a value (:mod:`_answer_decisions`), its
``propDecidable`` is an instance of low priority (leanprover/lean4 src/Init/Classical.lean, commit 0099964,
line 69), tried only after every instance of default priority has failed. A condition the library decides
by one of those elaborates as it would with no ``open``: a comparison (``=``, ``≠``, ``<``, ``≤``, ``>``,
``≥``) of ``ℕ``, ``ℤ``, ``ℚ`` or ``ℝ`` terms (core's ``Nat.decEq``/``Nat.decLt``/``Int.decEq``...,
Mathlib's ``Rat`` instances and ``Real.decidableLT``/``decidableLE``/``decidableEq``, noncomputable but the
library's own: Mathlib/Data/Real/Basic.lean), ``a ≡ b [MOD n]``/``[ZMOD n]`` (Mathlib/Data/Nat/ModEq.lean,
Mathlib/Data/Int/ModEq.lean: ``instance : Decidable (ModEq n a b)``), ``Odd``/``Even`` of an integer
(Mathlib/Algebra/Group/Nat/Even.lean: ``instance : DecidablePred (Odd : ℕ → Prop)``), and ``¬``, ``∧``,
``∨`` of those (core's ``instDecidableNot``/``And``/``Or``). Ten official answers decide such a condition
(``fun n ↦ if n = 1 then 0 else 2 ^ (n - 2)``), and they stay accepted beside the candidate's ``open``.

The text shows a condition's type only through its variables, so a condition counts only when every word
in it is a numeral, an arithmetic or order symbol, a number type (an ascription), ``MOD``/``ZMOD``, or a
variable whose innermost binder in scope there writes a number type (``fun x : ℝ ↦``, ``∃ a c : ℝ,``, ``{x
: ℝ | ...}``) or, for the value's leading ``fun``, has the solution's declared domain (``fun n ↦`` for ``ℕ →
ℤ``), or, since false rejections 49, for a ``fun`` under a type ascription the domain it ascribes (``(fun k
=> e : ℕ → ℕ)``, :func:`_ascribed_domains`); a binder's scope ends at its bracket group's end or the group's
next ``,``. A dependent arrow ``(n : T) → B`` (``{n : T} →``, a pair ``(n : T) × B``) is a binder of ``n``
over ``B`` (false rejections 47: until then any ``)`` before ``→`` left the whole text unread, ``(ℕ → ℕ) →
B`` too). A value with a binding the
reader does not follow (``match``, ``let``, ``have``, a tactic block, ``fun | ...``) has none.

The same priority makes ``Finset``'s ``DecidableEq``/``Fintype`` of an element type harmless where the type
has its own computable instance (red team 39): :func:`plain_type` reads a written type (``Fin n``,
``Bool``, ``ℕ``/``ℤ``/``ℚ``, products and sums of them, since red team 40 functions between finite ones),
:func:`plain_universe` ``Fintype.card T`` and ``(Finset.univ : Finset T)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, Command, Token, name_parts, normalize_name

NUMBER_TYPES: Final = frozenset({"ℕ", "ℤ", "ℚ", "ℝ", "Nat", "Int", "Rat", "Real"})
_INTEGER_TYPES: Final = frozenset({"ℕ", "ℤ", "Nat", "Int"})
_CONDITION_SYMBOLS: Final = frozenset(
    {"(", ")", "+", "-", "*", "/", "%", "^", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "¬", "≡", "[", "]", ":", "↑"}
)
_CONDITION_WORDS: Final = frozenset({"MOD", "ZMOD", "True", "False"}) | NUMBER_TYPES
_PARITY: Final = frozenset({"Odd", "Even"})
_UNREAD: Final = frozenset({"match", "let", "have", "by", "where", "show", "calc", "do", "with"})
"""Words that bind names the reader does not follow (or begin code whose bindings it does not read)."""
BINDERS: Final = frozenset(
    {"fun", "λ", "∃", "∀", "∃!", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "∑'", "∏'", "⨍", "∀ᶠ", "∃ᶠ", "Π", "Σ"}
)
_BINDER_ENDS: Final = frozenset({"=>", "↦", ",", "|", "//"})
_BINDING_GROUPS: Final = frozenset({"(", "{", "⦃", "["})
_DEPENDENT: Final = frozenset({"→", "->", "×", "×'"})
"""What follows a group that binds for what comes after it (:func:`_dependent`)."""
_MOST_BINDERS: Final = 64
"""More binders than an answer writes: none is read (so the reading stays linear in the value)."""

Slot = tuple[list[str], str | None]
"""Names bound together and their written type (one word), or None where no number type is written."""


def solution_domains(command: Command) -> list[str | None]:
    """The domains of a solution's declared type, one word each (``ℕ → ℝ → ℝ``: ``ℕ``, ``ℝ``), None for a
    longer one (``(ℕ → ℕ)``), then its codomain's first word, or ``Set`` where it holds sets and no other
    collection (``ℕ → Set ℝ``, ``Set ℕ × Set ℕ``)."""
    parts: list[list[str]] = []
    depth = 0
    for token in command.tokens[command.head :]:
        text = token.text
        if depth == 0 and text == ":=":
            break
        if depth == 0 and text in (":", "→"):  # the type begins at the top-level `:`; binders before it
            parts = [[]] if text == ":" else [*parts, []]  # (`(n : ℕ)`) stand in brackets
        elif parts:
            parts[-1].append(text)
        depth += (text in ("(", "[", "{", "⟨", "⦃")) - (text in (")", "]", "}", "⟩", "⦄"))
    codomain = parts[-1] if parts else []
    sets = "Set" in codomain and not {"Finset", "Multiset", "List"}.intersection(codomain)  # `Set ℕ × Set ℕ`
    return [p[0] if len(p) == 1 else None for p in parts[:-1]] + ["Set" if sets else next(iter(codomain), None)]


class Binding(NamedTuple):
    name: str
    type: str | None
    """The number type written for it (:data:`NUMBER_TYPES`), or None."""
    start: int
    end: int
    """The tokens ``value[start:end]`` it is in scope over."""


def bindings(value: Sequence[Token], partner: dict[int, int], domains: Sequence[str | None]) -> list[Binding]:
    """Every variable ``value`` binds, with its type and scope; empty if it binds a name in a way not read
    here (then no condition counts)."""
    texts = [t.text for t in value]
    if _UNREAD.intersection(texts) or any(
        texts[i] == "fun" and i + 1 < len(texts) and texts[i + 1] == "|" for i in range(len(texts))
    ):
        return []
    dependent = {k for k in partner if _dependent(texts, k, partner)}
    if sum(text in BINDERS or text == "{" for text in texts) + len(dependent) > _MOST_BINDERS:
        return []
    lead = 1 if texts[:2] == ["(", "fun"] and partner.get(0) == len(texts) - 1 else 0
    after = _next_commas(texts, partner)
    found: list[Binding] = []
    for k, text in enumerate(texts):
        if k in dependent:  # `(n : ℕ) → B`: `n` in scope over `B`, to the end of the arrow's own group
            slots, scope = _slots(value, k - 1, partner), (k, after[k])
        elif _set_builder(value, k):
            slots, scope = _slots(value, k, partner), (k, partner.get(k, len(texts)))
        elif text in BINDERS:
            slots, scope = _slots(value, k, partner), _scope(texts, k, after)
        else:
            continue
        if text in ("fun", "λ"):
            ascribed = _ascribed_domains(texts, partner, k)
            declared = domains if k == lead else []
            slots = [
                (names, typ or _nth(ascribed, n, names) or (declared[n] if n < len(declared) else None))
                for n, (names, typ) in enumerate(slots)
            ]
        found += [Binding(name, typ if typ in NUMBER_TYPES else None, *scope) for names, typ in slots for name in names]
    return found


def _ascribed_domains(texts: Sequence[str], partner: dict[int, int], k: int) -> list[str]:
    """The domains, one word each, of the function type ascribed to the ``fun`` at ``k`` (false rejections
    49): ``(fun k => e : ℕ → ℕ)`` or ``((fun k => e) : ℕ → ℕ)``, Lean's type ascription, whose type is the
    expected type the ``fun`` elaborates against, so each binder without a written type gets its domain (a
    domain of more than one word stops the list, :func:`_domain_words`); a type in brackets is that type."""
    opener = k - 1 if k > 0 and texts[k - 1] == "(" else -1
    colon = _colon(texts, partner, opener)
    if colon is None and opener > 0 and texts[opener - 1] == "(":
        colon = _colon(texts, partner, opener - 1)
        colon = colon if colon == partner.get(opener, -2) + 1 else None  # `((fun k => e) : T)`
        opener -= 1
    if colon is None or not {"=>", "↦"}.intersection(texts[k:colon]):  # not `(fun k : ℕ => e)`'s own `:`
        return []
    parts, part, j, stop = list[list[str]](), list[str](), colon + 1, partner[opener]
    while stop - j > 2 and texts[j] == "(" and partner.get(j) == stop - 1:  # round 50: `: (ℕ → ℕ)`, the same type
        j, stop = j + 1, stop - 1
    while j < stop:
        after = partner[j] + 1 if partner.get(j, j) > j else j + 1
        if texts[j] in ("→", "->"):
            parts, part = [*parts, part], []
        else:
            part += texts[j:after]
        j = after
    domains: list[str] = []
    for part in parts:  # the last part, the codomain, is not among them
        words = _domain_words(part)
        if not words:
            break
        domains += words
    return domains


def _domain_words(part: Sequence[str]) -> list[str]:
    """The domains one part of an arrow chain gives, one word each: ``ℕ``, ``(ℕ)`` (the same type), or a
    dependent binder ``(k : ℕ)``/``(a b : ℕ)`` (Lean's ``depArrow``, src/Lean/Parser/Term.lean: its type is the
    domain of each name; round 52); anything else none (an implicit ``{k : ℕ}`` is introduced by Lean before
    the ``fun`` is elaborated, so it gives none)."""
    if len(part) == 1:
        return [part[0]]
    if len(part) < 3 or part[0] != "(" or part[-1] != ")":
        return []
    if len(part) == 3:
        return [part[1]]
    names = part[1:-3]
    if part[-3] != ":" or not names or any(not n.replace("_", "a").isidentifier() for n in names):
        return []
    return [part[-2]] * len(names)


def _colon(texts: Sequence[str], partner: dict[int, int], opener: int) -> int | None:
    """The last ``:`` at the own top level of the ``(`` group opened at ``opener``, if any: an ascription's
    (one before it may be an ``if h : c``'s)."""
    if opener < 0 or texts[opener] != "(" or partner.get(opener, opener) <= opener:
        return None
    j, found = opener + 1, None
    while j < partner[opener]:
        found = j if texts[j] == ":" else found
        j = partner[j] + 1 if partner.get(j, j) > j else j + 1
    return found


def _nth(domains: Sequence[str], n: int, names: Sequence[str]) -> str | None:
    """The ``n``-th ascribed domain for a slot binding one name (a pattern ``⟨a, b⟩`` gets none)."""
    return domains[n] if n < len(domains) and len(names) == 1 else None


def type_at(found: Sequence[Binding], name: str, at: int) -> str | None:
    """The number type of the variable ``name`` at token ``at``: its innermost binding in scope there."""
    inner = binding_at(found, name, at)
    return inner.type if inner is not None else None


def binding_at(found: Sequence[Binding], name: str, at: int) -> Binding | None:
    """The innermost binding of ``name`` in scope at token ``at`` (``at`` the binding name itself included)."""
    return max((b for b in found if b.name == name and b.start < at < b.end), key=lambda b: b.start, default=None)


def _next_commas(texts: Sequence[str], partner: dict[int, int]) -> list[int]:
    """For each token, the next ``,`` of its own bracket group, else the group's closer (``len`` at top
    level): one pass from the right."""
    after, stack = [0] * len(texts), [len(texts)]
    for j in range(len(texts) - 1, -1, -1):
        closer, opener = partner.get(j, j) < j, partner.get(j, j) > j
        if opener:
            stack.pop()
        after[j] = stack[-1]
        if closer:
            stack.append(j)
        elif texts[j] == ",":
            stack[-1] = j
    return after


def _scope(texts: Sequence[str], k: int, after: list[int]) -> tuple[int, int]:
    """The scope of the binder at ``k``: its body runs after its ``=>``/``↦`` (a ``fun``) or its first ``,``
    to the next ``,`` of its own group (a tuple's or anonymous constructor's next component) or the group's
    end."""
    end = after[k]
    if texts[k] not in ("fun", "λ") and end < len(texts) and texts[end] == ",":
        end = after[end]
    return k, end


def _dependent(texts: Sequence[str], k: int, partner: dict[int, int]) -> bool:
    """Whether the group opened at ``k`` binds its names for what follows it: a dependent arrow (``(n : ℕ) →
    B``, ``{n : ℕ} →``, ``⦃n : ℕ⦄ →``, ``[i : C] →``, Lean's ``∀ n : ℕ, B``) or a dependent pair (``(n : ℕ) ×
    B``, ``×'``). A group with no ``:`` at its own top level (``(ℕ → ℕ) → B``), or a set-builder's ``|``
    there (``{x : ℕ | p x} → B``, a subtype), binds nothing for ``B``."""
    close = partner.get(k, k)
    if close <= k or texts[k] not in _BINDING_GROUPS or close + 1 >= len(texts):
        return False
    if texts[close + 1] not in _DEPENDENT or (texts[close + 1] in ("×", "×'") and texts[k] != "("):
        return False
    top = _top_level(texts, partner, k)
    return ":" in top and "|" not in top


def _top_level(texts: Sequence[str], partner: dict[int, int], opener: int) -> list[str]:
    """The tokens at the own top level of the group opened at ``opener``."""
    found, k = [], opener + 1
    while k < partner[opener]:
        found.append(texts[k])
        k = partner[k] + 1 if partner.get(k, k) > k else k + 1
    return found


def _set_builder(value: Sequence[Token], k: int) -> bool:
    """``{x | ...}``, ``{x : T | ...}``, ``{x ∈ s | ...}``, ``{x // ...}``: a ``{`` that binds."""
    return (
        value[k].text == "{"
        and k + 2 < len(value)
        and value[k + 1].kind == IDENT
        and value[k + 2].text in ("|", ":", "∈", "//")
    )


def _slots(value: Sequence[Token], k: int, partner: dict[int, int]) -> list[Slot]:
    """The names the binder at ``k`` binds, in order: ``x y : T``, ``(a b : T)``, ``⟨a, b⟩`` (no type)."""
    slots: list[Slot] = []
    pending: list[str] = []
    j = k + 1
    while j < len(value):
        text = value[j].text
        if text in ("(", "⦃", "[", "{", "⟨") and j in partner:
            inner = value[j + 1 : partner[j]]
            colon = next((c for c, t in enumerate(inner) if t.text == ":"), None)
            names = [t.text for t in inner[:colon] if t.kind == IDENT and t.text != "_"]
            typ = inner[colon + 1].text if colon is not None and colon + 2 == len(inner) else None
            slots += [([name], typ) for name in names] if colon is not None else [(names, None)]
            j = partner[j] + 1
        elif value[j].kind == IDENT and text not in ("_", "in"):
            pending.append(text)
            j += 1
        else:
            break
    typ = None
    if j < len(value) and value[j].text == ":":
        end = next((e for e in range(j + 1, len(value)) if value[e].text in _BINDER_ENDS), len(value))
        typ = value[j + 1].text if end == j + 2 else None
    return slots + [([name], typ) for name in pending]


def condition(value: Sequence[Token], i: int, partner: dict[int, int]) -> tuple[int, int]:
    """Where the condition the ``if``/``ite``/``dite`` at ``i`` decides stands (``value[start:end]``): up
    to the ``if``'s own ``then``, or ``ite``'s first argument; empty when it cannot be told (``@ite`` names
    its instance itself)."""
    if value[i].text == "if":
        j = i + 1
        if j + 1 < len(value) and value[j].kind == IDENT and value[j + 1].text == ":":
            j += 2  # `if h : c then`
        depth = 1
        for k in range(j, len(value)):
            depth += (value[k].text == "if") - (value[k].text == "then")
            if depth == 0:
                return j, k
        return 0, 0
    if (i > 0 and value[i - 1].text == "@") or i + 1 >= len(value):
        return 0, 0
    j = i + 1
    return (j + 1, partner[j]) if value[j].text == "(" and j in partner else (j, j + 1)


def library_decides(
    value: Sequence[Token],
    start: int,
    end: int,
    found: Sequence[Binding],
    terms: bool = False,
    types: frozenset[str] = NUMBER_TYPES,
) -> bool:
    """Whether the condition ``value[start:end]`` is one the library decides at default priority (module
    doc), its variables read in ``found`` (:func:`bindings`); ``terms``: number terms separated by ``,``
    (a literal's elements, whose equality core and Mathlib decide at default priority: ``instDecidableEqNat``,
    ``Real.decidableEq``, ``instDecidableEqProd`` for tuples of them); ``types``: the number types it may
    show (written, or its variables')."""
    if start >= end:
        return False
    seen: list[str] = []
    parity = False
    for at in range(start, end):
        token = value[at]
        if token.kind == NUMBER or token.text in _CONDITION_SYMBOLS or (terms and token.text == ","):
            continue
        if token.text in _CONDITION_WORDS:
            seen += [token.text] if token.text in NUMBER_TYPES else []
        elif token.text in _PARITY:
            parity = True
        elif token.kind == IDENT and (typ := type_at(found, token.text, at)) is not None:
            seen.append(typ)
        else:
            return False
    return all(t in types for t in seen) and (not parity or all(t in _INTEGER_TYPES for t in seen))


COMPUTABLE_EQ: Final = frozenset({"ℕ", "ℤ", "ℚ", "Nat", "Int", "Rat"})
"""Number types whose ``DecidableEq`` is a computable instance of default priority (core's
``instDecidableEqNat``, ``Int.instDecidableEq``, Mathlib's ``Rat.instDecidableEq``); ``ℝ``'s is classical
(Mathlib/Data/Real/Basic.lean), so not here."""
_TYPE_GLUE: Final = frozenset({"(", ")", "×", "⊕", "Bool"})
_ARROWS: Final = frozenset({"→", "->"})


def plain_type(
    value: Sequence[Token], start: int, end: int, partner: dict[int, int], found: Sequence[Binding], finite: bool
) -> bool:
    """Whether ``value[start:end]`` writes a type whose ``DecidableEq`` (and, ``finite``, whose ``Fintype``)
    an instance of default priority gives computably, found before ``Classical.propDecidable`` (priority
    low): ``Bool`` (core's ``instDecidableEqBool``; Mathlib/Data/Fintype/Basic.lean ``instance
    Bool.fintype``), ``Fin n`` for a number term ``n`` (core's ``instDecidableEqFin``; same file ``instance
    Fin.fintype``), products and sums of those (``instDecidableEqProd``/``instDecidableEqSum``,
    Mathlib/Data/Fintype/Prod.lean and Sum.lean), functions between those (red team 40:
    Mathlib/Data/Fintype/Pi.lean, commit 7079dfd, line 139: ``instance Pi.instFintype [DecidableEq α]
    [Fintype α] [∀ a, Fintype (β a)]``; Mathlib/Data/Fintype/Defs.lean, commit f9347ec, line 199:
    ``instance decidablePiFintype [∀ a, DecidableEq (β a)] [Fintype α]``: each asks the domain's and the
    codomain's instances, so a type with an arrow counts only where every part is finite), and, not
    ``finite``, ``ℕ``/``ℤ``/``ℚ``. A subtype, a dependent function type, ``Prop``, ``Set``, ``ℝ`` or a name
    not listed is none (their equality or membership may be ``Classical.propDecidable``'s)."""
    if start >= end:
        return False
    at, arrow, infinite = start, False, False
    while at < end:
        text = value[at].text
        if text in _TYPE_GLUE or text in _ARROWS or (not finite and text in COMPUTABLE_EQ):
            arrow, infinite = arrow or text in _ARROWS, infinite or text in COMPUTABLE_EQ
            at += 1
        elif text == "Fin" and at + 1 < end:
            stop = partner[at + 1] + 1 if value[at + 1].text == "(" and at + 1 in partner else at + 2
            if stop > end or not library_decides(value, at + 1, stop, found):
                return False
            at = stop
        else:
            return False
    return not (arrow and infinite)


def plain_universe(value: Sequence[Token], i: int, partner: dict[int, int], found: Sequence[Binding]) -> int | None:
    """Where the type ends of ``Fintype.card T`` or ``(Finset.univ : Finset T)`` (``univ`` where ``Finset`` is
    open) at ``i`` with a plain finite ``T`` (:func:`plain_type`: ``Fin n``, ``Bool``, products and sums of
    them), whose ``Fintype`` is a computable instance found before ``Classical.propDecidable``: no membership
    decided, and no term written to coerce; else None."""
    parts, n = name_parts(normalize_name(value[i].text)), len(value)
    if parts == ["Fintype", "card"] and i + 1 < n:
        group = i + 1 in partner  # `Fintype.card (Fin 5)`, else one word: `Fintype.card Bool`
        start, stop = (i + 2, partner[i + 1]) if group else (i + 1, i + 2)
        return stop + group if plain_type(value, start, stop, partner, found, finite=True) else None
    if parts not in (["Finset", "univ"], ["univ"]) or not 0 < i < n - 2 or value[i - 1].text != "(":
        return None
    close = partner.get(i - 1, 0)
    typed = [t.text for t in value[i + 1 : i + 3]] == [":", "Finset"]
    return close if typed and plain_type(value, i + 3, close, partner, found, finite=True) else None
