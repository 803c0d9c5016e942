"""The Rocq text gates: G2 (the statement is preserved) and G3 (no forbidden construct).

Both work on tokens (syntax.py), so comments and strings never trigger or hide anything, and both report
every problem at once with its line, the construct and the rule. They are cheap and catch most attacks
before anything is compiled; the compiled gates (G5, G6) do not rely on them.

G2. The candidate must be the challenge with its holes filled: the placeholder proof ``Proof. Admitted.``
replaced by a proof ending in ``Qed.`` or ``Defined.`` (``Admitted.`` is left to G3, so G2 judges only the
shape), and on the no-answer track the solution's ``_`` replaced by a term. Every other sentence of the
challenge must appear unchanged, in order (same tokens, same gluing; whitespace and comments are free).
What the candidate may add is sorted by whether it can change what the statement means
(``policy.additions`` lists every row with its reason; ``putnam policy --prover rocq`` prints it):

1. cannot: queries (``Print``, ``Check``, ``About``, ``Search``, ``Locate``, ``Set Warnings``) anywhere;
   helpers (``policy.permitted_additions``, with their proofs, named apart from every word of the
   challenge) and ``Section ... End`` around them before the theorem; imports and scopes in the
   theorem's proof or after it. Accepted on every profile.
2. only through elaboration: ``Require``/``Import``/``Export`` of installed libraries and
   ``Open``/``Close Scope`` before the theorem, at top level or inside a helper's proof (their effect
   outlives its ``Qed``). Accepted only when the acceptance runs G5, which elaborates the pinned
   statement itself and checks the candidate's theorem against it; refused otherwise, naming the profile.
3. everything else, e.g. notations, options, instances, ``Variable`` (also inside a section: closing it
   abstracts the statement), type declarations in proofs: refused.

The rules are those of the acceptance profile (``Submission.rules_profile``), so the agent's ``check``
never refuses what ``submit`` accepts.

G3. Every sentence that is not verbatim a challenge sentence (the placeholder proof never counts as
one) is scanned for ``policy.forbidden_words`` and ``policy.forbidden_phrases``; a qualified name is
refused when any of its segments is a forbidden word (``Constr.Unsafe.make``). On a Coq whose guard
checker has known bugs (toolchain.KERNEL_BUGS, decided from the detected coqc version) the
``policy.recursion_words`` are refused too, unless the user passed ``--allow-recursion``: through those
bugs a fixpoint the candidate writes can prove ``False`` with coqc and coqchk both accepting it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from putnam_solver.core.provers.rocq.syntax import (
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
from putnam_solver.core.provers.rocq.toolchain import (
    COQC,
    Version,
    detected_version,
    guard_bugs,
    kernel_bug_evidence,
    optional_tool,
)
from putnam_solver.core.verify import PROFILE_GATES, GateResult, GateStatus, Profile, Submission, Track

QUERY_COMMANDS = frozenset({"Print", "Check", "About", "Search", "SearchPattern", "SearchRewrite", "Locate"})
"""Commands that only print (with ``Set Warnings``, which only silences): harmless anywhere."""
READING_COMMANDS = frozenset({"Require", "From", "Import", "Export"})
"""With ``Open Scope``/``Close Scope``: they change how later text is read and nothing else."""
STATEMENT_CHECK = "G5"
"""The Rocq gate that checks the statement semantically (the trusted type check)."""


@dataclass(frozen=True)
class Rule:
    """A forbidden construct and why it is forbidden."""

    construct: str
    reason: str


@dataclass(frozen=True)
class Addition:
    """One row of the G2 classification: a kind of addition, where, which profiles accept it, and why."""

    construct: str
    where: str
    accepted: str
    reason: str


EVERY_PROFILE = "every profile"
SEMANTIC_CHECK_ONLY = f"only with G5 ({Profile.FULL} profile)"
NEVER = "never"


@dataclass(frozen=True)
class RocqPolicy:
    """What a candidate may add (G2) and what it may never write (G3)."""

    additions: tuple[Addition, ...]
    permitted_additions: tuple[str, ...]
    permitted_libraries: tuple[str, ...]
    proof_commands_denied: tuple[str, ...]
    forbidden_words: tuple[Rule, ...]
    forbidden_phrases: tuple[Rule, ...]
    recursion_words: tuple[Rule, ...]

    def describe(self) -> str:
        """A plain-text summary for prompts, docs and ``putnam doctor``."""
        lines = ["G2: additions, by whether they can change what the statement means:"]
        lines += [f"  [{a.accepted}] {a.construct} ({a.where}): {a.reason}" for a in self.additions]
        lines += [
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
    additions=(
        Addition(
            "Print, Check, About, Search, Locate, Print Assumptions, Set Warnings",
            "anywhere",
            EVERY_PROFILE,
            "queries print and Set Warnings silences; neither leaves anything that later text could read",
        ),
        Addition(
            "comments, layout",
            "anywhere",
            EVERY_PROFILE,
            "not tokens; gluing between tokens still counts, since Coq lexes `[::` and `[ ::` differently",
        ),
        Addition(
            "Lemma, Theorem, Definition, Fixpoint, Ltac with their proofs",
            "before the theorem",
            EVERY_PROFILE,
            "new names only, none a word of the challenge, so nothing the statement uses can resolve to them",
        ),
        Addition(
            "Section ... End around helpers",
            "before the theorem",
            EVERY_PROFILE,
            "it only scopes the helpers; closing it abstracts nothing, since Variable/Context stay refused",
        ),
        Addition(
            "Require, Import, Export (installed libraries), Open Scope, Close Scope",
            "after the theorem's statement: in its proof or after it",
            EVERY_PROFILE,
            "the statement is already elaborated",
        ),
        Addition(
            "Require, Import, Export (installed libraries), Open Scope, Close Scope",
            "before the theorem, also inside a helper's proof (the effect outlives Qed)",
            SEMANTIC_CHECK_ONLY,
            "notations, scopes, coercions and instances of a library change how the statement's text "
            "elaborates; G5 elaborates the pinned statement without them and checks the candidate's "
            "theorem against it, so only an acceptance that runs G5 can tell a harmless import from one "
            "that changes the statement",
        ),
        Addition(
            "Require of a library that is not installed",
            "anywhere",
            NEVER,
            "nothing outside the pinned toolchain may be loaded",
        ),
        Addition(
            "Variable, Context, Hypothesis (also inside a section), Notation, Set/Unset options, "
            "Arguments, Instance, Coercion, Module",
            "anywhere outside the challenge's own sentences",
            NEVER,
            "they assume instead of proving, abstract the statement, or change what its text means (G3 "
            "also refuses most of them; DESIGN section 7)",
        ),
        Addition(
            "type or universe declarations, notations, options, instances inside proofs",
            "inside any proof",
            NEVER,
            "Coq 8.16's universe and positivity kernel bugs need a candidate-declared inductive",
        ),
    ),
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
        *_rules("modules can rebind the names the statement uses", "Module", "Include"),
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
    return parse_statement(sub.challenge, sub.problem.id, sub.problem.format)


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


def _second_word(sentence: Sentence) -> str:
    i = sentence.command_index() + 1
    return sentence.tokens[i].text if i < len(sentence.tokens) else ""


def is_query(sentence: Sentence) -> bool:
    """A command that only prints or silences messages: it leaves nothing behind that could be read."""
    if sentence.command == "Set":
        return _second_word(sentence) == "Warnings"
    return sentence.command in QUERY_COMMANDS


def reads(sentence: Sentence) -> bool:
    """A command that changes how later text is read (libraries, modules, scopes), and nothing else."""
    if sentence.command in ("Open", "Close"):
        return _second_word(sentence) == "Scope"
    return sentence.command in READING_COMMANDS


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
class _Scan:
    """A walk over the candidate's sentences, and what it found wrong so far."""

    sents: list[Sentence]
    reserved: set[str]
    rules: Profile
    problems: list[str] = field(default_factory=list)
    defined: set[str] = field(default_factory=set)
    """Names the candidate's own additions declare (helpers, tactics), which an answer may not use."""
    i: int = 0

    def peek(self) -> Sentence | None:
        return self.sents[self.i] if self.i < len(self.sents) else None

    def take(self) -> Sentence:
        self.i += 1
        return self.sents[self.i - 1]

    def needs_elaboration_check(self, sent: Sentence, where: str) -> None:
        """A class-2 addition: passes only where the statement is checked semantically (Rocq G5)."""
        if STATEMENT_CHECK not in PROFILE_GATES[self.rules]:
            self.problems.append(
                f"line {sent.line}: `{_quote(sent)}` {where} can change how the statement is read (through "
                f"elaboration only), so only a profile that checks the statement semantically accepts it: "
                f"the `{Profile.FULL}` profile (G5's trusted type check) decides it; this acceptance runs "
                f"`{self.rules}`"
            )


