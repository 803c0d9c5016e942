"""Rocq (Coq) source syntax: a lexer, a sentence splitter and the shape of a benchmark statement.

The gates compare and scan candidate files token by token, so they need to know what is a comment, a
string and a sentence the way Coq does, not the way a regular expression guesses. Coq's rules that matter:

* comments ``(* ... *)`` nest, and a ``"`` inside a comment opens a string (so ``"*)"`` in a comment
  does not close it);
* strings are ``"..."`` with ``""`` standing for one quote;
* a sentence ends at a ``.`` followed by whitespace or the end of the file; any other ``.`` belongs to a
  qualified name (``Coq.Logic.Classical``) or a notation (``n.+1``, ``p.[x]``).

Tokens keep whether they were written directly after the previous token (``glued``), because Coq lexes
``[::`` or ``'C(`` differently from ``[ ::`` or ``' C(``: two texts count as the same only if their tokens
and their gluing agree. Whitespace amounts and comments never matter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from putnam_solver.core.benchmarks import UNKNOWN_FORMAT, StatementFormat
from putnam_solver.core.provers import StatementError as StatementError  # the shared one, re-exported
from putnam_solver.core.provers.text import group_end

ATTRIBUTE_PREFIXES = frozenset(
    {"Local", "Global", "Polymorphic", "Monomorphic", "Cumulative", "NonCumulative", "Private", "Program"}
)
"""Words that may precede a command without being the command (``Local Open Scope`` is ``Open``)."""

THEOREM_COMMANDS = frozenset({"Theorem", "Lemma", "Fact", "Remark", "Corollary", "Proposition", "Example"})
ASSUMPTION_COMMANDS = frozenset({"Variable", "Variables", "Hypothesis", "Hypotheses", "Context"})
PROOF_ENDS = frozenset({"Qed", "Defined", "Admitted", "Abort", "Save"})
OPENING = {"(": ")", "[": "]", "{": "}"}
_CLOSING = frozenset(OPENING.values())
BRACKETS = frozenset("()[]{}")


class Kind(StrEnum):
    """What a token is. Comments are not tokens; they only separate them."""

    WORD = "word"
    """An identifier, a qualified name or a number."""
    SYMBOL = "symbol"
    """A run of punctuation (``:=``, ``->``, ``%:R``); brackets are always one character each."""
    STRING = "string"
    END = "end"
    """The period that ends a sentence."""


@dataclass(frozen=True)
class Token:
    kind: Kind
    text: str
    start: int
    line: int
    column: int
    glued: bool
    """Written directly after the previous token, with no whitespace or comment in between."""

    @property
    def last_segment(self) -> str:
        """``Coq.Logic.Classical_Prop.classic`` -> ``classic``; other tokens are themselves."""
        return self.text.rsplit(".", 1)[-1] if self.kind is Kind.WORD else self.text


@dataclass(frozen=True)
class Sentence:
    """The tokens of one sentence, its final period included (absent only for a truncated last sentence)."""

    tokens: tuple[Token, ...]

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
        i = 0
        while i < len(self.tokens):
            tok = self.tokens[i]
            if tok.text == "#" and i + 1 < len(self.tokens) and self.tokens[i + 1].text == "[":
                i = skip_group(self.tokens, i + 1)
            elif tok.text in ATTRIBUTE_PREFIXES:
                i += 1
            else:
                return i
        return i

    @property
    def command(self) -> str:
        """The command word: ``Definition``, ``Require``, ``From``, ``Proof``... (empty if none)."""
        i = self.command_index()
        return self.tokens[i].text if i < len(self.tokens) else ""

    @property
    def declared_name(self) -> str | None:
        """The name a declaration sentence introduces (the word after the command), if any."""
        i = self.command_index() + 1
        if i < len(self.tokens) and self.tokens[i].kind is Kind.WORD:
            return self.tokens[i].text
        return None


class LexError(ValueError):
    """The text cannot be split into Coq tokens (an unterminated comment or string)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(f"line {line}: {message}")
        self.reason = message
        self.line = line


def skip_group(tokens: tuple[Token, ...], i: int) -> int:
    """Index just past the bracket group opened at ``tokens[i]`` (or the end if it never closes)."""
    end = group_end(tokens, i, OPENING, _CLOSING)
    return len(tokens) if end is None else end + 1


def _is_ident_start(ch: str) -> bool:
    return ch == "_" or ch.isalpha()


