"""The words of an answer's print under ``Printing All``, and the shapes G4's readers find in them: an
application's arguments, a ``match``'s scrutinee and branches, the variables binders bind (split from
``answer_tests``, round 49, so that the readers of decisions and of lists of decisions share them).

``Printing All`` parenthesises every applied argument and prints no notation, so these shapes are read from
the words alone; whatever does not have the shape is left to the reader, which fails closed.
"""

from __future__ import annotations

import re

KEYWORDS = frozenset({"in", "then", "else", "with", "end", "return", "as", "let", "fun", "match", "if", "forall"})


TOKEN = re.compile(r"=>|:=|[()|,:]|[^\W\d][\w']*(?:\.[^\W\d][\w']*)*")


def body_tokens(lines: list[str], marker: str) -> list[str] | None:
    """The words of the answer's body as printed after ``marker`` (None if it never appeared)."""
    if marker not in lines:
        return None
    printed = []
    for line in lines[lines.index(marker) + 1 :]:
        if line.startswith(("Arguments ", marker)) or line.lstrip().startswith(": "):
            break  # the body ends at its type (whose binders are no range); the environment's own print follows
        printed.append(line)
    text = "\n".join(printed)
    return TOKEN.findall(text.split(" = ", 1)[1] if " = " in text else text)


BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
"""How each bracket a print may hold changes the nesting depth."""


def one_group(words: list[str]) -> bool:
    """Whether the opening bracket ``words[0]`` closes at the last word."""
    depth = 0
    for at, word in enumerate(words):
        depth += BRACKETS.get(word, 0)
        if depth == 0:
            return at == len(words) - 1
    return False


def argument_groups(token: str, arguments: list[str]) -> list[list[str]]:
    """The arguments ``token`` is applied to (:func:`applied_to`), one list per argument (a word or a group)."""
    groups: list[list[str]] = []
    depth = 0
    for word in arguments[1:] if arguments[:1] == [token] else arguments:
        if depth == 0:
            groups.append([])
        groups[-1].append(word)
        depth += (word == "(") - (word == ")")
    return groups


def match_scrutinee(tokens: list[str], at: int) -> tuple[list[str], int]:
    """The scrutinee of the ``match`` at ``at`` and the index of the word that ends it (``with``, ``return``,
    ``as``, ``in``)."""
    scrutinee, end, depth = [], at + 1, 0
    while end < len(tokens):
        token = tokens[end]
        depth += (token == "(") - (token == ")")
        if depth == 0 and token in ("with", "return", "as", "in"):
            break
        scrutinee.append(token)
        end += 1
    return scrutinee, end


def match_branches(tokens: list[str], start: int) -> list[int]:
    """Where the branches (their ``|``) of the ``match`` whose header ends at ``start`` begin."""
    found, depth = [], 0
    for at in range(start, len(tokens)):
        token = tokens[at]
        if token == "match":
            depth += 1
        elif token == "end":
            if depth == 0:
                break
            depth -= 1
        elif token == "|" and depth == 0:
            found.append(at)
    return found


def applied_to(tokens: list[str], at: int) -> list[str]:
    """The words a name at ``at`` is applied to: its parenthesised application, else the words after it up
    to a keyword, a ``|`` or the end of its group; none where it is itself an argument (after a word of the
    same application: ``Printing All`` parenthesises every applied argument)."""
    if at and tokens[at - 1] not in KEYWORDS and tokens[at - 1] not in ("(", "|", "=>", ":=", ","):
        return []
    if at and tokens[at - 1] == "(":
        depth = 0
        for end in range(at - 1, len(tokens)):
            depth += (tokens[end] == "(") - (tokens[end] == ")")
            if depth == 0:
                return tokens[at:end]
        return tokens[at:]
    scope, depth = [], 0
    for token in tokens[at + 1 :]:
        depth += (token == "(") - (token == ")")
        if depth < 0 or (depth == 0 and (token in KEYWORDS or token in ("|", "=>", ":=", ","))):
            break
        scope.append(token)
    return scope


def inner_binder_list(tokens: list[str]) -> list[str]:
    """Every name ``tokens`` bind, once per binder: ``fun``, ``let``, ``fix``, ``forall``, ``as``, patterns."""
    inner: list[str] = []
    for i in range(len(tokens)):
        token = tokens[i]
        if token in ("fun", "forall"):
            inner.extend(binder_names(tokens, i + 1)[0])
        elif token in ("let", "fix", "as") and i + 1 < len(tokens):
            inner.append(tokens[i + 1])
        elif token == "|":
            inner.extend(pattern_words(tokens, i))
    return variable_names(inner)


def pattern_words(tokens: list[str], bar: int) -> list[str]:
    """The words the pattern after the ``|`` at ``bar`` binds (all but its head constructors)."""
    words = []
    for before, word in zip(tokens[bar + 1 :], tokens[bar + 2 :], strict=False):
        if word == "=>":
            break
        if before != "(":  # a nested pattern's constructor
            words.append(word)
    return variable_names(words)


def variable_names(words: list[str]) -> list[str]:
    """The variable names among the words a binder reads (no punctuation, ``_`` or qualified name)."""
    return [n for n in words if n not in ("(", ")", ",", "_", ":") and "." not in n]


def binder_names(tokens: list[str], at: int) -> tuple[list[str], int]:
    """The names a ``fun``/``forall`` at ``at - 1`` binds (``fun n : nat =>``, ``fun (x : R) (y : R * R) =>``),
    and the index after its ``=>`` or ``,``."""
    names: list[str] = []
    typing, depth = False, 0
    while at < len(tokens) and not (depth == 0 and tokens[at] in ("=>", ",")):
        token = tokens[at]
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            typing = typing and depth > 0
        elif token == ":" and depth <= 1:
            typing = True
        elif not typing and token not in KEYWORDS:
            names.append(token)
        at += 1
    return names, at + 1
