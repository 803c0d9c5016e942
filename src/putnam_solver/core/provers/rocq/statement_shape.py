"""A benchmark's Coq statement read as sentences (``syntax.py``): its header, the theorem, its placeholder
proof, the solution definition, its assumptions and definitions, and the words G2 names helpers apart from.
"""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.core.benchmarks import UNKNOWN_FORMAT, StatementFormat
from putnam_solver.core.provers.protocol import StatementError
from putnam_solver.core.provers.rocq.syntax import (
    ASSUMPTION_COMMANDS,
    GLOBAL_ASSUMPTIONS,
    OPENING,
    THEOREM_COMMANDS,
    Kind,
    LexError,
    Sentence,
    sentences,
    skip_group,
)


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
        elif (command in ASSUMPTION_COMMANDS or command in GLOBAL_ASSUMPTIONS) and depth == 0:
            found.extend((i, name) for name in binder_names(sent))
    return found


def statement_words(statement: Statement) -> set[str]:
    """Every word of the statement, whole and by its last segment (what G2 names helpers apart from)."""
    words: set[str] = set()
    for sent in statement.sentences:
        for tok in sent.tokens:
            if tok.kind is Kind.WORD:
                words.update((tok.text, tok.last_segment))
    return words