def _is_ident_char(ch: str) -> bool:
    return ch == "_" or ch == "'" or ch.isalnum()


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.tokens: list[Token] = []
        self.glued = False

    def _advance_to(self, end: int) -> None:
        newlines = self.text.count("\n", self.pos, end)
        if newlines:
            self.line += newlines
            self.line_start = self.text.rindex("\n", self.pos, end) + 1
        self.pos = end

    def _emit(self, kind: Kind, end: int) -> None:
        start = self.pos
        self.tokens.append(Token(kind, self.text[start:end], start, self.line, start - self.line_start + 1, self.glued))
        self._advance_to(end)
        self.glued = True

    def _string_end(self, start: int) -> int:
        """Index just past the string opened at ``start``; ``""`` inside is an escaped quote."""
        i = start + 1
        while True:
            j = self.text.find('"', i)
            if j < 0:
                raise LexError("unterminated string", self.text.count("\n", 0, start) + 1)
            if self.text.startswith('""', j):
                i = j + 2
                continue
            return j + 1

    def _comment_end(self, start: int) -> int:
        depth, i = 0, start
        while i < len(self.text):
            if self.text.startswith("(*", i):
                depth, i = depth + 1, i + 2
            elif self.text.startswith("*)", i):
                depth, i = depth - 1, i + 2
                if depth == 0:
                    return i
            elif self.text[i] == '"':
                i = self._string_end(i)
            else:
                i += 1
        raise LexError("unterminated comment", self.text.count("\n", 0, start) + 1)

    def _word_end(self, i: int) -> int:
        text = self.text
        if text[i].isdigit():
            while i < len(text) and (text[i].isdigit() or text[i] == "_"):
                i += 1
            if i + 1 < len(text) and text[i] == "." and text[i + 1].isdigit():
                return self._word_end(i + 1)
            return i
        while True:
            while i < len(text) and _is_ident_char(text[i]):
                i += 1
            if i + 1 < len(text) and text[i] == "." and _is_ident_start(text[i + 1]):
                i += 1
                continue
            return i

    def _symbol_end(self, i: int) -> int:
        text = self.text
        if text[i] in BRACKETS:
            return i + 1
        start = i
        while i < len(text):
            ch = text[i]
            stop = ch.isspace() or ch in BRACKETS or ch == '"' or text.startswith("(*", i)
            if stop or (_is_ident_char(ch) and i > start):
                break
            if ch == "." and (i + 1 == len(text) or text[i + 1].isspace()):
                break
            i += 1
        return max(i, start + 1)

    def run(self) -> list[Token]:
        text = self.text
        while self.pos < len(text):
            ch = text[self.pos]
            if ch.isspace():
                self._advance_to(self.pos + 1)
                self.glued = False
            elif text.startswith("(*", self.pos):
                self._advance_to(self._comment_end(self.pos))
                self.glued = False
            elif ch == '"':
                self._emit(Kind.STRING, self._string_end(self.pos))
            elif ch == "." and (self.pos + 1 == len(text) or text[self.pos + 1].isspace()):
                self._emit(Kind.END, self.pos + 1)
            elif _is_ident_start(ch) or ch.isdigit():
                self._emit(Kind.WORD, self._word_end(self.pos))
            else:
                self._emit(Kind.SYMBOL, self._symbol_end(self.pos))
        return self.tokens


_PUNCTUATION: Final = frozenset(
    {":", ":=", ",", ")", "]", "}", ";", "->", "<-", "<->", "=", "<>", "<", ">", "<=", ">=", "+", "-", "*",
     "/", "^", "/\\", "\\/", "|"}
)  # fmt: skip
"""Symbols that, after an identifier, are their own tokens whether or not a space separates them."""
_QUOTATIONS: Final = frozenset({"ltac", "ltac2", "constr", "uconstr", "open_constr", "ident", "pattern"})
"""Identifiers that begin core keywords running into symbols (``ltac:(``, ``constr:(``...)."""


def gluing_matters(before: Token, token: Token) -> bool:
    """Whether ``before`` written directly against ``token`` can lex differently from the two spaced apart.

    Coq's lexer (coq/coq parsing/cLexer.ml, ``next_token``) reads an identifier with ``ident_tail`` up to
    the first character that cannot continue one, then ``find_keyword`` extends it only into a keyword
    that begins with that very identifier (the quotations ``ltac:(``, ``constr:(``...); the symbols that
    follow are then lexed on their own. So after an identifier that begins no such keyword, whether
    ``:``, ``,``, ``)`` or an infix operator is glued to it or not changes nothing: ``Theorem name:`` is
    ``Theorem name :``. Everywhere else (symbol then word, as in ``'C(``, ``.+1``, ``[::``; numbers) the
    gluing is compared, since a library token could span it."""
    identifier = before.kind is Kind.WORD and _is_ident_start(before.text[0]) and before.text not in _QUOTATIONS
    return not (identifier and token.kind is Kind.SYMBOL and token.text in _PUNCTUATION)


