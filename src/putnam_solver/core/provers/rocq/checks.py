"""The Rocq text gates: G2 (the statement is preserved) and G3 (no forbidden construct).

Both work on tokens (syntax.py): comments and strings never count; every problem is a ``Violation``. They
are cheap and catch most attacks before anything is compiled; the compiled gates do not rely on them.

G2. The candidate must be the challenge with its holes filled: the placeholder proof ``Proof. Admitted.``
replaced by a proof ending in ``Qed.`` or ``Defined.`` (``Admitted.`` is left to G3, so G2 judges only the
shape), and on the no-answer track the solution's ``_`` replaced by a term. Every other sentence of the
challenge must appear unchanged, in order (same tokens, same gluing; whitespace and comments are free).
What the candidate may add is sorted by whether it can change what the statement means
(``kits.rocq.policy_text.ADDITIONS`` lists every row with its reason; ``putnam policy --prover rocq``
prints it):

1. cannot: queries (``Print``, ``Check``, ``About``, ``Search``, ``Locate``, ``Set Warnings``) anywhere;
   helpers (``policy.permitted_additions``, a ``Let`` outside sections, ``Program`` obligations, named
   apart from every word of the challenge) and ``Section ... End`` around them before the theorem, or
   after it and the challenge's last sentence, where only what ``Require`` replays in the harness's files
   still counts (``vernacular.replayed``); imports and scopes after the statement.
2. only through elaboration: ``Require``/``Import``/``Export`` of installed libraries and
   ``Open``/``Close Scope`` before the theorem (also inside a helper's proof: the effect outlives its
   ``Qed``). Accepted only when the acceptance runs G5, which elaborates the pinned statement itself.
3. everything else, e.g. notations, instances, ``Variable`` outside a section of the candidate's,
   type declarations in proofs: refused.

Hints, tactic notations, options, ``Arguments`` and opacity fall in one of the three by what they can
reach (``vernacular.py``).

The rules are the acceptance profile's (``Submission.rules_profile``): ``check`` refuses what ``submit`` does.

G3 (no forbidden construct) is ``forbidden.py``.
"""

from __future__ import annotations

from putnam_solver.core.gatekit import Violation, text_gate_result
from putnam_solver.core.provers.rocq import vernacular
from putnam_solver.core.provers.rocq.forbidden import challenge_statement
from putnam_solver.core.provers.rocq.libraries import installed_modules, left_out, loads_more, same_sentence
from putnam_solver.core.provers.rocq.policy import (
    POLICY,
)
from putnam_solver.core.provers.rocq.scan import (
    ELABORATION,
    Scan,
    is_query,
    last_line,
    note_name,
    quote,
    reads,
    take_proof,
)
from putnam_solver.core.provers.rocq.sections import (
    HOLDS_THEOREM,
    LET_IN_SECTION,
    SECTION_LOCAL,
    declares_locals,
    section_scoped,
)
from putnam_solver.core.provers.rocq.sentence_rules import (
    declares_given_names,
    opens_proof,
    program_obligation,
    proof_owner,
    second_word,
    tactic_declared_names,
)
from putnam_solver.core.provers.rocq.statement_shape import Statement, solution_body_start, statement_words
from putnam_solver.core.provers.rocq.syntax import (
    THEOREM_COMMANDS,
    Kind,
    LexError,
    Sentence,
    names_ending,
    rolled_back,
    sentences,
)
from putnam_solver.core.provers.rocq.toolchain import COQC, optional_tool
from putnam_solver.core.verify import GateResult, Profile, Submission, Track


def _hole_matches(candidate: Sentence, challenge: Sentence) -> bool:
    """``Definition sol ... := _.`` filled: same prefix up to ``:=``, then a non-empty body."""
    body = solution_body_start(challenge)
    prefix = challenge.key[:body]
    return len(candidate.tokens) > body + 1 and candidate.key[:body] == prefix and candidate.ended


def _take_section(scan: Scan, opening: Sentence) -> None:
    """A ``Section ... End`` the candidate adds around helpers before the theorem, or around the theorem.

    Closing it discharges its ``Variable``/``Hypothesis``/``Context``/``Let`` (``sections.py``): a
    statement after its ``End`` is read where none of them is in scope. One that reaches the theorem holds
    it (:func:`hold_theorem`) and must close right after the theorem's proof.
    """
    name = opening.declared_name
    scan.own_sections += 1
    scan.scoped.append([])
    body = scan.i
    while (sent := scan.peek()) is not None:
        if _is_theorem(scan, sent):
            hold_theorem(scan, opening, declares_locals(scan.sents, body))
            return
        if sent.command == "End":
            scan.take()
            scan.own_sections -= 1
            scan.scoped.pop()  # its scope commands ended with it
            if sent.declared_name != name:
                scan.violations.append(Violation(sent.line, quote(sent), f"does not close `Section {name}`"))
            return
        if sent.command not in SECTION_LOCAL:
            _take_addition(scan)
            if scan.holding:  # a section inside this one holds the theorem: so does this one
                hold_theorem(scan, opening, declares_locals(scan.sents, body))
                return
            continue
        if scan.take().command == "Let":
            note_name(scan, sent)
            if opens_proof(sent):
                take_proof(scan, f"`{sent.declared_name}`", before_theorem=not scan.after)
    where = "at the end of the file" if scan.after else "before the theorem"
    scan.violations.append(Violation(opening.line, f"`Section {name}`", f"never closed {where}"))