def _take_proof(scan: _Scan, owner: str, before_theorem: bool) -> None:
    """Consume proof sentences up to and including the proof end; note commands proofs may not use.

    Scopes and imports of a proof outlive its ``Qed`` (measured with coqc 8.16), so before the theorem
    they are class 2; in the theorem's own proof they come after the statement and cannot change it.
    """
    while (sent := scan.peek()) is not None:
        scan.take()
        if sent.command in PROOF_ENDS:
            if sent.command not in ("Qed", "Defined", "Admitted"):
                scan.problems.append(
                    f"line {sent.line}: the proof of {owner} ends with `{sent.command}`; end it with Qed or Defined"
                )
            return
        if is_query(sent):
            continue
        if reads(sent) and sent.command not in ("Require", "From"):
            if before_theorem:
                scan.needs_elaboration_check(sent, f"inside the proof of {owner}, before the theorem,")
            continue
        if sent.command in POLICY.proof_commands_denied:
            scan.problems.append(
                f"line {sent.line}: `{_quote(sent)}` inside the proof of {owner}: the command "
                f"`{sent.command}` is not allowed in proofs (it changes how later text is read, or declares "
                "types or universes of its own)"
            )
    scan.problems.append(f"the proof of {owner} never ends (no Qed. or Defined.)")


