"""Where each bound variable of a term is in scope, for the copy rule's canonical form (``_answer_contains``)
and the value's parameters read as the statement's names (``_answer_copy``).

The canonical form numbered a bound name wherever it stood after its binder, and renamed a parameter at
every one of its occurrences: a name bound again inside read as the outer one, and a name used after its
binder's scope had ended read as bound. Against ``putnam_2025_a3_solution n ↔ AliceHasWinningStrategy n``
the value ``fun n => setOf AliceHasWinningStrategy n`` (read ``{n | HasWinningStrategy n []} n``) passed:
its argument ``n`` stands outside the set-builder but was numbered as the set-builder's own, so the
membership was never read as ``HasWinningStrategy n []``, while the same value over ``m`` was refused.
The reverse held too: a value's bound name that is one of the statement's (``fun m => ∃ n, A n ∧ n > m``
against ``∃ k, A k ∧ k > n``) captured the parameter renamed to it (``∃ n, A n ∧ n > n``).

Alpha-equivalence by scope, as Lean reads it (src/Lean/Parser/Term.lean; Mathlib's notations): a binder's
names are in scope from their binding occurrence to the end of its body, and a body ends

* at the bracket that closes the group the binder stands in, or a ``,`` at the binder's own depth
  (``fun``, ``∀``, ``∃``, ``∃!``, ``λ``, ``∀ᶠ``, ``∃ᶠ`` read their body as far as it goes: through an
  ``if .. then .. else``, a ``let`` or a ``match``), or the ``then``/``else`` of an ``if`` in whose
  condition or branch it was opened (``if ∀ x, P x then ..``);
* also before an infix operator of lower precedence than the body's: Mathlib reads ``∑ x ∈ s, b``,
  ``∏``, ``∑'`` and ``∏'`` at 67 (``∑ x ∈ s, f x + 1`` is ``(∑ x ∈ s, f x) + 1``), ``⋃ i, s``, ``⋂``,
  ``⨆``, ``⨅``, ``∫`` and ``∮`` at 60 (``_answer_nodes.BODY``, cited there); a binder inside another's body
  ends first (a stack);
* for a set-builder (``{x | C}``, ``{x : T | C}``, ``{x ∈ s | C}``, ``{(a, b) | C}``), at its ``}``.

A name is in scope from its binding occurrence (a binder predicate, ``∀ x ∈ s,``, ``{x ∈ s | C}``, ``⋃ i ∈
s,``, expands to a condition under the binder, so ``s`` may name ``x``), but for a big operator's, ``∑ x ∈
s, b``, ``∫ x in s, f``: their set is ``Finset.sum s (fun x => b)``'s argument, outside the binder, so the
names are in scope from the header's ``,`` on (``∑ n ∈ Finset.range n, f n`` sums up to the outer ``n``).

Linear in the tokens: each token is pushed and popped at most once.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Final

from putnam_solver.core.provers.lean._answer_nodes import BODY, INFIX, PREDICATES

OPENERS: Final = frozenset({"(", "[", "{", "⟨"})
CLOSING: Final = frozenset({")", "]", "}", "⟩"})
SEPARATORS: Final = frozenset({",", "=>", "↦"})
"""What ends a binder's header: its body follows."""
ENDS: Final = frozenset({","})
"""What ends a body at the binder's own depth (``then`` and ``else`` end those opened inside the ``if``)."""
BRANCHES: Final = frozenset({"then", "else"})
BRANCH_REACH: Final = 64
"""How many open binders a ``then``/``else`` looks through for its ``if`` (bounded: linear)."""
OUTSIDE: Final = frozenset({"∑", "∏", "∑'", "∏'", "∫", "∮"})
"""Binders whose header's set is outside their scope (module doc)."""
HEADER_ENDS: Final = frozenset({*SEPARATORS, ":", *PREDICATES, "|", "//", "in"})
BUILDER_ENDS: Final = frozenset({"|", ":", "//", *PREDICATES})
Name = Callable[[str], bool]


