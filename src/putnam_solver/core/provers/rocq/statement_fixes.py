"""The statement's own fixpoints inside the candidate's theorem (G5's recursion check, ``recursion.py``).

A theorem binder ``(A := fix a (n : nat) : R := ...)`` (29 PutnamBench statements, ``putnam_2012_b4``)
puts the statement's fixpoint into the theorem's type, and ``intros`` puts the same ``let`` into every
proof term: the candidate's theorem then always holds a ``fix``, and every sound proof of such a
statement was refused as "recursion of its own". The check reads the printed terms, so it exempts, by
the same text, only the statement's own binders:

* From the pinned statement compiled alone (``Putnam.Pristine``, the theorem admitted, so its print is
  its type), every ``let NAME : T := VALUE in`` whose value holds a fixpoint is read whole: the value
  ends at the ``in`` that closes its own ``let`` (parentheses, braces, ``match ... end`` and nested
  ``let ... in`` counted, a ``match ... in I`` clause told apart). A binder that cannot be read so is not
  exempt.
* In the candidate's theorem (body and type, names normalised as ``recursion._normalised`` does), each
  occurrence of exactly that binder text is set aside; any ``fix``/``cofix`` left is the candidate's own
  and is refused as before. A fixpoint that differs from the statement's by one token, or that sits in a
  binder of another name or type, keeps its keyword.
* A value that names another of the statement's ``let``-bound names is not exempt: the guard checker
  unfolds a ``let`` it meets, so the same text under another binding of that name (``let x := ... in``
  written by the candidate) could be guard-checked differently from the statement. Names bound by a
  ``forall``/``fun`` were abstract when the statement's fixpoint was checked, and guardedness checked
  for an abstract variable holds for every value of it.
"""

from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from typing import Final

_NAME: Final = re.compile(r"[^\W\d][\w']*")
_TOKEN: Final = re.compile(r"[(){},;]|[^\s(){},;]+")
_FIXPOINT: Final = re.compile(r"(?<![\w'.])(?:co)?fix(?![\w'])")
_CLOSERS: Final = {")": "(", "}": "{"}
SET_ASIDE: Final = "__putnam_statement_value"
"""What an exempt binder's value is replaced with before the candidate's theorem is searched again."""


def _value_end(tokens: list[str], start: int) -> int | None:
    """The index of the ``in`` that ends a ``let`` value starting at ``start`` (None if unreadable)."""
    stack: list[str] = []
    for i in range(start, len(tokens)):
        tok = tokens[i]
        if tok in ("(", "{", "let", "match"):
            stack.append(tok)
        elif tok in _CLOSERS:
            if not stack or stack.pop() != _CLOSERS[tok]:
                return None
        elif tok == "with" and stack[-1:] == ["match"]:
            stack[-1] = "branches"
        elif tok == "end":
            if stack[-1:] != ["branches"]:
                return None
            stack.pop()
        elif tok == "in":
            if stack[-1:] == ["let"]:
                stack.pop()
            elif stack[-1:] == ["match"]:
                continue  # `match t as x in I _ return P with`
            elif not stack:
                return i
            else:
                return None
    return None


@dataclass(frozen=True)
class Binder:
    """A ``let NAME [: T] := VALUE in`` (or ``let fix NAME ... in``) of a print, read whole."""

    name: str
    text: str
    value: str

    @property
    def aside(self) -> str:
        """What the binder becomes once set aside: the same name bound, no fixpoint."""
        return f"let {self.name} := {SET_ASIDE} in"


def _binders(tokens: list[str]) -> list[Binder]:
    """Every readable ``let`` binder of ``tokens`` (``let fix x ... in`` too: Coq prints a binder whose
    name is its fixpoint's so)."""
    found = []
    for i, tok in enumerate(tokens[:-2]):
        if tok != "let":
            continue
        if tokens[i + 1] in ("fix", "cofix") and _NAME.fullmatch(tokens[i + 2]):
            name, value = tokens[i + 2], i + 1
        elif _NAME.fullmatch(tokens[i + 1]):
            j = i + 2
            if tokens[j] == ":":
                j = next((k for k in range(j, len(tokens)) if tokens[k] in (":=", "let", "in")), len(tokens))
            if j >= len(tokens) or tokens[j] != ":=":
                continue
            name, value = tokens[i + 1], j + 1
        else:
            continue
        end = _value_end(tokens, value)
        if end is not None:
            found.append(Binder(name, " ".join(tokens[i : end + 1]), " ".join(tokens[value:end])))
    return found