def _take_section(scan: _Scan, opening: Sentence) -> None:
    """A ``Section ... End`` the candidate adds around helpers before the theorem.

    Closing a section abstracts its ``Variable``/``Context`` declarations; those are not permitted
    additions (and G3 refuses them), so a section of helpers only scopes them and cannot change the
    statement, which must come after its ``End``.
    """
    name = opening.declared_name
    while (sent := scan.peek()) is not None:
        if sent.command == "End":
            scan.take()
            if sent.declared_name != name:
                scan.problems.append(f"line {sent.line}: `{_quote(sent)}` does not close `Section {name}`")
            return
        _take_addition(scan)
    scan.problems.append(f"line {opening.line}: `Section {name}` is never closed before the theorem")


def _take_addition(scan: _Scan) -> None:
    """One sentence the candidate adds before the theorem (with its proof or section body)."""
    sent = scan.take()
    command = sent.command
    if is_query(sent):
        return
    if reads(sent):
        if command in ("Require", "From") and not _library_ok(sent):
            scan.problems.append(
                f"line {sent.line}: `{_quote(sent)}`: only installed libraries "
                f"({', '.join(POLICY.permitted_libraries)} or bare names) may be required"
            )
        scan.needs_elaboration_check(sent, "before the theorem")
        return
    if command == "Section":
        _take_section(scan, sent)
        return
    if command not in POLICY.permitted_additions:
        scan.problems.append(
            f"line {sent.line}: `{_quote(sent)}` is not in the challenge and `{command}` is not a "
            f"permitted addition (permitted before the theorem: {', '.join(POLICY.permitted_additions)}; "
            "see `putnam policy --prover rocq`)"
        )
        return
    name = sent.declared_name
    if name is not None:
        scan.defined.add(name)
    if name is not None and name in scan.reserved:
        scan.problems.append(
            f"line {sent.line}: the added {command} `{name}` has the name of a word of the "
            "challenge; rename it so it cannot shadow anything the statement uses"
        )
    if _opens_proof(sent):
        _take_proof(scan, f"`{name}`", before_theorem=True)