def scopes(texts: Sequence[str], binders: Collection[int]) -> dict[int, tuple[int, int]]:
    """For each binder token at an index in ``binders`` (a set-builder's ``{`` among them): where its names
    come into scope, if later than where they stand (a big operator's ``,``; else -1), and where their scope
    ends (exclusive), by the rules of the module doc."""
    found: dict[int, tuple[int, int]] = {}
    starts: dict[int, int] = {}
    stack: list[list[int]] = []  # [binder index, depth, header 0 / body 1 / braces 2, body precedence]
    depth = 0
    for i, text in enumerate(texts):
        if text in CLOSING:
            depth -= 1
            while stack and stack[-1][1] > depth:
                found[stack.pop()[0]] = (-1, i)
            continue
        if stack and stack[-1][1] == depth and stack[-1][2] == 0 and text in SEPARATORS:
            stack[-1][2] = 1  # the header's separator: the body begins
            starts[stack[-1][0]] = i if texts[stack[-1][0]] in OUTSIDE else -1
        elif text in BRANCHES and any(f[2] == 3 and f[1] == depth for f in stack[-BRANCH_REACH:]):
            while stack[-1][2] != 3:  # the binders opened in the `if`'s condition or `then` branch end here
                found[stack.pop()[0]] = (-1, i)
            if text == "else":
                stack.pop()
        elif text in ENDS or text in INFIX:
            while stack and stack[-1][1] == depth and stack[-1][2] == 1 and _ends(stack[-1][3], text):
                found[stack.pop()[0]] = (-1, i)
        if text == "if":
            stack.append([-1, depth, 3, -1])  # an `if`: its `then` and `else` end what opened after it
        if i in binders:
            braces = text == "{"  # to its `}` only, whatever stands inside
            stack.append([i, depth + braces, 2 if braces else 0, BODY.get(text, -1)])
        depth += text in OPENERS
    found.update({frame[0]: (-1, len(texts)) for frame in stack})
    found.pop(-1, None)
    return {b: (starts.get(b, -1), end) for b, (_, end) in found.items()}


def _ends(precedence: int, text: str) -> bool:
    return text in ENDS or (text in INFIX and INFIX[text][0] < precedence)


def resolved(
    texts: Sequence[str], sites: Mapping[int, int], given: Callable[[int, str], str], binders: Collection[str]
) -> list[str | None]:
    """For each token of ``texts``: the name its binding gives it (``given(index, name)`` at each binding
    occurrence of ``sites``, an index and its binder's; the same within its scope, read by its head, ``Q``
    of ``Q.eval``, with the rest kept), or None for a free name and any other token. Every binder of
    ``binders`` is read, one that binds no name too (``∃ _ : A, P``: its header's ``,`` ends no other body)."""
    spans = scopes(texts, {*sites.values(), *(i for i, t in enumerate(texts) if t in binders)})
    active: dict[str, list[str]] = {}
    events: dict[int, list[tuple[str, str | None]]] = {}  # at an index: a name comes into scope, or leaves it
    out: list[str | None] = [None] * len(texts)
    for i, text in enumerate(texts):
        if i in events:
            for name, value in events.pop(i):
                if value is None:
                    active[name].pop()
                else:
                    active.setdefault(name, []).append(value)
        if i in sites:
            value = given(i, text)
            start, end = spans[sites[i]]
            if start > i:
                events.setdefault(start, []).append((text, value))
            else:
                active.setdefault(text, []).append(value)
            events.setdefault(max(end, start + 1, i + 1), []).append((text, None))
            out[i] = value
        elif active:
            head = text.partition(".")[0] if "." in text else text
            held = active.get(head)
            if held and not argument_name(texts, i):
                out[i] = held[-1] + text[len(head) :]
    return out


def binding_sites(texts: Sequence[str], binders: Collection[str], name: Name) -> dict[int, int]:
    """The binding occurrences of ``texts`` (as written, parentheses kept) and each one's binder: the names
    of a binder's header (bare, or first in a bracketed group before its ``:``, or of a tuple pattern) and
    the name or pattern a set-builder binds (``{x | ..}``, ``{x : T | ..}``, ``{x ∈ s | ..}``, ``{(a, b) |
    ..}``)."""
    sites: dict[int, int] = {}
    headers: list[tuple[int, int]] = []  # the binders whose header is open: index, bracket depth
    typed = [False]  # per open bracket: inside a `:` type
    for i, text in enumerate(texts):
        depth = len(typed) - 1
        while headers and ((text in HEADER_ENDS and depth == headers[-1][1]) or depth < headers[-1][1]):
            headers.pop()  # one pass for all headers, however they nest (red team 21: no rescan per binder)
        if text in OPENERS:
            typed.append(typed[-1])
        elif text in CLOSING:
            typed.pop() if len(typed) > 1 else typed.__setitem__(0, False)
            while headers and len(typed) - 1 < headers[-1][1]:
                headers.pop()
        elif text == ":":
            typed[-1] = True
        elif headers and name(text) and not typed[-1]:
            sites[i] = headers[-1][0]
        if text in binders:
            headers.append((i, depth))
        elif text == "{":
            j, found = i + 1, list[int]()
            while j < len(texts) and (name(texts[j]) or texts[j] in ("(", "⟨", ",", ")", "⟩")):
                found += [j] if name(texts[j]) else []
                j += 1
            if found and j < len(texts) and texts[j] in BUILDER_ENDS and (len(found) == 1 or j > found[-1] + 1):
                sites.update(dict.fromkeys(found, i))
    return sites


