"""Rocq's lemma files: the helper lemmas a file leaves as holes, the statement file of one of them, what of
a proved lemma file goes back into the file, and how it goes back (text only: nothing runs here).

A lemma is found by its declaration, never by its layout: the sentence whose command is ``Lemma``,
``Theorem``... and whose declared name is the lemma's, with its proof up to the sentence that ends it
(``Qed``, ``Admitted``...). Its statement is that sentence's tokens after the command word; its
attributes (``#[local]``) and ``Local``-style prefixes belong to the sentence, and comments (``(** ... *)``
included) are not tokens: the ones before a lemma stay where they are.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.challenge import HOLE
from putnam_solver.core.provers.rocq.statement_shape import parse_statement
from putnam_solver.core.provers.rocq.syntax import (
    PROOF_ENDS,
    THEOREM_COMMANDS,
    Kind,
    LexError,
    Sentence,
    StatementError,
    sentences,
)
from putnam_solver.core.verify import Track
from putnam_solver.kits.interactive import Hole, LemmaError

HOLE_WORDS = frozenset({"Admitted", "admit"})


def _proof_blocks(sents: list[Sentence]) -> list[tuple[int, int]]:
    """(statement index, proof end index) of each theorem-like declaration with a ``Proof ... end``."""
    blocks: list[tuple[int, int]] = []
    i = 0
    while i < len(sents):
        if sents[i].command in THEOREM_COMMANDS:
            j = i + 1
            while j < len(sents) and sents[j].command not in PROOF_ENDS:
                j += 1
            if j < len(sents):
                blocks.append((i, j))
                i = j
        i += 1
    return blocks


def find_holes(challenge: str, candidate: str) -> list[Hole]:
    try:
        main = parse_statement(challenge, "challenge").theorem_name
        sents = sentences(candidate)
    except (LexError, StatementError):
        return []
    holes: list[Hole] = []
    for start, end in _proof_blocks(sents):
        name = sents[start].declared_name
        words = {t.text for s in sents[start + 1 : end + 1] for t in s.tokens if t.kind is Kind.WORD}
        if name is not None and name != main and words & HOLE_WORDS:
            holes.append(Hole(name, sents[start].line))
    return holes


def lemma_statement(challenge: str, candidate: str, name: str, track: Track) -> str:
    """The challenge's sentences before its theorem (without the no-answer solution hole), then the lemma
    ``name`` of ``candidate`` with ``Proof. Admitted.``."""
    try:
        statement = parse_statement(challenge, "challenge")
        sents = sentences(candidate)
    except (LexError, StatementError) as exc:
        raise LemmaError(f"the file cannot be read: {exc}") from exc
    if name == statement.theorem_name:
        raise LemmaError(f"{name} is the theorem itself; prove_lemma takes a helper lemma")
    found = [s for s in sents if s.command in THEOREM_COMMANDS and s.declared_name == name]
    if not found:
        raise LemmaError(f"no lemma named {name} in the file you checked last")
    header = [challenge[s.start : s.end] for s in statement.header if not answer_hole(s, track)]
    lemma = candidate[found[0].start : found[0].end]
    return "\n".join([*header, lemma, "Proof.", "Admitted.", ""])


def answer_hole(sentence: Sentence, track: Track) -> bool:
    """A no-answer challenge's solution definition, whose body is the hole the candidate fills."""
    return track is Track.NO_ANSWER and sentence.command == "Definition" and sentence.words[-3:] == (":=", HOLE, ".")


def lemma_text(statement: str, proved: str) -> str:
    """What of a proved lemma file goes into the main file: everything after the statement's header."""
    try:
        header = parse_statement(statement, "lemma").header
        sents = sentences(proved)
    except (LexError, StatementError):
        return proved
    keys = [s.key for s in header]
    if [s.key for s in sents[: len(keys)]] != keys or len(sents) <= len(keys):
        return proved
    return proved[sents[len(keys)].start :].strip() + "\n"


def paste_lemma(file: str, name: str, proved: str) -> str | None:
    """``file`` with the proof of its lemma ``name``, left as a hole, taken from ``proved`` (a proved lemma's
    text, ``lemma_text``), or None. The lemma is found in both by its declaration: ``file`` must declare
    ``name`` exactly once, as a lemma whose proof has a hole, and ``proved`` must declare ``name`` with the
    same statement (the sentence's tokens after its command word). ``file``'s statement sentence stays as
    written (attributes, the comments before it); only its proof is replaced, and the sentences
    ``proved`` has before the lemma (its own helpers) go before the lemma."""
    hole, given = _declared(file, name), _declared(proved, name)
    if hole is None or given is None or _statement(hole[0]) != _statement(given[0]):
        return None
    (statement, *proof), (lemma, *proved_proof) = hole, given
    if not HOLE_WORDS & {word for sentence in proof for word in sentence.words}:
        return None
    helpers = proved[: lemma.start].strip()
    text = file[statement.start : statement.end] + proved[lemma.end : proved_proof[-1].end]
    return file[: statement.start] + (f"{helpers}\n" if helpers else "") + text + file[proof[-1].end :]


def _declared(text: str, name: str) -> list[Sentence] | None:
    """The statement sentence of the one lemma of ``text`` named ``name`` (declared once) and the sentences
    of its proof, up to the one that ends it; None if there is no such single lemma with a proof."""
    try:
        sents = sentences(text)
    except LexError:
        return None
    named = [i for i, s in enumerate(sents) if s.declared_name == name]
    blocks = dict(_proof_blocks(sents))
    if len(named) != 1 or named[0] not in blocks:
        return None
    return sents[named[0] : blocks[named[0]] + 1]


def _statement(sentence: Sentence) -> tuple[tuple[str, bool], ...]:
    """What makes two lemma statements the same: the sentence's key after its command word."""
    return sentence.key[sentence.command_at + 1 :]
