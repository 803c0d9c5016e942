"""Lean 4 source layer: a lexer (``_lexer``), a command splitter (``_commands``) and the shape of a
PutnamBench statement (here); this module is where the gates import all three from.

Why a lexer of our own: the text gates (G2 preservation, G3 forbidden constructs) must not be fooled by
comments, strings or formatting; ``_lexer`` follows Lean 4's own tokenizer where that matters, and
``_commands`` splits a file into commands as Lean does. Both are linear in the text: nesting depth is
a counter, and no step rescans what an earlier one read.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Final

from putnam_solver.core.provers.lean._abs_bars import abs_pairs
from putnam_solver.core.provers.lean._commands import (
    COMBINATORS,
    COMMAND_ONLY_KEYWORDS,
    DECLARATION_KEYWORDS,
    Command,
    all_parts,
    balanced,
    body_keywords,
    commands_of,
    glued_names,
    name_parts,
    normalize_name,
    split_commands,
    top_level_assign,
)
from putnam_solver.core.provers.lean._doc_breaks import module_doc_followers
from putnam_solver.core.provers.lean._lexer import _lexed, code_tokens, lex, lex_code
from putnam_solver.core.provers.lean._lexer import _Lexer as _Lexer  # for bench/lexer_equivalence.py
from putnam_solver.core.provers.lean._tokens import (
    CHAR,
    COMMENT,
    DOC,
    IDENT,
    NAME,
    NUMBER,
    STRING,
    SYMBOL,
    LexError,
    Token,
    positions,
)
from putnam_solver.core.provers.protocol import StatementError as StatementError  # the shared one, re-exported

# the lexer's and command splitter's names the gates use, re-exported with this module's own
__all__ = [
    "CHAR",
    "COMBINATORS",
    "COMMAND_ONLY_KEYWORDS",
    "COMMENT",
    "DECLARATION_KEYWORDS",
    "DOC",
    "HEADER_KEYWORDS",
    "IDENT",
    "NAME",
    "NUMBER",
    "STRING",
    "SYMBOL",
    "Command",
    "LexError",
    "Solution",
    "Statement",
    "Token",
    "all_parts",
    "balanced",
    "body_keywords",
    "bound_names",
    "bound_scopes",
    "code_tokens",
    "commands_of",
    "free_occurrences",
    "glued_names",
    "image_bars",
    "lex",
    "lex_code",
    "name_parts",
    "normalize_name",
    "parse_statement",
    "positions",
    "split_commands",
    "top_level_assign",
]

# ---------------------------------------------------------------------------------------------------------
# PutnamBench statements


@dataclass(frozen=True)
class Solution:
    """An ``abbrev|def *_solution : T := sorry`` declaration and its official answer comment."""

    command: Command
    value: Token
    """The ``sorry`` token after ``:=``."""
    answer: str | None
    """The expression in the ``-- <answer>`` line right after the declaration, if there is one."""
    answer_comment: Token | None


@dataclass(frozen=True)
class Statement:
    """A parsed statement: header commands, the body commands before the theorem, and the theorem."""

    text: str
    tokens: tuple[Token, ...]
    commands: tuple[Command, ...]
    header: tuple[Command, ...]
    solutions: tuple[Solution, ...]
    theorem: Command
    proof_assign: int
    """Index in ``theorem.tokens`` of the ``:=`` that begins the proof."""
    auto_bound: bool = True
    """Whether Lean reads the statement under ``autoImplicit`` (Lean's default; off for a benchmark whose
    ``leanOptions`` turn it off, as PutnamBench's do): then a name no binder scopes may be a variable."""
    project_options: frozenset[str] = frozenset()
    """The options the benchmark's ``leanOptions`` set for every file of its project."""

    @property
    def theorem_name(self) -> str:
        assert self.theorem.name is not None
        return self.theorem.name

    @cached_property
    def declared_names(self) -> frozenset[str]:
        return frozenset(normalize_name(c.name) for c in self.commands if c.name is not None)

    @cached_property
    def referenced_names(self) -> frozenset[str]:
        """The first name part of every identifier in the statement's code (binders, bound and
        auto-bound variables, names reached through ``open``): a new root declaration with one of these
        names could be what the identifier resolves to."""
        return frozenset(name_parts(t.text)[0] for t in self.tokens if t.kind == IDENT)

    @cached_property
    def bound_names(self) -> frozenset[str]:
        """Names the theorem binds (binder brackets, ``∀ ∃ fun ∑``..., set-builder ``{x | ...}``). With
        ``autoImplicit`` off such a name in the statement is the local variable, whatever is declared."""
        return bound_names(self.theorem.tokens[self.theorem.head : self.proof_assign])

    @cached_property
    def names_used_free(self) -> frozenset[str]:
        """The first name part of every identifier of the statement's code that no binder of its name
        scopes (:func:`free_occurrences`): a name bound in one place and used free in another counts.
        Such a name is a declaration's or, under ``autoImplicit`` (Lean's default, which miniF2F and
        ProofNet keep), an auto-bound variable, which a root helper so named would replace (red team 25)."""
        statement = self.theorem.tokens[self.theorem.head : self.proof_assign]
        scoped = {t.offset for t in statement} - {t.offset for t in free_occurrences(statement)}
        return frozenset(name_parts(t.text)[0] for t in self.tokens if t.kind == IDENT and t.offset not in scoped)

    @cached_property
    def name_parts_used(self) -> frozenset[str]:
        """Every ``.``-separated part of every identifier, and every name after a ``.`` token: what
        generalized field notation (``x.f``, ``(e).f``) could look up in some namespace."""
        code = [t for t in self.tokens if t.kind == IDENT]
        return frozenset(part for t in code for part in name_parts(t.text))

    @property
    def proof(self) -> tuple[Token, ...]:
        return self.theorem.tokens[self.proof_assign + 1 :]


_BINDERS: Final = frozenset(
    {"∀", "∃", "∃!", "fun", "λ", "∑", "∏", "⋃", "⋂", "⨆", "⨅", "∫", "Σ", "Σ'", "Π", "∑'", "∏'", "∀ᶠ", "∃ᶠ", "let", "ᵉ"}
)  # fmt: skip
_BINDER_OPEN: Final = frozenset({"(", "{", "⦃", "["})


def bound_names(tokens: Sequence[Token]) -> frozenset[str]:
    """Identifiers in binding position (:func:`bound_scopes`)."""
    return frozenset(name for name, _, _ in bound_scopes(tokens))


def bound_scopes(tokens: Sequence[Token]) -> list[tuple[str, int, int]]:
    """Identifiers in binding position: right after a binder symbol (and inside its bracketed binders),
    first in a bracket before its ``:`` (``(a b : T)``, ``[h : C]``), or first in ``{x | ...}``.

    A bracket binds only where Lean's grammar reads a binder group (red team 21): among the theorem's
    own parameters (outside every bracket), after a binder symbol or another such group (``∀ (x : ℝ)
    (y : ℝ), ..``), before a dependent arrow (``(S : Type) → ..``), in a set-builder's pattern or after
    the ``|`` of its image form (``_binder_groups``). Elsewhere ``(f a : T)`` is a type ascription
    (src/Lean/Parser/Term.lean, ``typeAscription``) and ``f`` is used, not bound: ``(choose s i : ℚ)``
    in ``putnam_1987_b2`` names ``Nat.choose`` (through ``open Nat``), and a helper named ``choose``
    must not pass for harmless there (nor ``X`` beside ``(X : Polynomial ℝ)``). The names of tuple patterns
    (``{(p, q) : T | C}``, ``fun ⟨S, T⟩ ↦``) are bound too (``_tuple_names``); the copy rule of the no-answer
    track reads the theorem's variables here (``_answer_copy``), each with the index of its binder and the
    end of its scope (the closer of the bracket around the binder, or of a set-builder's braces)."""
    bound: list[tuple[str, int, int]] = []
    depth, (groups, bars) = 0, _binder_groups(tokens)
    within, partner = _enclosing(tokens)
    for i, token in enumerate(tokens):
        end = partner.get(i if token.text == "{" else within[i], len(tokens))
        end = _body_end(tokens, i, end) if token.text in _BIG_BINDERS else end
        group = token.text == "{" or depth == 0 or i in groups  # `{x | C}`, `{x : T | C}` bind anywhere
        if token.text in _BINDERS or i in bars or (token.text in _BINDER_OPEN and group):
            names: list[str] = []
            for later in tokens[i + 1 :]:
                if later.kind == IDENT and later.text != "in":  # `∫ x in (Ico 0 t), ..` binds `x` only
                    names.append(later.text)
                elif later.kind == IDENT or later.text not in _BINDER_OPEN or token.text in _BINDER_OPEN:
                    break
            stop = tokens[i + 1 + len(names)] if i + 1 + len(names) < len(tokens) else None
            predicate = token.text == "{" or i in groups  # `{x ∈ s | C}`, `{r > 0 | C}`, `∀ᵉ (x ∈ s) (y ∈ s)`
            ends = (":", "|", *_BUILDER_ENDS) if predicate else (":", "|")
            single = token.text != "{" or len(names) == 1  # `{f x | x > 0}` binds `x` after its `|`, not `f`
            single = single or (depth == 0 and stop is not None and stop.text == ":")  # a parameter `{n m : ℕ}`
            binds = token.text in _BINDERS or i in bars or (single and stop is not None and stop.text in ends)
            if binds:
                bound += [(n, i, end) for n in names if len(name_parts(n)) == 1 and n not in _NOT_NAMES]
        if i in groups and token.text in ("(", "⟨"):  # `{(a, b) : T | C}`, `fun ⟨S, T⟩ ↦`, `fun (a, b) (c, d) ↦`
            bound += [(n, i, end) for n in _tuple_names(tokens, i)]
        depth += (token.text in _OPENERS) - (token.text in _CLOSERS)
    return bound


def free_occurrences(tokens: Sequence[Token]) -> list[Token]:
    """The identifiers among a theorem's statement ``tokens`` that no binder of the same name scopes
    (:func:`bound_scopes`; a binder group among the theorem's own parameters, outside every bracket, scopes
    to the end: ``{n : ℕ}`` there is not a set-builder). Linear in the tokens but for a sort per name."""
    within, partner = _enclosing(tokens)
    spans: dict[str, list[tuple[int, int]]] = {}
    for name, i, end in bound_scopes(tokens):
        outer = partner.get(within[i], len(tokens))  # the end of the bracket around the binder
        if tokens[i].text in _BINDER_OPEN and i in partner:
            after = partner[i] + 1
            if within[i] < 0 or (after < len(tokens) and tokens[after].text in ("→", "->")):
                end = outer  # a parameter of the theorem, or of a dependent arrow: to the end of it
        start = within[i] if tokens[i].text == "|" else i  # `{a + i * d | i}`: the image is in scope
        spans.setdefault(name, []).append((start, end))
    merged = {name: _union(found) for name, found in spans.items()}
    return [
        t for j, t in enumerate(tokens) if t.kind == IDENT and not _covers(merged.get(name_parts(t.text)[0], []), j)
    ]


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _covers(spans: list[tuple[int, int]], j: int) -> bool:
    k = bisect_left(spans, (j, -1)) - 1  # the last span that starts before `j`
    return k >= 0 and spans[k][0] < j <= spans[k][1]


_BIG_BINDERS: Final = frozenset({"∑", "∏", "∑'", "∏'", "∫", "∮", "⨆", "⨅", "⋃", "⋂"})
"""Binders whose body Mathlib reads at precedence 60 or 67: ``∑ x ∈ s, f x = c`` is ``(∑ ..) = c``."""
_ENDS_BODY: Final = frozenset({"=", "≠", "<", ">", "≤", "≥", "↔", "∧", "∨", "→", "->", "∈", "∉", "⊆", "⊂", "∣"})


def _body_end(tokens: Sequence[Token], i: int, end: int) -> int:
    """Where the body of the big operator at ``i`` ends: at the first relation or connective after its
    header's ``,`` outside brackets opened in it, else at ``end``."""
    depth, body = 0, False
    for j in range(i + 1, end):
        text = tokens[j].text
        if depth == 0 and body and text in _ENDS_BODY:
            return j
        body = body or (depth == 0 and text == ",")
        depth += (text in _OPENERS) - (text in _CLOSERS)
    return end


def _enclosing(tokens: Sequence[Token]) -> tuple[list[int], dict[int, int]]:
    """The opener of the innermost bracket around each token (-1 for none), and each opener's closer."""
    within: list[int] = []
    partner: dict[int, int] = {}
    stack: list[int] = []
    for i, token in enumerate(tokens):
        if token.text in _CLOSERS and stack:
            partner[stack.pop()] = i
        within.append(stack[-1] if stack else -1)
        if token.text in _OPENERS:
            stack.append(i)
    return within, partner


_NOT_NAMES: Final = frozenset({"in", "fun", "_"})
"""Lexed as identifiers after a binder (``∫ x in s``, ``∃ fun``, ``∀ _``), but no name bound."""


def _tuple_names(tokens: Sequence[Token], i: int) -> list[str]:
    """The names of the tuple pattern the bracket at ``i`` opens (``(a, b)``, ``⟨a, ⟨b, c⟩⟩``): names, commas
    and brackets only, with at least one comma; none if it is anything else."""
    names: list[str] = []
    depth, comma = 0, False
    for token in tokens[i:]:
        depth += (token.text in ("(", "⟨")) - (token.text in (")", "⟩"))
        if token.kind == IDENT and len(name_parts(token.text)) == 1:
            names.append(token.text)
        elif token.text == ",":
            comma = True
        elif token.text not in ("(", "⟨", ")", "⟩"):
            return []
        if depth == 0:
            return [n for n in names if n not in _NOT_NAMES] if comma else []
    return []


_OPENERS: Final = frozenset({"(", "[", "{", "⦃", "⟨", "@["})
_CLOSERS: Final = frozenset({")", "]", "}", "⦄", "⟩"})


def image_bars(tokens: Sequence[Token]) -> frozenset[int]:
    """The ``|`` of each set-builder in its image form (``{f x | (x : T)}``, ``{k + 1 | k > 0}``): the set
    of values, each member an ``∃`` of the binders after the ``|`` (:func:`_binder_groups`)."""
    return _binder_groups(tokens)[1]


def _binder_groups(tokens: Sequence[Token]) -> tuple[frozenset[int], frozenset[int]]:
    """Where a bracket opens a binder group, and which ``|`` begin binders. A group follows a binder
    symbol or the group before it (``∃ (a : ℕ) (b : ℕ)``, ``fun {x} (y : T) =>``), or stands in a
    set-builder's pattern (``{(u : ℝ) | ..}``, ``{((n : ℕ), (k : ℕ → ℤ)) | ..}``). In the image form
    ``{f x | (x : T) (hx : P x)}`` or ``{k + 1 | k > 0}`` (Mathlib's binder notation) the ``|`` binds
    what follows it, as a binder symbol does."""
    groups: set[int] = set()
    bars: set[int] = set()
    pattern_until: list[int] = []  # the ``|`` of each set-builder pattern being read
    stack: list[int] = []
    closed_group = -1  # the index of the last token that closed a group in ``groups``
    bar_of = _bars(tokens)
    for i, token in enumerate(tokens):
        text = token.text
        previous = tokens[i - 1].text if i else ""
        after_binder = previous in _BINDERS or i - 1 in bars or closed_group == i - 1
        if (text in _BINDER_OPEN or text == "⟨") and (after_binder or (pattern_until and i < pattern_until[-1])):
            groups.add(i)
        if text == "{":
            bar = bar_of.get(i)
            if bar is not None and tokens[i + 1].text in ("(", "⟨") and _pattern_head(tokens, i + 1, bar):
                pattern_until.append(bar)
            elif bar is not None and not (tokens[i + 1].kind == IDENT and tokens[i + 2].text in _BUILDER_ENDS):
                bars.add(bar)
        while pattern_until and i >= pattern_until[-1]:
            pattern_until.pop()
        if text in _OPENERS:
            stack.append(i)
        elif text in _CLOSERS and stack:
            opener = stack.pop()
            if i + 1 < len(tokens) and tokens[i + 1].text in ("→", "->"):  # `(S : Type) → [inst : Mul S] → P`
                groups.add(opener)  # Lean's `depArrow`: a bracketed binder, then the arrow
            closed_group = i if opener in groups else closed_group
    return frozenset(groups), frozenset(bars)


_BUILDER_ENDS: Final = frozenset({"|", ":", "//", "∈", "∉", "<", "≤", ">", "≥", "≠", "⊆", "⊂", "⊃", "⊇"})
"""What follows the one name of a set-builder ``{x | C}``, ``{x : T | C}``, ``{x // C}``, ``{x ∈ s | C}``,
``{r > 0 | C}`` (Mathlib's binder predicates)."""


def _pattern_head(tokens: Sequence[Token], i: int, bar: int) -> bool:
    """Whether the bracket at ``i`` (right after a set-builder's ``{``) is its pattern, ``{(a, b) | C}`` or
    ``{(a, b) : T | C}``: it closes right before the ``|`` or a ``:``. Otherwise the set is the image form
    and the bracket begins its term: ``{(digits 2 (2023*n)).sum | n > 0}`` binds ``n`` after the ``|``."""
    depth = 0
    for j in range(i, bar):
        depth += (tokens[j].text in _OPENERS) - (tokens[j].text in _CLOSERS)
        if depth == 0:
            return tokens[j + 1].text in ("|", ":")
    return False


def _bars(tokens: Sequence[Token]) -> dict[int, int]:
    """The ``|`` of each ``{`` at its own depth, by the ``{``'s index, in one pass: an absolute value's bars
    (``_abs_bars``) are none, so ``{|f x| | x ∈ s}`` separates after its term and ``{x | |x| = 1}`` at
    its first bar."""
    found: dict[int, int] = {}
    stack: list[int] = []
    pairs = abs_pairs([token.text for token in tokens])
    bars = {*pairs, *pairs.values()}
    for k, token in enumerate(tokens):
        text = token.text
        if text in _OPENERS:
            stack.append(k)
        elif text in _CLOSERS and stack:
            stack.pop()
        elif text == "|" and k not in bars and stack and tokens[stack[-1]].text == "{" and stack[-1] not in found:
            found[stack[-1]] = k if k > stack[-1] + 1 else -1
    return {brace: bar for brace, bar in found.items() if bar >= 0}


HEADER_KEYWORDS: Final = frozenset({"import", "open", "set_option"})


@lru_cache(maxsize=2048)
def parse_statement(text: str) -> Statement:
    """Parse a benchmark statement (or a challenge derived from one), once per text (cached: a challenge
    is parsed once per problem and track, not per verification; 2048 entries hold every PutnamBench
    statement and both tracks' challenges, about 45 MB when full). Raises StatementError/LexError."""
    lexed = _lexed(text)  # not through _lex's cache: this function's own keeps the result
    followers = module_doc_followers(lexed.tokens) if "/-!" in text else frozenset()
    tokens, commands = lexed.tokens, split_commands(lexed.code, followers)
    if not commands or commands[-1].keyword != "theorem" or commands[-1].name is None:
        raise StatementError("the last command of the statement is not a named theorem")
    theorem = commands[-1]
    assign = top_level_assign(theorem.tokens)
    if assign is None or assign < theorem.head:
        raise StatementError(f"theorem {theorem.name}: no `:=` before its proof")
    header: list[Command] = []
    for command in commands:
        if command.keyword not in HEADER_KEYWORDS or command.head != 0:
            break
        header.append(command)
    solutions = tuple(
        _solution(c, tokens) for c in commands if c.keyword in ("abbrev", "def") and _is_solution_name(c.name)
    )
    return Statement(text, tokens, tuple(commands), tuple(header), solutions, theorem, assign)


def _is_solution_name(name: str | None) -> bool:
    return name is not None and normalize_name(name).endswith("_solution")


def _solution(command: Command, tokens: Sequence[Token]) -> Solution:
    value = command.tokens[-1]
    comment = next(
        (t for t in tokens if t.offset >= value.end and t.kind == COMMENT and t.line == value.line + 1),
        None,
    )
    is_answer = comment is not None and comment.col == 0 and comment.text.startswith("--")
    answer = comment.text[2:].strip() if comment is not None and is_answer else None
    return Solution(command, value, answer or None, comment if answer else None)
