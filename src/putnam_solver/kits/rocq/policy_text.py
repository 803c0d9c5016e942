"""The Rocq policy as text: the Markdown ``putnam policy`` prints and the brief a worker's prompt carries.

The rules themselves are data in the trusted package (``core.provers.rocq.policy``), next to the gates
that apply them; rendering them decides nothing, so it lives here, with the table of how G2 judges each
kind of addition (:data:`ADDITIONS`), which explains the rules to people and is read by no gate.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.rocq.policy import STATEMENT_CHECK, RocqPolicy
from putnam_solver.core.verify import Profile
from putnam_solver.kits.policy_doc import Difference, Forbidden, PolicyDocument, Section

EVERY_PROFILE: Final = "harmless"
"""Accepted on every profile."""
SEMANTIC_CHECK_ONLY: Final = "elaboration"
"""Accepted only when the acceptance runs G5 (the full profile)."""
NEVER: Final = "refused"


def _addition(construct: str, where: str, accepted: str, reason: str) -> Difference:
    """One row of the G2 classification: a kind of addition, where, which profiles accept it, and why."""
    return Difference(f"{construct} ({where})", accepted, reason)


ADDITIONS: Final = (
    _addition(
        "Print, Check, About, Search, Locate, Print Assumptions, Set Warnings, Comments",
        "anywhere",
        EVERY_PROFILE,
        "queries print, Set Warnings silences and Comments keeps nothing; none leaves anything that later text "
        "could read (a Global/Export Set Warnings reaches the harness's files and is judged as an option: "
        "refused; so is a Comments with From, Extra or Dependency, which coqc runs as From .. Extra Dependency)",
    ),
    _addition(
        "comments, layout",
        "anywhere",
        EVERY_PROFILE,
        "not tokens; gluing between tokens still counts, since Coq lexes `[::` and `[ ::` differently",
    ),
    _addition(
        "Lemma, Theorem, Definition, Fixpoint, Ltac with their proofs; Let outside every section; Program "
        "declarations with their obligations (Next Obligation, Obligation n, Solve Obligations)",
        "before the theorem, or after it and the challenge's last sentence",
        EVERY_PROFILE,
        "new names only, none a word of the challenge, so nothing the statement uses can resolve to them; "
        "Coq reads a Let outside a section as a Local Definition; an obligation is a lemma its declaration "
        "depends on (unsolved, the declaration does not exist); after the theorem nothing reads the statement",
    ),
    _addition(
        "an Arguments (or Prenex Implicits) of another constant that is not Local",
        "after the theorem, at top level or in a proof",
        NEVER,
        "the closed theorem cannot use it: it can act only in the files that Require the candidate, the "
        "harness's checks among them, where Require replays it (measured with coqc 8.16); use Local. A "
        "global hint is replayed too but passes: no harness file runs a tactic that consults a hint database",
    ),
    _addition(
        "Obligation Tactic, Admit Obligations; a Let inside the challenge's own section",
        "anywhere, in proofs too",
        NEVER,
        "Require replays an Obligation Tactic in every file that loads the candidate (measured); Admit leaves "
        "obligations unproved; a Let in the section that holds the theorem is in scope of the theorem",
    ),
    _addition(
        "Hint (Resolve, Rewrite, Unfold, Extern...), Remove Hints, Create HintDb, Tactic Notation with word "
        "keywords, Set/Unset of Bullet Behavior, Default Goal Selector, Ltac Backtrace, Hyps Limit, Nested "
        "Proofs Allowed, Silent, Mangle Names, Printing ...; Add/Remove Printing, Add/Remove Search Blacklist; "
        "Show, Test, Obligations, Preterm (queries); Arguments, Prenex Implicits, Opaque, Transparent, Local "
        "Strategy of the candidate's own definitions; Generalizable (not Global) after the theorem; Import "
        "Prenex Implicits (ssreflect's Unset Printing Implicit Defensive)",
        "before or after the theorem, in any proof",
        EVERY_PROFILE,
        "they steer tactics, printing or the candidate's own names; the statement runs no tactic (unless "
        "its text has `ltac:` or `Program`: then they are elaboration-class) and a Tactic Notation is not "
        "active in the harness's files, which only Require the candidate",
    ),
    _addition(
        "Arguments, Opaque, Transparent, Hint, Remove Hints, Create HintDb, Tactic Notation, Set/Unset behind "
        "Succeed or Fail",
        "before or after the theorem",
        EVERY_PROFILE,
        "Coq restores its whole state after a Succeed or Fail sentence and Require replays nothing of it "
        "(measured with coqc 8.16): the setting is gone before the next sentence",
    ),
    _addition(
        "an Arguments (or Prenex Implicits) of another constant that is neither Local nor in a section (Global "
        "in one counts)",
        "before the theorem",
        NEVER,
        "Require replays it in the harness's answer check, whose tactics it steers: scopes, implicit "
        "arguments, simpl never (measured with coqc 8.16: red team 20); use Local Arguments",
    ),
    _addition(
        "Set Implicit Arguments and its family, Asymmetric Patterns; Local Arguments, Local Prenex Implicits, "
        "Opaque, Transparent, Local Strategy of other constants; a Tactic Notation with symbol keywords",
        "before the theorem, or inside a helper's proof",
        SEMANTIC_CHECK_ONLY,
        "they decide how the statement's binders, patterns and names elaborate, or add tokens to Coq's "
        "lexer; G5 elaborates the pinned statement without them",
    ),
    _addition(
        "Ltac ... ::= (a redefinition), a hint in typeclass_instances, Global/Export options, other options, "
        "a Tactic Notation keyword ending in `.`",
        "anywhere",
        NEVER,
        "they reach every file that merely Requires the candidate (the harness's answer check runs lia, "
        "lra, nra there), or declare instances, or are not known to leave the statement alone; a keyword "
        "ending in `.` makes coqc read two of the gates' sentences as one",
    ),
    _addition(
        "Section ... End around helpers, with its own Variable, Hypothesis, Context and Let",
        "before the theorem, or after it",
        EVERY_PROFILE,
        "closing it discharges them: each lemma of the section is generalised over those it uses, and the "
        "theorem, after its End, is read where none of them is in scope (outside such a section they are axioms)",
    ),
    _addition(
        "Require, Import, Export (installed libraries), Open Scope, Close Scope",
        "after the theorem's statement: in its proof or after it (a Require: after its proof)",
        EVERY_PROFILE,
        "the statement is already elaborated",
    ),
    _addition(
        "Require (installed libraries)",
        "inside the theorem's proof",
        SEMANTIC_CHECK_ONLY,
        "the library can declare an axiom the proof then uses (Coq.Compat.AdmitAxiom); only G5's Print "
        "Assumptions of the theorem reports which axioms it uses",
    ),
    _addition(
        "Open Scope, Close Scope (not Global) in a Section of yours",
        "before the theorem, the section closed before it",
        EVERY_PROFILE,
        "a scope command ends with the innermost section that holds it (measured with coqc 8.16), so the "
        "statement, read after that section's End, is read in the challenge's scopes",
    ),
    _addition(
        "Require, Import, Export (installed libraries), Open Scope, Close Scope",
        "before the theorem, or inside a helper's proof: the effect outlives Qed",
        SEMANTIC_CHECK_ONLY,
        "notations, scopes, coercions and instances of a library change how the statement's text "
        "elaborates; G5 elaborates the pinned statement without them and checks the candidate's "
        "theorem against it, so only an acceptance that runs G5 can tell a harmless import from one "
        "that changes the statement",
    ),
    _addition(
        "Implicit Types, Generalizable, Add Ring, Add Field, Opaque, Transparent, Strategy",
        "inside a helper's proof, before the theorem (the effect outlives Qed); Implicit Types and Generalizable "
        "also at top level before it",
        SEMANTIC_CHECK_ONLY,
        "implicit types and generalization decide the types of the statement's untyped binders, Add Ring and "
        "Add Field declare the structures ring and field use, and opacity steers unification: each can change "
        "how the statement elaborates, which only G5 sees (after the theorem's statement they are harmless; "
        "Add Relation, Setoid, Morphism and Zify are refused everywhere, as instances are)",
    ),
    _addition(
        "Require of a library that is not installed",
        "anywhere",
        NEVER,
        "nothing outside the pinned toolchain may be loaded",
    ),
    _addition(
        "Variable, Context, Hypothesis (also inside a section), Notation, Instance, Coercion, Module",
        "anywhere outside the challenge's own sentences",
        NEVER,
        "they assume instead of proving, abstract the statement, or change what its text means (G3 "
        "also refuses most of them; DESIGN section 7)",
    ),
    _addition(
        "type or universe declarations, notations, instances inside proofs (also behind "
        "Time, Timeout, Fail, Succeed or Redirect, which run the command they prefix)",
        "inside any proof",
        NEVER,
        "Coq 8.16's kernel bugs (universe variance, let-ins in constructors: rocq#22378) need a "
        "candidate-declared inductive; G5 also refuses any inductive in the candidate's compiled module",
    ),
)
"""How G2 judges every kind of addition, and why: what ``putnam policy --prover rocq`` prints (no gate reads it)."""


def brief(policy: RocqPolicy, refuse_recursion: bool) -> str:
    """The rules a worker writing a proof needs, without the reasons (``describe`` has them; a
    rejection names the rule it applies)."""
    forbidden = [
        *policy.forbidden_words,
        *policy.forbidden_phrases,
        *policy.sentence_rules,
        *(policy.recursion_words if refuse_recursion else ()),
    ]
    lines = [
        f"- Before the theorem you may add: {', '.join(policy.permitted_additions)} (each with its proof), `Let` "
        "outside sections, `Program` declarations with `Next Obligation. ... Qed.`, and "
        f"Require of {', '.join(policy.permitted_libraries)} or standard-library names (Lia, Psatz, ...). "
        "The same helpers may follow the theorem; there, `Arguments` of other constants must be `Local`.",
        f"- Proofs may not use the commands: {', '.join(policy.proof_commands_denied)} (`Open`/`Close` "
        "`Scope` and imports in a proof are judged as they are outside it).",
        "- Anywhere you may use hints (not in `typeclass_instances`), `Create HintDb`, `Tactic Notation`, "
        "`Set`/`Unset` of Bullet Behavior, Default Goal Selector, Mangle Names or Printing options, and `Arguments`/"
        "`Opaque` of your own definitions; `Set Implicit Arguments` and imports before the theorem need the "
        "full profile; never `Ltac x ::= ...` (a redefinition) or `Global`/`Export` options.",
        "- Forbidden anywhere outside the challenge's own sentences: "
        + ", ".join(dict.fromkeys(f"`{r.construct}`" for r in forbidden))
        + ".",
    ]
    if refuse_recursion:
        lines.append(
            "- This Coq has guard checker bugs, so your own recursion is refused, in the text and in the "
            "compiled terms (a mutual Lemma ... with ..., the fix/cofix tactics, Scheme count too): prove by "
            "induction or library recursors (induction, elim, destruct, nat_rect)."
        )
    return "\n".join(lines)


def describe(policy: RocqPolicy) -> str:
    """The policy as Markdown, for users, prompts and docs (the format every prover's policy shares)."""
    return PolicyDocument(
        language="Rocq",
        intro=(
            "A candidate is the challenge file with each hole filled: the placeholder proof",
            "`Proof. Admitted.` replaced by a proof ending in `Qed.` or `Defined.` and, on the no-answer",
            "track, the solution's `_` replaced by a term. Every other sentence of the challenge must",
            "appear unchanged and in order (same tokens; whitespace and comments are free).",
        ),
        semantic_check=f"{STATEMENT_CHECK} (profile `{Profile.FULL}`)",
        differences=ADDITIONS,
        permitted=Section(
            "Permitted helpers (before the theorem; after it too)",
            (
                f"- {', '.join(policy.permitted_additions)}: each with its proof, named apart from every "
                "word of the challenge",
                f"- `Require` of {', '.join(f'`{lib}`' for lib in policy.permitted_libraries)} or bare "
                "standard-library names (`Lia`, `Psatz`, ...)",
                f"- inside proofs, none of the commands {', '.join(policy.proof_commands_denied)}",
            ),
        ),
        forbidden_where="anywhere outside the challenge's own sentences",
        forbidden=tuple(
            Forbidden(r.construct, r.rule, r.reason)
            for r in (*policy.forbidden_words, *policy.forbidden_phrases, *policy.sentence_rules)
        ),
        notes=(
            Section(
                "Forbidden on a Coq with known guard checker bugs, unless --allow-recursion",
                (
                    "Coq 8.16 to 9.2 have them; `putnam doctor` and the line below say whether this one does.",
                    "",
                    "| construct | rule | reason |",
                    "|---|---|---|",
                    *(f"| `{r.construct}` | {r.rule} | {r.reason} |" for r in policy.recursion_words),
                    "",
                    "Still allowed: induction through library recursors (`induction`, `elim`, `destruct`,",
                    "`nat_rect`, `Wf.Fix`), the library's own induction principles, and the challenge's own",
                    "definitions. These words are a first line only: on the full profile G5 prints the kernel",
                    "term of every constant the compiled candidate defines and refuses any `fix` or `cofix`",
                    "in them, however it was written (a mutual theorem with `with`, the `fix`/`cofix` tactics,",
                    "Ltac, `Function`, `Program Fixpoint`, `Scheme`, a plugin); the challenge's own fixpoints",
                    "pass only when their terms equal those of the pinned statement.",
                ),
            ),
        ),
    ).render()
