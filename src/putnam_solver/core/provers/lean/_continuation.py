"""Where Lean must end a command at a word in column 0, whatever that word is.

Lean parses every top-level command inside ``withPosition`` (leanprover/lean4
src/Lean/Parser/Module.lean, ``topLevelCommandParserFn := (withPosition commandParser).fn``), so the
position saved for the whole command is its first token, in column 0. An application argument must stand
right of it: ``argument := checkWsBefore >> checkColGt "expected to be indented" >> ...`` and ``app :=
trailing_parser:leadPrec:maxPrec many1 argument`` (src/Lean/Parser/Term.lean), and ``checkColGtFn``
(src/Lean/Parser/Basic.lean) fails when the token's column is not greater than the saved one. A tactic
block must be indented too (``byTactic``'s tactic sequence is ``checkColGt``-guarded), so a word in column 0
is never an argument and never a tactic: it continues the command only where the command so far is
incomplete (an open bracket, whose parsers run ``withoutPosition``; a token after which a term or a type
must follow: ``:=``, ``→``, ``∧``...), or where it is itself one of Lean's trailing keywords (``then``,
``where``, ``termination_by``...). Anywhere else Lean ends the command before it, and the word begins the
next one: a library command keyword no list of ours holds (Mathlib's ``unset_option``), or, if it is an
identifier, a parse error. Checked on Lean 4.35 (tests/adversarial/test_lean_column0_words.py):
``def f (n : Nat) : Nat := id`` then ``n`` in column 0 is "unexpected identifier; expected command".

The splitter (``_commands.split_commands``) ends a command at a column-0 word unless :func:`continues`
says Lean may read it as more of the command. That reading is justified only where a command cannot end
(a parse error if it did): so a word Lean reads as a command keyword is never absorbed into the helper
before it, whatever the library; and a word we split off that Lean reads otherwise is at worst a false
rejection, refused as an unknown command. Measured on every statement of the pinned benchmarks and every
Lean proof of the conformance corpora: every column-0 word follows ``:=``, ``:``, ``∧``, ``→``, ``↔``,
``=``, an open bracket, or is ``then``, ``termination_by`` or ``decreasing_by``.

The same holds of Lean's command combinator ``cmd₁ in cmd₂``, wherever it stands: :func:`command_ins`
finds every ``in`` inside a command that no binder, ``open`` or ``set_option`` takes, for G2 to refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._tokens import DOC, IDENT, SYMBOL, Token

TRAILING_WORDS: Final = frozenset(
    {"then", "else", "where", "with", "termination_by", "termination_by?", "decreasing_by", "partial_fixpoint",
     "inductive_fixpoint", "coinductive_fixpoint", "extends", "from", "at", "using", "in", "generalizing",
     "says", "do", "by", "matches", "hiding", "renaming"}
)  # fmt: skip
"""Core keywords that continue a complete term or declaration (``if c then a`` / ``else b``, a
declaration's ``where`` and termination hints (``partial_fixpoint`` and the other Lean 4.35 clauses that
take no argument: found with the commands, each read as more of the definition before it), ``show T`` /
``from e``, a tactic's ``at h`` or ``using
e``, ``open A`` / ``in``): Lean's parsers take them without a column check, and no library command can
begin with them (they are core's tokens, read by core's parsers first)."""

DEMANDING_WORDS: Final = frozenset(
    {"by", "fun", "λ", "then", "else", "do", "if", "let", "have", "show", "suffices", "calc", "match",
     "from", "extends", "termination_by", "decreasing_by", "forall", "exists"}
)  # fmt: skip
"""Keywords after which Lean requires more (a term, a tactic sequence, a command): a command cannot end
there. ``with`` is not among them (an ``inductive``'s ``with`` may have no computed field), nor ``where``
but after the declaration's value (:func:`_where_demands`), nor ``in``: Lean's command combinator ``cmd₁ in
cmd₂`` (src/Lean/Parser/Command.lean, ``«in» := trailing_parser " in " >> commandParser``) takes any
command after any command, so the word after a helper's trailing ``in`` is a command (checked on Lean 4.35:
``def zz : Nat := Nat.zero`` / ``in`` / ``deprecated_module`` runs the last as a command); the helper
then ends in ``in``, which G2 refuses."""

DEMANDING_SYMBOLS: Final = frozenset(
    {":", "=>", "↦", "->", "→", "<-", "←", "↔", "=", "≠", "<", ">", "≤", "≥", "<=", ">=", "!=", "==", "≡", "≈",
     "∧", "∨", "¬", "∀", "∃", "Π", "Σ", "Σ'", "∑", "∏", "∑'", "∏'", "∫", "⨆", "⨅", "⋃", "⋂", "^", "/", "%",
     "∣", "•", "∘", "×", "×'", "∪", "∩", "\\", "∆", "⊆", "⊂", "⊇", "⊃", "∈", "∉", "⊔", "⊓", "&&", "||",
     "++", "::", "<|", "|>", "|>.", "$", "<|>", "<;>", "▸", "≃", "≅", "√", "↑", "⇑", "↥", "@"}
)  # fmt: skip
"""Infix and prefix operators of core and Mathlib: after one, a term must follow. Closed on purpose: an
operator not listed (a postfix ``⁻¹``, ``ᶜ``, ``!``, a nullary ``∅``, ``⊤``, a closing ``|``) leaves a
complete term, after which Lean ends the command at a column-0 word; reading it so for an unlisted
infix operator refuses a sound file, never accepts an unsound one. ``,`` and ``;`` are not listed: a
tactic sequence may end with ``;`` and some argument lists allow a trailing ``,`` (inside brackets the
depth decides)."""

SPACED_SYMBOLS: Final = frozenset({"+", "-", "*"})
"""Binary operators that also end Mathlib tokens glued to a name (``ℕ+``, ``Type*``, ``Sort*``): they demand
a term only when not glued to the token before them."""

_OPENERS: Final = frozenset({"(", "[", "{", "⟨", "@[", "⦃", "⟦", "⟪"})
_CLOSERS: Final = frozenset({")", "]", "}", "⟩", "⦄", "⟧", "⟫", "]'"})
"""``]'`` is core's token for ``l[i]'h`` (it closes the ``[``)."""