def statement_binders(pristine: str, avoid: frozenset[str] = frozenset()) -> list[tuple[Binder, list[Binder]]]:
    """Each ``let`` binder of the pinned theorem's print that binds a fixpoint, readable whole, with the
    statement's other ``let`` binders its value names (the guard checker unfolds them: the candidate's
    term must bind them to the same values). None whose value names a ``let``-bound name that is not
    such a binder, or one of ``avoid`` (on no-answer the solution, which is the candidate's own constant,
    unfolded by the guard checker like a ``let``)."""
    tokens = _TOKEN.findall(pristine)
    binders = _binders(tokens)
    by_name: dict[str, list[Binder]] = {}
    for binder in binders:
        by_name.setdefault(binder.name, []).append(binder)
    let_bound = _let_bound(tokens)
    exempt = []
    for binder in (b for b in binders if _FIXPOINT.search(b.value)):
        words = free_words(binder.value) - {binder.name}
        named = words & let_bound
        if words & avoid or any(len(by_name.get(n, [])) != 1 for n in named):
            continue
        exempt.append((binder, [by_name[n][0] for n in sorted(named)]))
    return exempt


_KEYWORDS: Final = frozenset(
    {"fix", "cofix", "fun", "forall", "let", "in", "match", "as", "return", "with", "end", "struct"}
    | {"if", "then", "else", "Prop", "Set", "Type", "SProp"}
)
_BINDING: Final = frozenset({"fix", "cofix", "fun", "forall", "let", "with", "as"})


def free_words(value: str) -> set[str]:
    """The words of a printed value that no binder inside it binds (over-approximated: a word is free
    unless it follows a binding keyword, names a binder of a ``(x y : T)`` group, or is a pattern variable)."""
    tokens = _TOKEN.findall(value)
    bound: set[str] = set()
    for i, tok in enumerate(tokens):
        if tok in _BINDING and i + 1 < len(tokens):
            bound.add(tokens[i + 1])
        elif tok == "(":  # `(x y : T)`: the words before the colon, when a colon follows them directly
            group = list(itertools.takewhile(lambda t: t not in ("(", ")", ":", ":="), tokens[i + 1 :]))
            if i + 1 + len(group) < len(tokens) and tokens[i + 1 + len(group)] == ":":
                bound.update(group)
        elif tok == "|":  # `| C x y =>`: the constructor is free, its arguments bound
            pattern = list(itertools.takewhile(lambda t: t != "=>", tokens[i + 1 :]))
            bound.update(pattern[1:])
    return {t.removeprefix("@") for t in tokens if re.fullmatch(r"@?[^\W\d][\w'.]*", t)} - bound - _KEYWORDS


def _let_bound(tokens: list[str]) -> set[str]:
    """Names a ``let`` of ``tokens`` binds (a pattern ``let '(a, b) :=``: every word up to ``:=``)."""
    names: set[str] = set()
    for i, tok in enumerate(tokens[:-1]):
        if tok != "let":
            continue
        if tokens[i + 1] in ("fix", "cofix") and i + 2 < len(tokens):
            names.add(tokens[i + 2])
        elif tokens[i + 1] not in _KEYWORDS and _NAME.fullmatch(tokens[i + 1]):
            names.add(tokens[i + 1])
        else:
            names.update(itertools.takewhile(lambda t: t != ":=", tokens[i + 1 :]))
    return names


def _aside(aside: str, _: re.Match[str]) -> str:
    return aside


def only_statement_fixpoints(candidate: str, pristine: str, avoid: frozenset[str] = frozenset()) -> bool:
    """Whether every fixpoint in the candidate theorem's print lies in a binder the pinned theorem has
    (``statement_binders``), text for text; both prints normalised to the same module names. A free word
    of such a binder's value (or of a statement binder it names) that the candidate's term binds by a
    ``let`` other than the statement's own makes the same text another term, which the guard checker
    could unfold otherwise: then nothing is set aside."""
    text = " ".join(_TOKEN.findall(candidate))
    free: set[str] = set()
    named: list[Binder] = []
    for binder, uses in statement_binders(pristine, avoid):
        # a function, not a template: the binder's text may hold backslashes
        pattern = re.compile(rf"(?<!\S){re.escape(binder.text)}(?!\S)")
        text, count = pattern.subn(functools.partial(_aside, binder.aside), text)
        if count:
            free |= free_words(binder.value) - {binder.name}
            named += uses
    for use in named:
        free |= free_words(use.value) - {use.name}
        lets = [m.start() for m in re.finditer(rf"(?<!\S)let {re.escape(use.name)}(?!\S)", text)]
        if any(not (text.startswith(use.text, at) or text.startswith(use.aside, at)) for at in lets):
            return False  # the name is bound, somewhere, to another value than the statement's
    if (free - {u.name for u in named}) & _let_bound(_TOKEN.findall(text)):
        return False
    return not _FIXPOINT.search(text)


__all__ = ["Binder", "free_words", "only_statement_fixpoints", "statement_binders"]
