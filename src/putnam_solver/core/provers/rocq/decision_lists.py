"""Whether a decision computes, and whether a list's elements are computable decisions (split from
``answer_tests``, round 49).

A decision computes when it is a located computable one applied (``decision_names.COMPUTABLE_DECISIONS``), a
located combinator of decisions (``decision_names.TRANSFORMERS``: ``sumbool_not``...) applied to exactly its
arguments whose decisions compute, or a variable holding part of one (``answer_tests._derived``). A list's
elements are all such decisions when it is written out, a located ``map`` that makes one of each element, a
located list builder (``decision_names.LIST_BUILDERS``: ``repeat``, ``app``, ``rev``...) of such elements and
lists, or a ``let``-bound variable defined as one of these. Anything else fails closed: a consumer of it is a
search's test.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from putnam_solver.core.provers.rocq.decision_names import ELEMENT, LIST
from putnam_solver.core.provers.rocq.print_words import applied_to, argument_groups, inner_binder_list, one_group

Computable = dict[str, tuple[int, int]]
"""How the print spells each located computable decision, with (its arity, how many decisions it takes last):
``(0, 0)`` for a decision of data (its arguments read apart), the arity and count for a combinator."""


class ListNames(NamedTuple):
    """How the print spells the located ``map``s and list builders (each builder with its arguments' roles)."""

    maps: set[str]
    builders: dict[str, tuple[str, ...]]


def computes(scrutinee: list[str], computable: Computable, derived: set[str]) -> bool:
    """Whether a decision (a ``match``'s scrutinee, a consumer's last argument) is a computable one applied
    (``Nat.eq_dec n 4``, its arguments read apart), a combinator applied to exactly its arguments whose
    decisions compute (``sumbool_not A B (Nat.eq_dec n 4)``, round 49), or a variable ``answer_tests._derived``
    says holds part of one."""
    words = [t for t in scrutinee if t not in "()"]
    if not words:
        return False
    if len(words) == 1 and words[0] in derived:
        return True
    arity, taken = computable.get(words[0], (0, -1))
    if taken <= 0:
        return taken == 0
    grouped = scrutinee[1:-1] if scrutinee[:1] == ["("] and one_group(scrutinee) else scrutinee
    parts = argument_groups(words[0], grouped)
    return len(parts) == arity and all(computes(part, computable, derived) for part in parts[-taken:])


def consumer_mapped(
    tokens: list[str], at: int, arity: int | None, lists: ListNames, computable: Computable, derived: set[str]
) -> bool:
    """Whether the consumer at ``at`` (``arity`` given), applied to all but its decision (``@is_left A B``),
    is the function a located ``map`` applies to a written list of computable decisions (``@map _ _ (@is_left
    A B) (@cons _ (Nat.eq_dec n 4) (@nil _))``): each element consumed, as writing it out does."""
    if arity is None or at < 2 or tokens[at - 1] != "(":
        return False
    depth, start = 0, at - 2
    while start >= 0 and not (tokens[start] == "(" and depth == 0):
        depth += (tokens[start] == ")") - (tokens[start] == "(")
        start -= 1
    if start < 0 or tokens[start + 1] not in lists.maps:
        return False
    groups = argument_groups(tokens[start + 1], applied_to(tokens, start + 1))
    function = argument_groups(token := tokens[at], applied_to(tokens, at))
    if len(groups) != 4 or groups[2] != tokens[at - 1 : at - 1 + len(groups[2])] or len(function) != arity - 1:
        return False
    return token in groups[2] and decision_list(tokens, groups[3], lists, computable, derived)


def decision_list(
    tokens: list[str], words: list[str], lists: ListNames, computable: Computable, derived: set[str], depth: int = 0
) -> bool:
    """Whether every element of the list ``words`` is a computable decision: a written list (``cons``/``nil``)
    of them, a located ``map`` of a function that makes one of each element (:func:`decisions_mapped`), or
    (round 47) a variable a ``let`` of the answer binds, once, to such a list (its definition read the same
    way, a few levels deep), or (round 49) a located builder of such lists and elements (``repeat d 3``,
    ``app l m``, ``rev l``: ``decision_names.LIST_BUILDERS``). Anything else (a list variable bound otherwise,
    another library function's list) stays a consumer's business."""
    if depth > LIST_DEPTH:
        return False
    while words[:2] == ["(", "cons"]:
        parts = argument_groups("cons", words[1:-1])
        if len(parts) != 3 or not computes(parts[1], computable, derived):
            return False
        words = parts[2]
    if words[:2] == ["(", "nil"] or decisions_mapped(words, lists.maps, computable, derived):
        return True
    if words[:1] == ["("] and len(words) > 2 and words[1] in lists.builders:
        roles = lists.builders[words[1]]
        parts = argument_groups(words[1], words[1:-1])
        return len(parts) == len(roles) and all(
            decision_list(tokens, part, lists, computable, derived, depth + 1)
            if role == LIST
            else role != ELEMENT or computes(part, computable, derived)
            for part, role in zip(parts, roles, strict=True)
        )
    definition = let_definition(tokens, words)
    return definition is not None and decision_list(tokens, definition, lists, computable, derived, depth + 1)


LIST_DEPTH = 4
"""How many ``let``-bound lists and builders :func:`decision_list` reads through (``let l := .. in let m := l in
..``, ``app (rev l) m``)."""


def let_definition(tokens: list[str], words: list[str]) -> list[str] | None:
    """The definition of ``words`` when it is one variable that the answer binds once, by a ``let`` (``let l :=
    def in``, or ``let l : T := def in``); None otherwise."""
    if len(words) != 1 or Counter(inner_binder_list(tokens))[words[0]] != 1:
        return None
    for at in range(len(tokens) - 1):
        if tokens[at] == "let" and tokens[at + 1] == words[0]:
            start = next((i for i in range(at + 2, len(tokens)) if tokens[i] == ":="), None)
            if start is None:
                return None
            depth, nested = 0, 0
            for end in range(start + 1, len(tokens)):
                depth += (tokens[end] == "(") - (tokens[end] == ")")
                nested += tokens[end] == "let"
                if depth == 0 and tokens[end] == "in":
                    if nested == 0:  # an application, grouped as an argument is (``( cons ... )``)
                        definition = tokens[start + 1 : end]
                        return definition if len(definition) == 1 else ["(", *definition, ")"]
                    nested -= 1
            return None
    return None


def decisions_mapped(words: list[str], maps: set[str], computable: Computable, derived: set[str]) -> bool:
    """Whether the list ``words`` is a located ``map`` of a function that makes a computable decision of each
    element (``@map nat _ (Nat.eq_dec n) xs``, ``@map nat _ (fun k : nat => Nat.eq_dec k n) (seq 0 n)``), so
    each element consumed is one (round 47: such a list is not written out, and an honest search by a
    computable decision was refused). The list mapped over is data: its own decisions are read where they
    stand."""
    if len(words) < 3 or words[0] != "(" or words[1] not in maps:
        return False
    groups = argument_groups(words[1], words[1:-1])
    if len(groups) != 4:
        return False
    function = groups[2]
    if function[:2] == ["(", "fun"]:
        depth, arrow = 0, None
        for index, word in enumerate(function):
            depth += (word == "(") - (word == ")")
            if word == "=>" and depth == 1:
                arrow = index
                break
        function = function[arrow + 1 : -1] if arrow is not None else []
    return computes(function, computable, derived)