TYPE_DECLARATIONS: Final = frozenset({"structure", "class", "inductive", "coinductive"})
"""Declarations whose ``:=`` (or ``where``) may be followed by no field or constructor at all
(src/Lean/Parser/Command.lean: ``structFields := manyIndent ...``, ``many ctor``)."""


class Depth:
    """The bracket depth inside one command at a growing index, read once per token (linear overall).
    A closer at depth 0 is ignored: it can only lower what is counted, never make a bracket look open."""

    def __init__(self, tokens: Sequence[Token], start: int) -> None:
        self.tokens = tokens
        self.start = start
        self.pos = start
        self.depth = 0
        self.assigned = False
        """Whether a ``:=`` stood outside brackets: the declaration's value has begun."""

    def at(self, end: int) -> int:
        tokens = self.tokens
        while self.pos < end:
            token = tokens[self.pos]
            self.pos += 1
            if token.kind != SYMBOL:
                continue
            if token.text in _OPENERS:
                self.depth += 1
            elif token.text in _CLOSERS and self.depth:
                self.depth -= 1
            elif token.text == ":=" and not self.depth:
                self.assigned = True
        return self.depth


def continues(tokens: Sequence[Token], i: int, keyword: str, depth: Depth) -> bool:
    """Whether the column-0 word ``tokens[i]`` may be read by Lean as more of the command whose keyword is
    ``keyword`` (its tokens so far end at ``i - 1``), rather than as the start of the next command."""
    word = tokens[i]
    if word.kind != IDENT or word.text in TRAILING_WORDS:
        return True  # only a word can begin a library command (symbols: ``#...``, ``@[``, read elsewhere)
    before = tokens[i - 1]
    if before.kind == DOC:  # a doc comment inside a command precedes a field or constructor
        return True
    if before.kind == IDENT and (before.text in DEMANDING_WORDS or _where_demands(before, keyword, depth, i)):
        return True
    if before.kind == SYMBOL and _demands(before, tokens[i - 2] if i > 1 else None, keyword):
        return True
    return depth.at(i) > 0


