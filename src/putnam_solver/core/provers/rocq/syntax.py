"""Rocq (Coq) source syntax: sentences, over the lexer (``_lexer``); a statement's shape is ``statement_shape``.

The gates compare and scan candidate files sentence by sentence, so they need to know what is a sentence
the way Coq does: it ends at a ``.`` followed by whitespace or the end of the file, or it is a proof
structuring command (a bullet, a brace, a goal selector), which needs no period. Splitting is linear: a
sentence is decided from its last tokens, and its command is found once.
"""

from __future__ import annotations

from itertools import chain, count, islice
from operator import itemgetter
from typing import Final, NamedTuple

from putnam_solver.core.candidate_cache import candidate_cache
from putnam_solver.core.provers.protocol import StatementError as StatementError  # the shared one, re-exported
from putnam_solver.core.provers.rocq._lexer import BRACKETS as BRACKETS
from putnam_solver.core.provers.rocq._lexer import Kind as Kind
from putnam_solver.core.provers.rocq._lexer import LexError as LexError
from putnam_solver.core.provers.rocq._lexer import Token as Token
from putnam_solver.core.provers.rocq._lexer import _Lexer as _Lexer
from putnam_solver.core.provers.rocq._lexer import gluing_matters as gluing_matters
from putnam_solver.core.provers.rocq._lexer import tokenize as tokenize
from putnam_solver.core.provers.text import group_end

ATTRIBUTE_PREFIXES = frozenset(
    {"Local", "Global", "Polymorphic", "Monomorphic", "Cumulative", "NonCumulative", "Private", "Program"}
)
"""Words that may precede a command without being the command (``Local Open Scope`` is ``Open``)."""
CONTROL_PREFIXES = {"Time": 1, "Fail": 1, "Succeed": 1, "Timeout": 2, "Redirect": 2}
"""Coq's control commands (``vernac_control``) and how many tokens each takes before the command it runs:
``Time Inductive t := c.`` declares ``t`` as ``Inductive t := c.`` does, and ``Time Qed.`` ends a proof, so
the command is the one after them (``Timeout 5`` and ``Redirect "file"`` take an argument)."""
ROLLED_BACK = frozenset({"Fail", "Succeed"})
"""Control prefixes whose command Coq rolls back: ``Fail Lemma x ...`` declares nothing."""
EXPORTED_OPTIONS = frozenset({"Set", "Unset"})
"""What ``Export`` may prefix as a locality (``Export Set Printing Width 30.`` is ``Set``), not a module."""

THEOREM_COMMANDS = frozenset({"Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Property", "Example"})
"""Coq's theorem keywords (``Property`` too: unknown to G2, it passed as a tactic inside proofs), and
``Example`` (a ``Definition`` to Coq: ``sentence_rules.opens_proof``)."""
ASSUMPTION_COMMANDS = frozenset({"Variable", "Variables", "Hypothesis", "Hypotheses", "Context"})
GLOBAL_ASSUMPTIONS = {
    "Parameter": "Variable",
    "Parameters": "Variables",
    "Axiom": "Variable",
    "Axioms": "Variables",
    "Conjecture": "Variable",
    "Conjectures": "Variables",
}
"""A statement's own top-level axioms (miniF2F's ``amc12a_2016_p3``: ``Parameter Rfloor : R -> Z.`` and
``Axiom Rfloor_spec``), with the section command that abstracts each in the reference. They are assumptions
like ``Variable``s: the candidate repeats them, so its theorem speaks of its own ``Candidate.Rfloor``, which
no conversion makes equal to another module's axiom; only abstracting them (``Axiom`` in a section stays
global) and plugging in the candidate's lets a sound proof be checked against the pinned statement."""
PROOF_ENDS = frozenset({"Qed", "Defined", "Admitted", "Abort", "Save"})
OPENING = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(OPENING.values())