def _is_theorem(scan: Scan, sent: Sentence) -> bool:
    """Whether ``sent`` is the challenge's theorem, as expected next, or an edit of it (same command, name)."""
    want = scan.theorem
    return want is not None and sent.command in THEOREM_COMMANDS and sent.declared_name == want.declared_name


def hold_theorem(scan: Scan, opening: Sentence, local: bool) -> None:
    """The candidate's section opened by ``opening`` holds the theorem (``sections.py``): with assumptions
    or ``Let``s of its own (``local``, read by ``declares_locals`` up to its ``End``, proofs included), only
    the semantic statement check can tell whether its ``End`` made one a premise of the theorem (class 2);
    without, it is a scope that changes nothing (class 1)."""
    scan.holding.append(str(opening.declared_name))
    for scope in scan.scoped.pop() if scan.scoped else ():
        scan.needs_elaboration_check(scope, f"before the theorem, in {HOLDS_THEOREM},")
    if local:
        scan.needs_elaboration_check(
            opening, f"{HOLDS_THEOREM} and declares assumptions or `Let`s (a proof in it included);"
        )


def _close_holding(scan: Scan) -> Violation | None:
    """The ``End`` of each section of the candidate's that holds the theorem, right after its proof."""
    for name in scan.holding:
        _skip_after_theorem(scan)
        sent = scan.peek()
        if sent is None or sent.command != "End" or sent.declared_name != name:
            line = sent.line if sent else last_line(scan.sents)
            return Violation(
                line, f"`Section {name}`", f"{HOLDS_THEOREM}: close it (`End {name}.`) right after its proof"
            )
        scan.take()
        scan.own_sections -= 1
    scan.holding.clear()
    return None


def _take_addition(scan: Scan) -> None:
    """One sentence the candidate adds before the theorem (with its proof or section body)."""
    sent = scan.take()
    command = sent.command
    if is_query(sent):
        return
    if reads(sent):
        scan.library_rule(sent)
        if not section_scoped(sent, scan.scoped):
            scan.needs_elaboration_check(sent, "before the theorem,")
        return
    if command == "Section":
        _take_section(scan, sent)
        return
    if (obligation := program_obligation(sent)) is not None:
        if obligation and not rolled_back(sent):
            take_proof(scan, "a Program obligation", before_theorem=not scan.after)
        return
    if command == "Let" and second_word(sent) not in ("Fixpoint", "CoFixpoint"):
        if scan.sections:  # Coq reads it as a `Local Definition` only outside every section
            scan.violations.append(Violation(sent.line, quote(sent), LET_IN_SECTION))
            return
        command = "Definition"
    if (
        command in vernacular.COMMANDS
        and (judged := vernacular.classify(sent, scan.defined, scan.tactics, scan.ltac2)) is not None
    ):
        scan.judge(sent, judged, "before the theorem")
        return
    if command not in POLICY.permitted_additions:
        rule = (
            f"not in the challenge, and `{command}` is not a permitted addition (permitted before the theorem, "
            f"and after it and the challenge's last sentence: "
            f"{', '.join(POLICY.permitted_additions)}; see `putnam policy --prover rocq`)"
        )
        scan.violations.append(Violation(sent.line, quote(sent), rule))
        return
    note_name(scan, sent)
    if opens_proof(sent):
        take_proof(scan, proof_owner(sent), before_theorem=not scan.after)


def _note_tactic_names(scan: Scan) -> None:
    """Constants a tactic declares (``transparent_abstract ... using RInt``), named apart as helpers are."""
    rule = "is declared by a tactic under the name of a word of the challenge, which it would shadow"
    for line, name in (n for s in scan.sents if s.command != "Proof" for n in tactic_declared_names(s)):
        scan.defined.add(name)
        if name in scan.reserved:
            scan.violations.append(Violation(line, f"the constant `{name}`", rule))
    for sent in filter(declares_given_names, scan.sents):  # the name comes from call sites: G4/G5 read it
        scan.needs_elaboration_check(sent, "a tactic that declares constants under names it is given,")