def argument_name(texts: Sequence[str], i: int) -> bool:
    """Whether ``texts[i]`` names a named argument, ``(x := a)``: a binder's name, no variable."""
    return 0 < i < len(texts) - 1 and texts[i - 1] == "(" and texts[i + 1] == ":="


def scoped(
    texts: Sequence[str],
    at: Sequence[int],
    plain: Sequence[str | None],
    sites: dict[int, int],
    binders: Collection[str],
    emptied: Collection[int] = (),
) -> list[str]:
    """``texts`` with its parentheses as they stand (but those at ``emptied``, left out) and each other token
    as ``plain`` reads it (``at`` its place in ``texts``; None: left out), each binding occurrence (``sites``:
    its index in ``plain`` and its binder's in ``texts``) numbered ``#k`` in the order they stand, and each use
    of its name read as that number within its scope only."""
    rank = {at[i]: k for k, i in enumerate(sorted(sites))}
    by_text = {at[i]: b for i, b in sites.items()}
    placed = _placed(texts, at, plain)
    for k in emptied:
        placed[k] = None
    names = resolved([t if t is not None else "" for t in placed], by_text, lambda i, _: f"#{rank[i]}", binders)
    read = [n if n is not None else t for n, t in zip(names, placed, strict=True)]
    return [t for t in read if t is not None]


def _placed(texts: Sequence[str], at: Sequence[int], plain: Sequence[str | None]) -> list[str | None]:
    out: list[str | None] = list(texts)
    for i, k in enumerate(at):
        out[k] = plain[i]
    return out


def renamed_free(
    texts: Sequence[str], names: Mapping[str, str], binders: Collection[str], name: Name, targets: Collection[str] = ()
) -> list[str]:
    """``texts`` with each free occurrence of a name of ``names`` (also as a dotted name's head) read as the
    name it maps to, capture-avoiding: a name ``texts`` binds itself is left where it is bound, and a bound
    name that is one of the new names (or of ``targets``) is renamed within its scope (:func:`unused`), so
    that the name it is given does not capture it (module doc)."""
    sites = binding_sites(texts, binders, name)
    avoid = {*names.values(), *targets}
    used = {t.partition(".")[0] for t in texts} | avoid
    counter = [0]
    bound = resolved(texts, sites, lambda _, text: unused(text, used, counter) if text in avoid else text, binders)
    return [
        b if b is not None else _head(t, names, texts, i) for i, (t, b) in enumerate(zip(texts, bound, strict=True))
    ]


def free_names(texts: Sequence[str], binders: Collection[str], name: Name) -> set[str]:
    """The names ``texts`` uses outside the scope of a binder of theirs (by their head, ``Q`` of ``Q.eval``)."""
    bound = resolved(texts, binding_sites(texts, binders, name), lambda _, text: text, binders)
    return {
        t.partition(".")[0]
        for i, (t, b) in enumerate(zip(texts, bound, strict=True))
        if b is None and name(t.partition(".")[0]) and not argument_name(texts, i)
    }


def _head(text: str, names: Mapping[str, str], texts: Sequence[str], i: int) -> str:
    head, dot, rest = text.partition(".")
    return names[head] + dot + rest if head in names and not argument_name(texts, i) else text


def unused(name: str, used: set[str], counter: list[int]) -> str:
    """A name ``name_k`` not in ``used`` (which it joins), ``k`` counted on from ``counter`` (shared by one
    term's renamings, so that all of them together try at most as many names as they make and ``used``
    holds: linear): a bound variable renamed so that it captures no name of the term it stands in (Lean's
    own ``n✝`` is read as ``n`` by ``normalize_name``)."""
    while f"{name}_{counter[0]}" in used:
        counter[0] += 1
    fresh = f"{name}_{counter[0]}"
    counter[0] += 1
    used.add(fresh)
    return fresh