def _where_demands(word: Token, keyword: str, depth: Depth, i: int) -> bool:
    """A ``where`` after the declaration's value (``:= v where ...``) is Lean's ``whereDecls``, which needs at
    least one declaration (``sepBy1Indent``, src/Lean/Parser/Term.lean); the ``where`` of a structure, an
    inductive type or a structure instance (``whereStructInst``) may have none, so Lean may end there."""
    if word.text != "where" or keyword in TYPE_DECLARATIONS:
        return False
    depth.at(i)
    return depth.assigned


def _demands(symbol: Token, previous: Token | None, keyword: str) -> bool:
    """Whether a term must follow this symbol (see :data:`DEMANDING_SYMBOLS`)."""
    text = symbol.text
    if text in _OPENERS:
        return True
    if text == ":=":
        return keyword not in TYPE_DECLARATIONS
    if text in SPACED_SYMBOLS:
        return symbol.spaced or previous is None or previous.end != symbol.offset
    return text in DEMANDING_SYMBOLS


BINDING_WORDS: Final = frozenset(
    {"∑", "∏", "∑'", "∏'", "⨍", "∫", "∮", "⋃", "⋂", "⨆", "⨅", "∀", "∃", "for", "conv", "open", "set_option"}
)  # fmt: skip
"""What an ``in`` inside a command may belong to: a big operator's binders (``∑ x in s``, Mathlib's older
spelling of ``∑ x ∈ s``; ``⨍ t in s``, ``∫ x in a..b``), ``for x in xs``, Mathlib's ``conv in pattern``,
and ``open ... in`` / ``set_option ... in`` (whose form :func:`_commands.body_keywords` judges)."""
_IN_STOPS: Final = frozenset({",", ":=", "=>", "↦", ";", "<;>", "|", "·"})
IN_RULE: Final = (
    "Lean may read this `in` as its command combinator (`cmd in cmd`), which runs whatever command follows; "
    "bind with `∈`, or use `open ... in` / `set_option ... in` only"
)
_IN_WALK: Final = 64
"""How far back an ``in`` looks for what binds it: a binder group is a few tokens (more is refused)."""


def command_ins(tokens: Sequence[Token], head: int) -> list[Token]:
    """Every ``in`` after the keyword at ``head`` that Lean may read as its command combinator ``cmd₁ in
    cmd₂`` (src/Lean/Parser/Command.lean ``«in»``; elaborated as ``section cmd₁ cmd₂ end``), which runs
    whatever command follows, a library's included, wherever it stands (checked on Lean 4.35:
    ``theorem zz : True := True.intro in deprecated_module`` runs the last): an ``in`` that nothing before
    it binds (:data:`BINDING_WORDS`), looking back within its own brackets up to a separator. One that
    ends the command is left to G2's rule for a trailing ``... in`` (``omit h in`` before a ``lemma``).
    Measured on the same 2777 texts as the column-0 reading: no ``in`` of theirs is unbound so."""
    texts = [t.text for t in tokens]
    found: list[Token] = []
    i = head
    while True:
        try:
            i = texts.index("in", i + 1)
        except ValueError:
            return found
        if tokens[i].kind == IDENT and i + 1 < len(tokens) and not _bound(tokens, i, head):
            found.append(tokens[i])


def _bound(tokens: Sequence[Token], i: int, head: int) -> bool:
    depth = 0
    for j in range(i - 1, max(head, i - 1 - _IN_WALK), -1):
        token = tokens[j]
        if token.kind == SYMBOL and token.text in _CLOSERS:
            depth += 1
        elif token.kind == SYMBOL and token.text in _OPENERS:
            if not depth:
                return False
            depth -= 1
        elif depth:
            continue
        elif token.text in BINDING_WORDS or _glued_opener(tokens, j):
            return True
        elif token.text in _IN_STOPS:
            return False
    return False


def _glued_opener(tokens: Sequence[Token], j: int) -> bool:
    """A name glued to the symbol before it whose first part ends in ``open`` or ``set_option``: Lean may
    read a library token then the word (``→ropen Nat in``: Mathlib's ``→r``, then ``open``; see
    :func:`_commands.glued_tails`), so the ``in`` may be that ``open``'s."""
    token = tokens[j]
    if token.spaced or not j or tokens[j - 1].kind != SYMBOL or tokens[j - 1].end != token.offset:
        return False
    return token.text.lstrip("`").split(".")[0].endswith(("open", "set_option"))