def _answer_violations(solution: Sentence, defined: set[str]) -> list[Violation]:
    """A no-answer answer may name only what the challenge's environment provides.

    A helper the candidate defines can hide anything behind a name (even the statement's own
    conclusion), so the answer would not be an answer; ``X.helper`` counts too, whatever ``X`` is.
    """
    body = solution.tokens[solution_body_start(solution) : -1]
    lengths = {len(name) for name in defined}
    named = {name for tok in body if tok.kind is Kind.WORD for name in names_ending(tok.text, defined, lengths)}
    return [
        Violation(
            solution.line,
            f"`{solution.declared_name}`",
            f"the answer names `{name}`, which the candidate defines; an answer may use only what the "
            "challenge's own environment provides (write it out)",
        )
        for name in sorted(named)
    ]


def _skip_after_theorem(scan: Scan) -> None:
    """Queries and reading commands after the theorem's statement cannot change it: pass over them."""
    while (sent := scan.peek()) is not None and (is_query(sent) or reads(sent)):
        scan.library_rule(scan.take())


def check_preservation(
    statement: Statement, candidate: str, track: Track, rules: Profile, installed: frozenset[str] = frozenset()
) -> list[Violation]:
    """Everything that keeps ``candidate`` from being the challenge with its holes filled.

    ``rules`` is the profile of the acceptance: additions that can act only through elaboration pass
    only when it runs the semantic statement check (G5).
    """
    try:
        sents = sentences(candidate)
    except LexError as exc:
        return [Violation(exc.line, "unreadable source", f"lexing: {exc.reason}")]
    if sents and not sents[-1].ended:
        return [Violation(sents[-1].line, quote(sents[-1]), "the last sentence has no final period")]
    hole = statement.solution if track is Track.NO_ANSWER else None
    scan = Scan(
        sents,
        statement_words(statement),
        rules,
        installed,
        tactics=vernacular.runs_tactics(statement),
        ltac2=vernacular.loads_ltac2(statement),
    )
    expected = [*statement.header, statement.sentences[statement.theorem]]
    for j, want in enumerate(expected):
        scan.theorem = want if j == statement.theorem else None
        if left_out(want, scan.sents[scan.i :], scan.installed):
            scan.needs_elaboration_check(want, "the challenge's, left out:")
            continue
        while (sent := scan.peek()) is not None:
            same = _hole_matches(sent, want) if j == hole else same_sentence(sent, want, scan.installed)
            more = not same and loads_more(sent, want, scan.installed)
            if same or more:
                scan.take()
                if more:
                    scan.library_rule(sent)
                    scan.needs_elaboration_check(sent, "it loads more than the challenge's, before the theorem;")
                scan.theorem = None
                scan.sections += {"Section": 1, "End": -1}.get(sent.command, 0)
                if j == hole:
                    scan.violations += _answer_violations(sent, scan.defined)
                break
            edited_theorem = sent.command in THEOREM_COMMANDS and sent.declared_name == statement.theorem_name
            if j == statement.theorem and edited_theorem and rolled_back(sent):
                scan.take()  # `Fail Theorem` of the name declares nothing: coqc stops unless its command fails
                continue
            if j == statement.theorem and edited_theorem:
                what = f"the theorem `{statement.theorem_name}`"
                scan.violations.append(Violation(sent.line, what, "differs from the challenge's statement"))
                scan.take()
                scan.theorem = None
                break
            _take_addition(scan)
        else:
            what = "the theorem" if j == statement.theorem else quote(want)
            missing = Violation(last_line(sents), f"{what} (challenge line {want.line})", "missing or changed")
            return [*scan.violations, missing]
    take_proof(scan, f"`{statement.theorem_name}`", before_theorem=False)
    if (unclosed := _close_holding(scan)) is not None:
        return [*scan.violations, unclosed]
    _note_tactic_names(scan)
    for want in statement.trailer:
        _skip_after_theorem(scan)
        sent = scan.peek()
        if sent is None or sent.key != want.key:
            line = sent.line if sent else last_line(sents)
            return [*scan.violations, Violation(line, quote(want), "expected here, after the proof")]
        scan.take()
    _skip_after_theorem(scan)
    scan.after, scan.sections = True, 0
    while scan.peek() is not None:  # the additions permitted before the theorem, judged by what they reach
        _take_addition(scan)
    return scan.violations


def preservation_gate(sub: Submission) -> GateResult:
    """G2: the candidate is the challenge with its holes filled and only permitted additions."""
    installed = installed_modules(optional_tool(COQC, sub.options))
    violations = check_preservation(challenge_statement(sub), sub.candidate, sub.track, sub.rules_profile, installed)
    return text_gate_result("G2", "preservation", violations, "statement, header and solution unchanged", ELABORATION)
