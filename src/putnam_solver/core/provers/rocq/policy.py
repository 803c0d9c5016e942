"""The Rocq policy as data: what a candidate may add, what it may never write, and why (``putnam policy``).

``checks.py`` applies it (G2 preservation, G3 forbidden constructs); ``kits.rocq.policy_text`` renders it,
outside the trusted package.
"""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.core.provers.rocq.syntax import (
    THEOREM_COMMANDS,
)

QUERY_COMMANDS = frozenset({"Print", "Check", "About", "Search", "SearchPattern", "SearchRewrite", "Locate"})
"""Commands that only print (with ``Set Warnings``, which only silences): harmless anywhere."""
READING_COMMANDS = frozenset({"Require", "From", "Import", "Export"})
"""With ``Open Scope``/``Close Scope``: they change how later text is read and nothing else."""
STATEMENT_CHECK = "G5"
"""The Rocq gate that checks the statement semantically (the trusted type check)."""


@dataclass(frozen=True)
class Rule:
    """A forbidden construct, why it is forbidden, and the kind of rule (``axiom``, ``kernel``...)."""

    construct: str
    reason: str
    rule: str


@dataclass(frozen=True)
class Addition:
    """One row of the G2 classification: a kind of addition, where, which profiles accept it, and why."""

    construct: str
    where: str
    accepted: str
    reason: str


EVERY_PROFILE = "harmless"
"""Accepted on every profile."""
SEMANTIC_CHECK_ONLY = "elaboration"
"""Accepted only when the acceptance runs G5 (the full profile)."""
NEVER = "refused"


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


def _rules(rule: str, reason: str, *constructs: str) -> tuple[Rule, ...]:
    return tuple(Rule(c, reason, rule) for c in constructs)


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
            "before the theorem, or inside a helper's proof: the effect outlives Qed",
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
        *_rules("proof hole", "leaves a proof obligation unproved", "admit", "give_up", "Admitted", "Admit", "Abort"),
        *_rules(
            "axiom",
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
        *_rules("module", "modules can rebind the names the statement uses", "Module", "Include"),
        *_rules("kernel", "disables a kernel check", "bypass_check"),
        *_rules(
            "plugin",
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
        *_rules("syntax", "changes what notation means", "Notation", "Infix", "Reserved"),
        *_rules(
            "elaboration",
            "changes elaboration through instances or coercions",
            "Instance",
            "Existing",
            "Canonical",
            "Coercion",
            "Typeclasses",
        ),
        *_rules("document", "rewinds the document", "Reset", "Back", "BackTo", "Undo"),
        *_rules(
            "plugin",
            "runs an Elpi program at compile time (the Elpi plugin, loaded by mathcomp-analysis and "
            "Hierarchy Builder, can run shell commands and write files)",
            "Elpi",
            "elpi",
        ),
        *_rules(
            "plugin",
            "Hierarchy Builder commands declare structures and instances through Elpi: they change elaboration",
            "HB",
        ),
        *_rules(
            "kernel",
            "Ltac2's unsafe term API builds arbitrary terms, fixpoints included, without the kernel's "
            "keywords appearing in the text",
            "Unsafe",
        ),
    ),
    forbidden_phrases=_rules(
        "kernel", "disables a kernel check", "Guard Checking", "Positivity Checking", "Universe Checking"
    ),
    recursion_words=(
        *_rules(
            "recursion",
            "defines its own recursion, which the guard checker of this Coq can be fooled by into proving "
            "False; use induction or library recursors",
            "Fixpoint",
            "CoFixpoint",
            "fix",
            "cofix",
        ),
        *_rules(
            "recursion",
            "defines recursion through a plugin that emits a candidate-shaped fixpoint; use induction or "
            "library recursors",
            "Function",
            "Equations",
        ),
    ),
)