class Sentence(NamedTuple):
    """The tokens of one sentence, its final period included (absent only for a truncated last sentence),
    and its command, found once (:func:`sentence` makes one): the gates ask for it many times."""

    tokens: tuple[Token, ...]
    command_at: int
    """Index of the command word, after ``#[...]`` attributes and ``Local``-style prefixes."""
    command: str
    """The command word: ``Definition``, ``Require``, ``From``, ``Proof``... (empty if none)."""

    @property
    def line(self) -> int:
        return self.tokens[0].line

    @property
    def start(self) -> int:
        return self.tokens[0].start

    @property
    def end(self) -> int:
        last = self.tokens[-1]
        return last.start + len(last.text)

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(t.text for t in self.tokens)

    @property
    def key(self) -> tuple[tuple[str, bool], ...]:
        """What makes two sentences the same: token texts and gluing where Coq's lexer reads it (the first
        token's gluing aside, and see :func:`gluing_matters`)."""
        tokens = self.tokens
        return tuple((t.text, i > 0 and t.glued and gluing_matters(tokens[i - 1], t)) for i, t in enumerate(tokens))

    @property
    def ended(self) -> bool:
        """Complete: closed by its period, or a structuring command, which needs none."""
        return self.tokens[-1].kind is Kind.END or _ends_without_period(list(self.tokens))

    def command_index(self) -> int:
        """Index of the command word, after ``#[...]`` attributes and ``Local``-style prefixes."""
        return self.command_at

    @property
    def declared_name(self) -> str | None:
        """The name a declaration sentence introduces (the word after the command), if any."""
        i = self.command_index() + 1
        if i < len(self.tokens) and self.tokens[i].kind is Kind.WORD:
            return self.tokens[i].text
        return None


_new_sentence = tuple.__new__
"""Builds a :class:`Sentence` without the Python-level ``__new__`` of a NamedTuple (one per sentence)."""


def sentence(tokens: tuple[Token, ...]) -> Sentence:
    """The sentence of ``tokens``, its command found."""
    at = _command_index(tokens)
    return _new_sentence(Sentence, (tokens, at, tokens[at].text if at < len(tokens) else ""))


def _command_index(tokens: tuple[Token, ...]) -> int:
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.text == "#" and i + 1 < len(tokens) and tokens[i + 1].text == "[":
            i = skip_group(tokens, i + 1)
        elif tok.text in ATTRIBUTE_PREFIXES:
            i += 1
        elif tok.text in CONTROL_PREFIXES and tok.kind is Kind.WORD:
            i += CONTROL_PREFIXES[tok.text]
        elif tok.text == "Export" and i + 1 < len(tokens) and tokens[i + 1].text in EXPORTED_OPTIONS:
            i += 1
        else:
            return i
    return i


def skip_group(tokens: tuple[Token, ...], i: int) -> int:
    """Index just past the bracket group opened at ``tokens[i]`` (or the end if it never closes)."""
    end = group_end(tokens, i, OPENING, _CLOSING)
    return len(tokens) if end is None else end + 1


def split_sentences(tokens: list[Token]) -> list[Sentence]:
    """Group tokens into sentences as Coq reads them: each ends at a sentence-ending period, except that
    the proof structuring commands end without one (a ``{``, ``}`` or bullet that begins a sentence, and
    the ``{`` of a goal selector ``2: {`` or ``[h]: {``), so ``{ apply h. }`` then ``Qed.`` is four
    sentences, not two. A trailing unended part is kept.

    A bullet glued to the symbols after it is still a bullet: at a sentence's start Coq's lexer reads the
    run of one of ``-``, ``+``, ``*`` as a bullet whatever follows (``cLexer.ml``, ``process_sequence``
    while ``between_commands``), so ``-#[local] Open Scope nat_scope.`` is a bullet and then the command
    ``Open``, not one tactic sentence ``-#...`` (measured with coqc 8.16: the scope outlives the proof)."""
    out = _split(tokens)
    if not any(_glued_bullet(s.tokens[0]) for s in out):
        return out
    return _split(_ungluing(out))


def _glued_bullet(tok: Token) -> bool:
    """A symbol token beginning a sentence that starts with bullet characters but is no bullet itself."""
    return tok.kind is Kind.SYMBOL and tok.text[0] in _BULLET_CHARS and not _is_bullet(tok.text)


_BULLET_CHARS: Final = "-+*"


def _ungluing(out: list[Sentence]) -> list[Token]:
    """The tokens of ``out`` with each glued bullet at a sentence's start cut into its bullets (each run of
    one bullet character) and the rest, as Coq's lexer reads them there."""
    tokens: list[Token] = []
    for sent in out:
        first = sent.tokens[0]
        tokens.extend(_unglue_bullets(first) if _glued_bullet(first) else (first,))
        tokens.extend(sent.tokens[1:])
    return tokens


def _unglue_bullets(tok: Token) -> list[Token]:
    pieces: list[Token] = []
    text, at, glued = tok.text, 0, tok.glued
    while at < len(text) and text[at] in _BULLET_CHARS:
        end = at
        while end < len(text) and text[end] == text[at]:
            end += 1
        pieces.append(Token(Kind.SYMBOL, text[at:end], tok.start + at, tok.line, glued))
        at, glued = end, True
    if at < len(text):
        pieces.append(Token(Kind.SYMBOL, text[at:], tok.start + at, tok.line, True))
    return pieces


