"""G3, forbidden constructs: named constructs are rejected anywhere outside comments, strings and doc
comments, matched on whole tokens or whole ``.``-separated name parts (``sorry`` is rejected, ``sorry_free``
and ``h_axiom`` are not). Every ``@[...]`` attribute list anywhere in the file, including those of ``where``
and ``let rec`` declarations inside a proof, may name only ``policy.helper_attributes``: the others run code
when the module is loaded (``init``), replace compiled code (``implemented_by``, ``extern``, ``csimp``),
change elaboration (``instance``, ``default_instance``, ``coe``, ``reducible``...) or generate declarations
(``to_additive``, ``simps``...).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import compress, count
from operator import itemgetter
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.lean._policy import (
    POLICY,
    ForbiddenRule,
    LeanPolicy,
    elaboration_option,
    option_allowed,
)
from putnam_solver.core.provers.lean.syntax import DOC, IDENT, LexError, Token, lex_code, name_parts, positions


def scan_forbidden(tokens: Sequence[Token], policy: LeanPolicy = POLICY) -> list[Violation]:
    """Every forbidden construct among the code tokens (comments, strings and doc comments are skipped: a doc
    comment is never reported, nor read as the token after another)."""
    words = policy.forbidden_words()
    found: list[Violation] = []

    def add(token: Token, rule: ForbiddenRule, construct: str) -> None:
        found.append(Violation(token.line, construct, f"{rule.rule}: {rule.reason}"))

    texts = list(map(_TEXT, tokens))
    flagged = _flagged_texts(set(texts), words)
    if not flagged:
        return found
    for i in _flagged_positions(texts, flagged):
        token = tokens[i]
        if token.kind == DOC:
            continue
        text, nxt = token.text, next(_code_after(tokens, i), None)
        if token.kind == IDENT:
            parts = name_parts(text)
            absolute = parts[1:] if parts[:1] == ["_root_"] else parts  # `_root_.Lean.x` is `Lean.x`
            hit = next((p for p in parts if p in words), None)
            if hit is not None:
                add(token, words[hit], text)
            elif absolute[:1] == ["Lean"]:
                add(token, policy.rule("Lean.*"), text)
        elif text.startswith("#") and len(text) > 1 and text not in policy.read_only_commands:
            add(token, policy.rule("#command"), text)
        if text == "@[":
            for name in attribute_names(tokens, i):
                if name not in policy.helper_attributes:
                    add(token, policy.rule("@[attribute]"), f"@[{name}]")
        if text == "open" and nxt is not None and nxt.text == "private":
            add(token, policy.rule("open private"), "open private")
        if text == "set_option" and (nxt is None or not settable(nxt.text, policy)):
            add(token, policy.rule("set_option"), f"set_option {nxt.text if nxt else ''}".strip())
    return found


_TEXT: Final = itemgetter(1)
"""``Token.text`` as a function: ``map`` over it runs without a Python frame per token."""
_SCANNED: Final = frozenset({"@[", "open", "set_option"})


def _may_flag(text: str, words: dict[str, ForbiddenRule]) -> bool:
    """Whether a token with this text can be reported by :func:`scan_forbidden` (whatever its kind and
    neighbours): texts that are none of these are skipped there, each distinct text decided once."""
    if text in _SCANNED or (text.startswith("#") and len(text) > 1):
        return True
    parts = name_parts(text)
    absolute = parts[1:] if parts[:1] == ["_root_"] else parts
    return absolute[:1] == ["Lean"] or not words.keys().isdisjoint(parts)  # any part a word (in C)


def _flagged_positions(texts: list[str], flagged: set[str]) -> list[int]:
    """Where the flagged texts occur, in order. Usually one or two texts are flagged (``open``,
    ``set_option``): one C scan of the list per text beats testing every token against the set, which
    is what many flagged texts get (so that the work stays linear in the file)."""
    if len(flagged) > _FEW:
        return list(compress(count(), map(flagged.__contains__, texts)))  # a loop in C
    return sorted(i for text in flagged for i in positions(texts, text))


_FEW: Final = 8


def _flagged_texts(texts: set[str], words: dict[str, ForbiddenRule]) -> set[str]:
    """The texts among ``texts`` that :func:`_may_flag` accepts, most of them ruled out at once.

    A name part is a substring of its text (``«sorry»`` contains ``sorry``), so a text can have a
    forbidden word or ``Lean`` as a part only if it contains that string. One substring search per
    word over all the texts joined by line breaks finds the words present (a word found there lies
    within one text: a word has no line break, and if it had, a match across texts would only add
    suspects). Only the texts containing one of those, and the ones flagged whatever their parts
    (``_SCANNED``, ``#...``), are left for :func:`_may_flag` to decide."""
    joined = "\n".join(texts)
    present = [word for word in (*words, "Lean") if word in joined]
    suspects = {text for text in texts if any(word in text for word in present)} if present else set()
    suspects |= texts & _SCANNED
    if "#" in joined:
        suspects |= {text for text in texts if text.startswith("#")}
    return {text for text in suspects if _may_flag(text, words)}


def attribute_names(tokens: Sequence[Token], start: int) -> list[str]:
    """The attribute names of the ``@[...]`` opened at ``tokens[start]``: the first token of each
    comma-separated item after ``local``/``scoped`` (``@[simp, local instance 100]`` -> simp, instance).
    An item that does not start with a name, or a list that never closes, yields its first token's text
    (or ``<unclosed>``) so that the caller refuses it."""
    names: list[str] = []
    depth, item_start = 0, True
    for token in _code_after(tokens, start):
        if depth == 0 and token.text == "]":
            return names
        if token.text in ("(", "[", "{", "⟨", "@["):
            depth += 1
        elif token.text in (")", "]", "}", "⟩"):
            depth -= 1
        if depth == 0 and token.text == ",":
            item_start = True
        elif item_start and token.text not in ("local", "scoped"):
            names.append(token.text)
            item_start = False
    return [*names, "<unclosed>"]


def _code_after(tokens: Sequence[Token], i: int) -> Iterator[Token]:
    """The tokens after ``tokens[i]`` without doc comments, one at a time: a caller reads only a few, so
    neither the rest of the file nor a doc-free copy of it is made."""
    for j in range(i + 1, len(tokens)):
        if tokens[j].kind != DOC:
            yield tokens[j]


def check_forbidden(candidate: str, policy: LeanPolicy = POLICY) -> list[Violation]:
    """G3 on a whole file. Unlexable text is itself a violation: what cannot be read cannot be cleared."""
    try:
        tokens = lex_code(candidate)
    except LexError as exc:
        return [Violation(exc.line, "unreadable source", f"lexing: {exc.reason}")]
    return scan_forbidden(tokens, policy)


def settable(name: str, policy: LeanPolicy) -> bool:
    """Options G3 lets a candidate set anywhere: the harmless ones and those G2 leaves to G6."""
    return option_allowed(name, policy) or elaboration_option(name, policy)