def tokenize(text: str) -> list[Token]:
    """All tokens of ``text`` (comments dropped). Raises LexError on an unterminated comment or string."""
    return _Lexer(text).run()


def split_sentences(tokens: list[Token]) -> list[Sentence]:
    """Group tokens into sentences as Coq reads them: each ends at a sentence-ending period, except that
    the proof structuring commands end without one (a ``{``, ``}`` or bullet that begins a sentence, and
    the ``{`` of a goal selector ``2: {`` or ``[h]: {``), so ``{ apply h. }`` then ``Qed.`` is four
    sentences, not two. A trailing unended part is kept."""
    out: list[Sentence] = []
    current: list[Token] = []
    for i, tok in enumerate(tokens):
        current.append(tok)
        followed_by_period = i + 1 < len(tokens) and tokens[i + 1].kind is Kind.END
        if tok.kind is Kind.END or (_ends_without_period(current) and not followed_by_period):
            out.append(Sentence(tuple(current)))
            current = []
    if current:
        out.append(Sentence(tuple(current)))
    return out


def _ends_without_period(current: list[Token]) -> bool:
    """Whether ``current`` is a whole proof structuring command (Coq's bullets, braces, goal selectors)."""
    last = current[-1]
    if last.kind is not Kind.SYMBOL:
        return False
    if len(current) == 1:
        return last.text in ("{", "}") or _is_bullet(last.text)
    words = [t.text for t in current]
    selector = words[:-2] if words[-2:] == [":", "{"] else None
    return selector is not None and (
        (len(selector) == 1 and selector[0].isdigit()) or (len(selector) == 3 and selector[::2] == ["[", "]"])
    )


def _is_bullet(text: str) -> bool:
    return text[0] in "-+*" and text == text[0] * len(text)


def sentences(text: str) -> list[Sentence]:
    return split_sentences(tokenize(text))


@dataclass(frozen=True)
class Statement:
    """A benchmark's Coq statement: header sentences, the theorem, its placeholder proof, a trailer.

    ``sentences[theorem]`` states the theorem, ``sentences[theorem + 1 : proof_end + 1]`` is its
    placeholder proof (``Proof. Admitted.``, or ``Proof.`` alone where the benchmark leaves proofs open),
    and everything after ``proof_end`` (e.g. ``End Section.``) is the trailer.
    """

    text: str
    sentences: tuple[Sentence, ...]
    theorem: int
    proof_end: int
    theorem_name: str
    solution: int | None
    assumptions: tuple[tuple[int, str], ...]
    """Top-level ``Variable``-style declarations outside any section: (sentence index, name), in order."""
    definitions: tuple[str, ...] = ()
    """Constants the statement itself defines at top level before the theorem (``Definition``,
    ``Fixpoint``), the solution excepted: the trusted statement check unfolds them first (``Strategy``)."""
    admitted_context: tuple[str, ...] = ()
    """Other theorems the statement itself leaves admitted (miniF2F's ``imo_1966_p5'``): part of the
    statement, not to be proved; the gates check that the theorem does not depend on them."""

    @property
    def open_proof(self) -> bool:
        """The statement leaves its proof open (``Proof.`` ends the file; no ``Admitted.``)."""
        return self.proof_end == self.theorem + 1

    @property
    def header(self) -> tuple[Sentence, ...]:
        return self.sentences[: self.theorem]

    @property
    def trailer(self) -> tuple[Sentence, ...]:
        return self.sentences[self.proof_end + 1 :]

    @property
    def solution_name(self) -> str | None:
        return None if self.solution is None else self.sentences[self.solution].declared_name


def solution_body_start(sentence: Sentence) -> int:
    """Index of the first body token of a ``Definition ... := body.`` (after the top-level ``:=``)."""
    depth = 0
    for i, tok in enumerate(sentence.tokens):
        if tok.text in OPENING:
            depth += 1
        elif tok.text in OPENING.values():
            depth -= 1
        elif tok.text == ":=" and depth == 0:
            return i + 1
    raise StatementError(f"line {sentence.line}: the solution definition has no `:=` body")


def binder_names(sentence: Sentence) -> list[str]:
    """Names declared by ``Variable x y : T.`` or ``Variables (x : T) {y : U}.`` (unnamed binders skipped)."""
    toks = sentence.tokens[sentence.command_index() + 1 : -1]
    names: list[str] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.text in OPENING or tok.text == "`":
            start = i + 1 if tok.text in OPENING else i + 2
            end = skip_group(toks, start - 1)
            inner = toks[start : end - 1]
            colon = next((k for k, t in enumerate(inner) if t.text.startswith(":")), None)
            if colon is not None or tok.text != "`":  # `{C} generalizes an unnamed instance
                names.extend(t.text for t in inner[:colon] if t.kind is Kind.WORD)
            i = end
        elif tok.text == ":":
            break
        else:
            if tok.kind is Kind.WORD:
                names.append(tok.text)
            i += 1
    return names