def _split(tokens: list[Token]) -> list[Sentence]:
    """:func:`split_sentences` with every symbol token taken whole."""
    out: list[Sentence] = []
    start, end_kind, symbol, new, append = 0, Kind.END, Kind.SYMBOL, _new_sentence, out.append
    kinds = list(map(_KIND, tokens))  # one C loop, instead of a field read per token in this one
    for i, kind, tok, following in zip(count(), kinds, tokens, chain(islice(kinds, 1, None), (None,))):
        if kind is end_kind:
            append(sentence(tuple(tokens[start : i + 1])))
            start = i + 1
        elif kind is symbol and i - start in (0, 2, 4):  # the only lengths a structuring command has (less one)
            if following is end_kind:
                continue
            if i == start:  # a lone brace or bullet: its own command, made here without a slice (the hot case)
                text = tok.text
                if text in _LONE or _is_bullet(text):
                    append(new(Sentence, ((tok,), 0, text)))
                    start = i + 1
            elif _ends_without_period(tokens[start : i + 1]):
                append(sentence(tuple(tokens[start : i + 1])))
                start = i + 1
    if start < len(tokens):
        append(sentence(tuple(tokens[start:])))
    return out


_LONE: Final = frozenset({"{", "}"})
_KIND: Final = itemgetter(0)
"""``Token.kind`` as a function, for ``map``."""


def _ends_without_period(current: list[Token]) -> bool:
    """Whether ``current`` is a whole proof structuring command (Coq's bullets, braces, goal selectors).

    Only the last tokens are read (a selector has one or three before ``: {``), so asking this after
    every token of a long sentence stays linear in its length."""
    last = current[-1]
    if last.kind is not Kind.SYMBOL:
        return False
    if len(current) == 1:
        return last.text in ("{", "}") or _is_bullet(last.text)
    if len(current) not in (3, 5) or last.text != "{" or current[-2].text != ":":
        return False
    selector = [t.text for t in current[:-2]]
    # Any number: coqc 8.16 takes `1_: {` and `0x1: {` for `1: {` (measured), and one it refuses fails the
    # compile; read as a digit string only, `1_: { Global Opaque Rplus. exact I. }` hid the command in a
    # sentence begun by `1_` from G3 (red team 17)
    return (len(selector) == 1 and "0" <= selector[0][:1] <= "9") or (
        len(selector) == 3 and selector[::2] == ["[", "]"]
    )


def rolled_back(sentence: Sentence) -> bool:
    """Whether a control prefix rolls the sentence's command back (``Fail Qed.`` ends no proof, ``Succeed
    Lemma x : T.`` opens none: Coq is where it was before the sentence)."""
    return any(t.text in ROLLED_BACK for t in sentence.tokens[: sentence.command_at])


def _is_bullet(text: str) -> bool:
    return text[0] in "-+*" and text == text[0] * len(text)


def sentences(text: str) -> list[Sentence]:
    """The sentences of ``text``. Raises LexError on an unterminated comment or string."""
    return list(_sentences(text))


def _sentences(text: str) -> tuple[Sentence, ...]:
    """:func:`sentences`, once per text while it is in use: G2, G3 and the answer record of one
    verification read the same candidate, or its lexing error (raised afresh for each reader: without
    the cache each would lex an unlexable file again, up to its error)."""
    outcome = _sentences_or_error(text)
    if isinstance(outcome, LexError):
        raise LexError(outcome.reason, outcome.line)
    return outcome


@candidate_cache
def _sentences_or_error(text: str) -> tuple[Sentence, ...] | LexError:
    """:func:`_sentences`'s value or error, for its cache (which keeps no exceptions)."""
    try:
        return tuple(split_sentences(tokenize(text)))
    except LexError as exc:
        return exc.with_traceback(None)  # its frames would keep the half-made tokens alive


def names_ending(word: str, names: set[str], lengths: set[int]) -> list[str]:
    """The ``names`` that ``word`` is, or ends with after a ``.`` (``X.helper`` names ``helper``).

    Looked up per suffix of ``word`` that follows a ``.`` and has the length of some name, not per name,
    so an answer is checked in time linear in its length however many helpers the candidate defines."""
    cuts = [-1, *(k for k, ch in enumerate(word) if ch == ".")]
    return [word[k + 1 :] for k in cuts if len(word) - k - 1 in lengths and word[k + 1 :] in names]


def render(tokens: tuple[Token, ...] | list[Token]) -> str:
    """Tokens back to text: glued tokens touch, the others are separated by one space."""
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if i and not tok.glued:
            out.append(" ")
        out.append(tok.text)
    return "".join(out)