def _challenge_words(statement: Statement) -> set[str]:
    words: set[str] = set()
    for sent in statement.sentences:
        for tok in sent.tokens:
            if tok.kind is Kind.WORD:
                words.update((tok.text, tok.last_segment))
    return words


def _answer_problems(solution: Sentence, defined: set[str]) -> list[str]:
    """A no-answer answer may name only what the challenge's environment provides.

    A helper the candidate defines can hide anything behind a name (even the statement's own
    conclusion), so the answer would not be an answer; ``X.helper`` counts too, whatever ``X`` is.
    """
    body = solution.tokens[solution_body_start(solution) : -1]
    named = {
        name
        for tok in body
        if tok.kind is Kind.WORD
        for name in defined
        if tok.text == name or tok.text.endswith("." + name)
    }
    return [
        f"line {solution.line}: the answer names `{name}`, which the candidate defines; an answer may use "
        "only what the challenge's own environment provides (write it out)"
        for name in sorted(named)
    ]


def _skip_after_theorem(scan: _Scan) -> None:
    """Queries and reading commands after the theorem's statement cannot change it: pass over them."""
    while (sent := scan.peek()) is not None and (is_query(sent) or reads(sent)):
        scan.take()


def preservation_problems(statement: Statement, candidate: str, track: Track, rules: Profile) -> list[str]:
    """Everything that keeps ``candidate`` from being the challenge with its holes filled.

    ``rules`` is the profile of the acceptance: additions that can act only through elaboration pass
    only when it runs the semantic statement check (G5).
    """
    try:
        sents = sentences(candidate)
    except LexError as exc:
        return [str(exc)]
    if sents and not sents[-1].ended:
        return [f"line {sents[-1].line}: the last sentence has no final period"]
    hole = statement.solution if track is Track.NO_ANSWER else None
    scan = _Scan(sents, _challenge_words(statement), rules)
    expected = [*statement.header, statement.sentences[statement.theorem]]
    for j, want in enumerate(expected):
        while (sent := scan.peek()) is not None:
            same = _hole_matches(sent, want) if j == hole else sent.key == want.key
            if same:
                scan.take()
                if j == hole:
                    scan.problems += _answer_problems(sent, scan.defined)
                break
            edited_theorem = sent.command in THEOREM_COMMANDS and sent.declared_name == statement.theorem_name
            if j == statement.theorem and edited_theorem:
                scan.problems.append(
                    f"line {sent.line}: the theorem `{statement.theorem_name}` differs from the challenge's statement"
                )
                scan.take()
                break
            _take_addition(scan)
        else:
            what = "the theorem" if j == statement.theorem else f"`{_quote(want)}`"
            scan.problems.append(f"{what} (challenge line {want.line}) is missing or changed")
            return scan.problems
    _take_proof(scan, f"`{statement.theorem_name}`", before_theorem=False)
    for want in statement.trailer:
        _skip_after_theorem(scan)
        sent = scan.peek()
        if sent is None or sent.key != want.key:
            where = f"line {sent.line}" if sent else "end of file"
            scan.problems.append(f"{where}: expected `{_quote(want)}` after the proof")
            return scan.problems
        scan.take()
    _skip_after_theorem(scan)
    if (extra := scan.peek()) is not None:
        scan.problems.append(
            f"line {extra.line}: `{_quote(extra)}`: after the theorem only queries (Print, Check, About, "
            "Search, Locate, Set Warnings) and Import/Export/Open Scope may follow"
        )
    return scan.problems


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
    problems = preservation_problems(challenge_statement(sub), sub.candidate, sub.track, sub.rules_profile)
    evidence = {"problems": problems}
    if problems:
        return GateResult("G2", "preservation", GateStatus.FAILED, "; ".join(problems), evidence)
    return GateResult("G2", "preservation", GateStatus.PASSED, "statement, header and solution unchanged", evidence)


def forbidden_gate(sub: Submission) -> GateResult:
    """G3: no forbidden construct outside the challenge's own sentences (recursion too, on a buggy Coq)."""
    version = detected_version(optional_tool(COQC, sub.options))
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
