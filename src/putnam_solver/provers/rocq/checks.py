"""The Rocq text gates: G2 (the statement is preserved) and G3 (no forbidden construct).

Both work on tokens (syntax.py), so comments and strings never trigger or hide anything, and both report
every problem at once with its line, the construct and the rule. They are cheap and catch most attacks
before anything is compiled; the compiled gates (G5, G6) do not rely on them.

G2. The candidate must be the challenge with its holes filled: the placeholder proof ``Proof. Admitted.``
replaced by a proof ending in ``Qed.`` or ``Defined.`` (``Admitted.`` is left to G3, so G2 judges only the
shape), and on the no-answer track the solution's ``_`` replaced by a term. Every other sentence of the
challenge must appear unchanged, in order (same tokens, same gluing; whitespace and comments are free).
Before the theorem the candidate may add only the sentences ``policy.permitted_additions`` names, with
their proofs, and ``Require`` only installed libraries; an added name may not be a word of the challenge
(so a helper cannot shadow ``sqrt`` or a binder). Proofs may not contain commands that change how later
text is read (scopes, notations, options, instances, imports). Nothing may follow the challenge's last
sentence.

G3. Every sentence that is not verbatim a challenge sentence (the placeholder proof never counts as
one) is scanned for ``policy.forbidden_words`` and ``policy.forbidden_phrases``; a qualified name is
refused when any of its segments is a forbidden word (``Constr.Unsafe.make``). On a Coq whose guard
checker has known bugs (toolchain.KERNEL_BUGS, decided from the detected coqc version) the
``policy.recursion_words`` are refused too, unless the user passed ``--allow-recursion``: through those
bugs a fixpoint the candidate writes can prove ``False`` with coqc and coqchk both accepting it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from putnam_solver.provers.rocq.syntax import (
    PROOF_ENDS,
    THEOREM_COMMANDS,
    Kind,
    LexError,
    Sentence,
    Statement,
    StatementError,
    parse_statement,
    render,
    sentences,
    solution_body_start,
)
from putnam_solver.provers.rocq.toolchain import Version, detected_version, guard_bugs, kernel_bug_evidence
from putnam_solver.verify import GateResult, GateStatus, Submission, Track


@dataclass(frozen=True)
class Rule:
    """A forbidden construct and why it is forbidden."""

    construct: str
    reason: str


@dataclass(frozen=True)
class RocqPolicy:
    """What a candidate may add (G2) and what it may never write (G3)."""

    permitted_additions: tuple[str, ...]
    permitted_libraries: tuple[str, ...]
    proof_commands_denied: tuple[str, ...]
    forbidden_words: tuple[Rule, ...]
    forbidden_phrases: tuple[Rule, ...]
    recursion_words: tuple[Rule, ...]

    def describe(self) -> str:
        """A plain-text summary for prompts, docs and ``putnam doctor``."""
        lines = [
            "G2: before the theorem only these may be added: " + ", ".join(self.permitted_additions),
            "    (each with its proof), and Require of: "
            + ", ".join(self.permitted_libraries)
            + " or bare standard-library names (Lia, Psatz, ...).",
            "    Proofs may not use the commands: " + ", ".join(self.proof_commands_denied) + ".",
            "G3: forbidden anywhere outside the challenge's own sentences:",
        ]
        lines += [f"  {r.construct}: {r.reason}" for r in (*self.forbidden_words, *self.forbidden_phrases)]
        lines.append(
            "G3 on a Coq with known guard checker bugs (see `putnam doctor`; Coq 8.16 to 9.2 have them), "
            "unless --allow-recursion:"
        )
        lines += [f"  {r.construct}: {r.reason}" for r in self.recursion_words]
        lines.append(
            "  still allowed: induction through library recursors (induction, elim, destruct, nat_rect, "
            "Wf.Fix), Scheme-generated principles, and the challenge's own definitions."
        )
        return "\n".join(lines)


def _rules(reason: str, *constructs: str) -> tuple[Rule, ...]:
    return tuple(Rule(c, reason) for c in constructs)


POLICY = RocqPolicy(
    permitted_additions=(*sorted(THEOREM_COMMANDS), "Definition", "Fixpoint", "Ltac", "Require", "From"),
    permitted_libraries=("Coq.", "mathcomp.", "Coquelicot."),
    proof_commands_denied=(
        "Open",
        "Close",
        "Delimit",
        "Bind",
        "Notation",
        "Infix",
        "Reserved",
        "Arguments",
        "Coercion",
        "Identity",
        "Instance",
        "Existing",
        "Canonical",
        "Set",
        "Unset",
        "Import",
        "Export",
        "Require",
        "From",
        "Hint",
        "Section",
        "End",
        "Module",
        "Declare",
        "Include",
        # Coq accepts type declarations in proof mode; the 8.16 universe and positivity kernel bugs
        # (rocq#22376, rocq#22385) need a candidate-declared (polymorphic) inductive.
        "Inductive",
        "CoInductive",
        "Variant",
        "Record",
        "Structure",
        "Class",
        "Scheme",
        "Combined",
        "Universe",
        "Universes",
        "Constraint",
    ),
    forbidden_words=(
        *_rules("leaves a proof obligation unproved", "admit", "give_up", "Admitted", "Admit", "Abort"),
        *_rules(
            "declares an assumption instead of proving it",
            "Axiom",
            "Axioms",
            "Parameter",
            "Parameters",
            "Conjecture",
            "Hypothesis",
            "Hypotheses",
            "Variable",
            "Variables",
            "Context",
        ),
        *_rules("sections and modules can abstract or rebind the statement", "Section", "Module", "Include"),
        *_rules("disables a kernel check", "bypass_check"),
        *_rules(
            "loads or runs code outside the kernel, or touches files",
            "Declare",
            "Load",
            "ML",
            "LoadPath",
            "Drop",
            "Extraction",
            "Extract",
            "Redirect",
            "Cd",
            "Primitive",
            "Register",
        ),
        *_rules("changes what notation means", "Notation", "Infix", "Reserved"),
        *_rules(
            "changes elaboration through instances or coercions",
            "Instance",
            "Existing",
            "Canonical",
            "Coercion",
            "Typeclasses",
        ),
        *_rules("rewinds the document", "Reset", "Back", "BackTo", "Undo"),
        *_rules(
            "runs an Elpi program at compile time (the Elpi plugin, loaded by mathcomp-analysis and "
            "Hierarchy Builder, can run shell commands and write files)",
            "Elpi",
            "elpi",
        ),
        *_rules(
            "Hierarchy Builder commands declare structures and instances through Elpi: they change elaboration",
            "HB",
        ),
        *_rules(
            "Ltac2's unsafe term API builds arbitrary terms, fixpoints included, without the kernel's "
            "keywords appearing in the text",
            "Unsafe",
        ),
    ),
    forbidden_phrases=_rules("disables a kernel check", "Guard Checking", "Positivity Checking", "Universe Checking"),
    recursion_words=(
        *_rules(
            "defines its own recursion, which the guard checker of this Coq can be fooled by into proving "
            "False; use induction or library recursors",
            "Fixpoint",
            "CoFixpoint",
            "fix",
            "cofix",
        ),
        *_rules(
            "defines recursion through a plugin that emits a candidate-shaped fixpoint; use induction or "
            "library recursors",
            "Function",
            "Equations",
        ),
    ),
)


def challenge_statement(sub: Submission) -> Statement:
    """The harness's challenge for this submission, parsed (it has the pinned statement's shape)."""
    return parse_statement(sub.challenge, sub.problem.id)


def _quote(sentence: Sentence, limit: int = 80) -> str:
    text = render(sentence.tokens)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _hole_matches(candidate: Sentence, challenge: Sentence) -> bool:
    """``Definition sol ... := _.`` filled: same prefix up to ``:=``, then a non-empty body."""
    body = solution_body_start(challenge)
    prefix = challenge.key[:body]
    return len(candidate.tokens) > body + 1 and candidate.key[:body] == prefix and candidate.ended


def _library_ok(sentence: Sentence) -> bool:
    words = [t.text for t in sentence.tokens[sentence.command_index() : -1]]
    if words[:1] == ["From"]:
        root = words[1] if len(words) > 1 else ""
        return any((root + ".").startswith(p) for p in POLICY.permitted_libraries)
    names = [w for w in words[1:] if w not in ("Import", "Export")]
    return bool(names) and all("." not in n or any(n.startswith(p) for p in POLICY.permitted_libraries) for n in names)


def _opens_proof(sentence: Sentence) -> bool:
    """Whether a declaration is followed by proof sentences (no top-level ``:=`` body)."""
    if sentence.command in THEOREM_COMMANDS:
        return True
    if sentence.command in ("Definition", "Fixpoint"):
        try:
            solution_body_start(sentence)
        except StatementError:
            return True
    return False


@dataclass
class _Cursor:
    sents: list[Sentence]
    i: int = 0

    def peek(self) -> Sentence | None:
        return self.sents[self.i] if self.i < len(self.sents) else None


def _take_proof(cur: _Cursor, problems: list[str], owner: str) -> None:
    """Consume proof sentences up to and including the proof end; note commands proofs may not use."""
    while (sent := cur.peek()) is not None:
        cur.i += 1
        if sent.command in PROOF_ENDS:
            if sent.command not in ("Qed", "Defined", "Admitted"):
                problems.append(
                    f"line {sent.line}: the proof of {owner} ends with `{sent.command}`; end it with Qed or Defined"
                )
            return
        if sent.command in POLICY.proof_commands_denied:
            problems.append(
                f"line {sent.line}: `{_quote(sent)}` inside the proof of {owner}: the command "
                f"`{sent.command}` is not allowed in proofs (it changes how later text is read, or declares "
                "types or universes of its own)"
            )
    problems.append(f"the proof of {owner} never ends (no Qed. or Defined.)")


def _take_addition(cur: _Cursor, problems: list[str], reserved: set[str]) -> None:
    sent = cur.sents[cur.i]
    cur.i += 1
    command = sent.command
    if command not in POLICY.permitted_additions:
        problems.append(
            f"line {sent.line}: `{_quote(sent)}` is not in the challenge and `{command}` is not a "
            f"permitted addition (permitted before the theorem: {', '.join(POLICY.permitted_additions)})"
        )
        return
    if command in ("Require", "From"):
        if not _library_ok(sent):
            problems.append(
                f"line {sent.line}: `{_quote(sent)}`: only installed libraries "
                f"({', '.join(POLICY.permitted_libraries)} or bare names) may be required"
            )
        return
    name = sent.declared_name
    if name is not None and name in reserved:
        problems.append(
            f"line {sent.line}: the added {command} `{name}` has the name of a word of the "
            "challenge; rename it so it cannot shadow anything the statement uses"
        )
    if _opens_proof(sent):
        _take_proof(cur, problems, f"`{name}`")


def _challenge_words(statement: Statement) -> set[str]:
    words: set[str] = set()
    for sent in statement.sentences:
        for tok in sent.tokens:
            if tok.kind is Kind.WORD:
                words.update((tok.text, tok.last_segment))
    return words


def preservation_problems(statement: Statement, candidate: str, track: Track) -> list[str]:
    """Everything that keeps ``candidate`` from being the challenge with its holes filled."""
    try:
        sents = sentences(candidate)
    except LexError as exc:
        return [str(exc)]
    if sents and not sents[-1].ended:
        return [f"line {sents[-1].line}: the last sentence has no final period"]
    hole = statement.solution if track is Track.NO_ANSWER else None
    reserved = _challenge_words(statement)
    problems: list[str] = []
    cur = _Cursor(sents)
    expected = [*statement.header, statement.sentences[statement.theorem]]
    for j, want in enumerate(expected):
        while (sent := cur.peek()) is not None:
            same = _hole_matches(sent, want) if j == hole else sent.key == want.key
            if same:
                cur.i += 1
                break
            edited_theorem = sent.command in THEOREM_COMMANDS and sent.declared_name == statement.theorem_name
            if j == statement.theorem and edited_theorem:
                problems.append(
                    f"line {sent.line}: the theorem `{statement.theorem_name}` differs from the challenge's statement"
                )
                cur.i += 1
                break
            _take_addition(cur, problems, reserved)
        else:
            what = "the theorem" if j == statement.theorem else f"`{_quote(want)}`"
            problems.append(f"{what} (challenge line {want.line}) is missing or changed")
            return problems
    _take_proof(cur, problems, f"`{statement.theorem_name}`")
    for want in statement.trailer:
        sent = cur.peek()
        if sent is None or sent.key != want.key:
            where = f"line {sent.line}" if sent else "end of file"
            problems.append(f"{where}: expected `{_quote(want)}` after the proof")
            return problems
        cur.i += 1
    if (extra := cur.peek()) is not None:
        problems.append(f"line {extra.line}: `{_quote(extra)}`: nothing may follow the challenge's end")
    return problems


def forbidden_hits(statement: Statement, candidate: str, refuse_recursion: bool = True) -> list[str]:
    """Forbidden constructs in the candidate's own sentences, as ``line N: `construct`: reason``.

    ``refuse_recursion`` adds ``POLICY.recursion_words`` (the caller decides it from the toolchain).
    """
    try:
        sents = sentences(candidate)
    except LexError as exc:
        return [f"cannot scan the file: {exc}"]
    placeholder = set(range(statement.theorem + 1, statement.proof_end + 1))
    exempt = Counter(s.key for i, s in enumerate(statement.sentences) if i not in placeholder)
    rules = (*POLICY.forbidden_words, *(POLICY.recursion_words if refuse_recursion else ()))
    words = {r.construct: r for r in rules}
    phrases = {tuple(r.construct.split()): r for r in POLICY.forbidden_phrases}
    hits: list[str] = []
    for sent in sents:
        if exempt[sent.key] > 0:
            exempt[sent.key] -= 1
            continue
        toks = [t for t in sent.tokens if t.kind is Kind.WORD]
        for k, tok in enumerate(toks):
            rule = next((words[w] for w in (tok.text, *tok.text.split(".")) if w in words), None)
            pair = (toks[k - 1].text, tok.text) if k else None
            if pair in phrases:
                rule = phrases[pair]
            if rule is not None:
                hits.append(f"line {tok.line}: `{rule.construct}`: {rule.reason}")
    return hits


def recursion_refused(allow_recursion: bool, version: Version | None) -> bool:
    """Candidate recursion is refused unless the user allowed it or this Coq has no known guard bug."""
    return not allow_recursion and bool(guard_bugs(version))


def _guard_note(version: Version | None) -> str:
    where = "this Coq (version unknown)" if version is None else "Coq " + ".".join(map(str, version))
    issues = ", ".join(f"rocq#{b.issue}" for b in guard_bugs(version))
    return (
        f" ({where} has known guard checker bugs shared by coqc and coqchk: {issues}; "
        "prove it with induction or library recursors instead; --allow-recursion lifts this rule at the "
        "user's risk)"
    )


def preservation_gate(sub: Submission) -> GateResult:
    """G2: the candidate is the challenge with its holes filled and only permitted additions."""
    problems = preservation_problems(challenge_statement(sub), sub.candidate, sub.track)
    evidence = {"problems": problems}
    if problems:
        return GateResult("G2", "preservation", GateStatus.FAILED, "; ".join(problems), evidence)
    return GateResult("G2", "preservation", GateStatus.PASSED, "statement, header and solution unchanged", evidence)


def forbidden_gate(sub: Submission) -> GateResult:
    """G3: no forbidden construct outside the challenge's own sentences (recursion too, on a buggy Coq)."""
    version = detected_version()
    refused = recursion_refused(sub.options.allow_recursion, version)
    hits = forbidden_hits(challenge_statement(sub), sub.candidate, refused)
    evidence = {
        "hits": hits,
        "recursion": "refused" if refused else "allowed",
        "allow_recursion": sub.options.allow_recursion,
        **kernel_bug_evidence(version),
    }
    if hits:
        recursion = {f"`{r.construct}`" for r in POLICY.recursion_words}
        note = _guard_note(version) if refused and any(w in h for h in hits for w in recursion) else ""
        return GateResult("G3", "forbidden", GateStatus.FAILED, "; ".join(hits) + note, evidence)
    return GateResult("G3", "forbidden", GateStatus.PASSED, "no forbidden construct", evidence)