def parse_statement(text: str, problem_id: str, fmt: StatementFormat = UNKNOWN_FORMAT) -> Statement:
    """Find the theorem, its placeholder proof, the ``<id>_solution`` definition and the assumptions.

    The theorem is the sentence followed by ``Proof.`` and ``Admitted.`` (in PutnamBench it is named
    after the problem, except ``putnam_1970_b5`` whose theorem is ``putnam_1970_b5_solution``), or, where
    the benchmark leaves proofs open (``fmt.open_proof``), by a ``Proof.`` that ends the file. Where
    several theorems are admitted, the one named after the problem is the theorem to prove and the others
    stay admitted, as part of the statement (``Statement.admitted_context``). The solution definition is
    looked for only in benchmarks with answer holes (``fmt.answers``).
    """
    try:
        sents = tuple(sentences(text))
    except LexError as exc:
        raise StatementError(f"{problem_id}: {exc}") from exc
    proofs = [i for i in range(1, len(sents)) if _placeholder_proof(sents, i, fmt.open_proof)]
    if len(proofs) > 1:
        named = [i for i in proofs if sents[i - 1].declared_name == problem_id]
        proofs = named if len(named) == 1 else proofs
    if len(proofs) != 1:
        shape = "`Theorem ... Proof. Admitted.`" + (
            " or `Theorem ... Proof.` ending the file" if fmt.open_proof else ""
        )
        raise StatementError(f"{problem_id}: expected exactly one {shape}, found {len(proofs)}")
    theorem = proofs[0] - 1
    name = sents[theorem].declared_name
    if name is None:
        raise StatementError(f"{problem_id}: line {sents[theorem].line}: the theorem has no name")
    solution = next(
        (
            i
            for i in range(theorem)
            if fmt.answers and sents[i].command == "Definition" and sents[i].declared_name == f"{problem_id}_solution"
        ),
        None,
    )
    if solution is not None:
        solution_body_start(sents[solution])
    others = [i - 1 for i in range(1, len(sents)) if i != theorem + 1 and _placeholder_proof(sents, i, False)]
    return Statement(
        text=text,
        sentences=sents,
        theorem=theorem,
        proof_end=theorem + 2
        if theorem + 2 < len(sents) and sents[theorem + 2].words == ("Admitted", ".")
        else theorem + 1,
        theorem_name=name,
        solution=solution,
        assumptions=tuple(_assumptions(sents[:theorem])),
        definitions=tuple(n for i, n in _definitions(sents[:theorem]) if i != solution),
        admitted_context=tuple(n for i in others if (n := sents[i].declared_name) is not None),
    )


def _placeholder_proof(sents: tuple[Sentence, ...], i: int, open_proof: bool) -> bool:
    """Whether ``sents[i]`` is the ``Proof.`` of a theorem whose proof is a placeholder: ``Admitted.``
    next, or (``open_proof``) nothing after it."""
    if sents[i].words != ("Proof", ".") or sents[i - 1].command not in THEOREM_COMMANDS:
        return False
    if i + 1 < len(sents):
        return sents[i + 1].words == ("Admitted", ".")
    return open_proof


def _definitions(header: tuple[Sentence, ...]) -> list[tuple[int, str]]:
    """(index, name) of the ``Definition``s and ``Fixpoint``s outside any section."""
    depth = 0
    found: list[tuple[int, str]] = []
    for i, sent in enumerate(header):
        if sent.command == "Section":
            depth += 1
        elif sent.command == "End" and depth:
            depth -= 1
        elif sent.command in ("Definition", "Fixpoint") and depth == 0 and sent.declared_name is not None:
            found.append((i, sent.declared_name))
    return found


def _assumptions(header: tuple[Sentence, ...]) -> list[tuple[int, str]]:
    depth = 0
    found: list[tuple[int, str]] = []
    for i, sent in enumerate(header):
        command = sent.command
        if command == "Section":
            depth += 1
        elif command == "End" and depth:
            depth -= 1
        elif command in ASSUMPTION_COMMANDS and depth == 0:
            found.extend((i, name) for name in binder_names(sent))
    return found


def render(tokens: tuple[Token, ...] | list[Token]) -> str:
    """Tokens back to text: glued tokens touch, the others are separated by one space."""
    out: list[str] = []
    for i, tok in enumerate(tokens):
        if i and not tok.glued:
            out.append(" ")
        out.append(tok.text)
    return "".join(out)
