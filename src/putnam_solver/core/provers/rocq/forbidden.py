"""The Rocq text gate G3: no forbidden construct (G2 is ``checks.py``).

Every sentence that is not verbatim a challenge sentence (the placeholder proof never counts as one)
is scanned for ``policy.forbidden_words`` and ``forbidden_phrases``, and read by its command and attributes
(``sentence_rules``: ``Ltac t ::= ...``, ``#[canonical]``); a qualified name is refused when any of its
segments is a forbidden word (``Constr.Unsafe.make``). On a Coq whose guard checker has known bugs
(kernel_bugs.json, by the detected coqc version) the ``policy.recursion_words`` are refused too, unless
``--allow-recursion``: through those bugs a candidate's fixpoint can prove ``False`` past coqc and coqchk.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import compress, count

from putnam_solver.core.gatekit import Violation, text_gate_result
from putnam_solver.core.provers.rocq.kernel_bugs import guard_note, kernel_bug_evidence, recursion_refused
from putnam_solver.core.provers.rocq.options import RocqOptions
from putnam_solver.core.provers.rocq.policy import POLICY, Rule
from putnam_solver.core.provers.rocq.rule_hits import FIRST, TEXT, TOKENS, rule_hits
from putnam_solver.core.provers.rocq.sections import section_assumptions
from putnam_solver.core.provers.rocq.sentence_rules import (
    SECTION_USING,
    mutual_theorem_hits,
    section_using_hits,
    sentence_rule_hits,
)
from putnam_solver.core.provers.rocq.statement_shape import Statement, parse_statement
from putnam_solver.core.provers.rocq.syntax import LexError, Sentence, sentences
from putnam_solver.core.provers.rocq.toolchain import COQC, detected_version, optional_tool
from putnam_solver.core.verify import PROFILE_GATES, GateResult, Submission

COMPILE_GATE = "G4"
"""The gate that compiles the candidate (and, for a section closed over a ``Proof using``, has coqchk
re-check it: ``discharge.py``)."""


def challenge_statement(sub: Submission) -> Statement:
    """The harness's challenge for this submission, parsed (it has the pinned statement's shape)."""
    return parse_statement(sub.challenge, sub.problem.id, sub.problem.format)


def check_forbidden(
    statement: Statement, candidate: str, refuse_recursion: bool = True, section_using: bool = True
) -> list[Violation]:
    """Forbidden constructs in the candidate's own sentences, each with its line and reason.

    ``refuse_recursion`` adds ``POLICY.recursion_words`` (the caller decides it from the toolchain);
    ``section_using`` the explicit ``Proof using`` in a section, which a profile that compiles leaves to
    coqchk instead (``discharge.py``).
    """
    try:
        sents = sentences(candidate)
    except LexError as exc:
        return [Violation(exc.line, "unreadable source", f"lexing: {exc.reason}")]
    own_at, theorem_at = own_positions(statement, sents)
    own = [sents[i] for i in own_at]
    discharged = section_assumptions(sents, theorem_at, frozenset(own_at))
    local = frozenset(k for k, i in enumerate(own_at) if i in discharged)
    hits = rule_hits(own, rules_of(refuse_recursion), POLICY.forbidden_phrases, local) + sentence_rule_hits(own)
    if refuse_recursion:
        hits += mutual_theorem_hits(own)
    using = section_using_hits(sents, frozenset(own_at))
    return hits + [v for v in using if section_using or v.construct != SECTION_USING]


def rules_of(refuse_recursion: bool) -> tuple[Rule, ...]:
    """The forbidden words, recursion's with them on a toolchain where it is refused."""
    return (*POLICY.forbidden_words, *(POLICY.recursion_words if refuse_recursion else ()))


def own_positions(statement: Statement, sents: list[Sentence]) -> tuple[list[int], int]:
    """The positions of the candidate's own sentences (those that are no sentence of the challenge's kept
    verbatim), and the theorem's (``len(sents)`` if it is missing)."""
    placeholder = set(range(statement.theorem + 1, statement.proof_end + 1))
    exempt = Counter(s.key for i, s in enumerate(statement.sentences) if i not in placeholder)
    shapes = {(len(key), key[0][0]) for key in exempt}  # what a sentence must look like to be exempt
    exempt_firsts = {first for _, first in shapes}
    firsts = map(TEXT, map(FIRST, map(TOKENS, sents)))
    theorem_key, theorem_at = statement.sentences[statement.theorem].key, len(sents)
    own_at: list[int] = []  # the candidate's own sentences, by position
    begin = 0
    for i in compress(count(), map(exempt_firsts.__contains__, firsts)):  # found by C loops over them all
        sent = sents[i]
        if (len(sent.tokens), sent.tokens[0].text) in shapes and exempt[sent.key] > 0:
            exempt[sent.key] -= 1
            own_at += range(begin, i)
            begin = i + 1
            theorem_at = i if sent.key == theorem_key and theorem_at == len(sents) else theorem_at
    own_at += range(begin, len(sents))
    return own_at, theorem_at


UNPINNED_STATEMENT_RULES = ("plugin", "kernel")
"""The rules a statement that is not a pinned benchmark record must itself obey (a client's record in
``putnam serve``, an unpinned benchmark file): its plugin and system commands would run at compile time
like a candidate's."""


def statement_violations(statement: Statement) -> list[Violation]:
    """The plugin and kernel rules (``UNPINNED_STATEMENT_RULES``) over every sentence of a statement."""
    words = [r for r in POLICY.forbidden_words if r.rule in UNPINNED_STATEMENT_RULES]
    phrases = [r for r in POLICY.forbidden_phrases if r.rule in UNPINNED_STATEMENT_RULES]
    found = rule_hits(statement.sentences, words, phrases)
    found += sentence_rule_hits(statement.sentences, frozenset(UNPINNED_STATEMENT_RULES))
    return [v._replace(rule=f"in the statement, which is not a pinned benchmark record: {v.rule}") for v in found]


def forbidden_gate(sub: Submission) -> GateResult:
    """G3: no forbidden construct outside the challenge's own sentences (recursion too, on a buggy Coq)."""
    version = detected_version(optional_tool(COQC, sub.options))
    allowed = sub.options.of(RocqOptions).allow_recursion
    refused = recursion_refused(allowed, version)
    statement = challenge_statement(sub)
    # a profile that compiles has coqchk re-check a section closed over a `Proof using` (G4, `discharge.py`);
    # the acceptance's profile decides, as for G2's rules, so `check` refuses what `submit` does
    compiles = COMPILE_GATE in PROFILE_GATES[sub.rules_profile]
    violations = check_forbidden(statement, sub.candidate, refused, section_using=not compiles)
    if not sub.benchmark.pinned:
        violations = [*statement_violations(statement), *violations]
    result = text_gate_result("G3", "forbidden", violations, "no forbidden construct")
    result.evidence.update(
        recursion="refused" if refused else "allowed",
        allow_recursion=allowed,
        **kernel_bug_evidence(version),
    )
    recursion = {f"`{r.construct}`" for r in POLICY.recursion_words}
    if refused and any(v.construct in recursion for v in violations):
        return replace(result, detail=f"{result.detail}\n{guard_note(version)}")
    return result
