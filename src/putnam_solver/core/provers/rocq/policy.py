"""The Rocq policy as data: what a candidate may add, what it may never write, and why (``putnam policy``).

``checks.py`` (G2 preservation) and ``forbidden.py`` (G3 forbidden constructs) apply it;
``kits.rocq.policy_text`` renders it, outside the trusted package, with the table of how G2 judges each
kind of addition.
"""

from __future__ import annotations

from dataclasses import dataclass

from putnam_solver.core.provers.rocq.operator_aliases import CHOICE_ALIASES, LIMIT_ALIASES
from putnam_solver.core.provers.rocq.syntax import (
    THEOREM_COMMANDS,
)

QUERY_COMMANDS = frozenset(
    {"Print", "Check", "About", "Search", "SearchPattern", "SearchRewrite", "Locate", "Compute", "Eval"}
    | {"Show", "Test", "Obligations", "Preterm"}
)
"""Commands that only print (with ``Set Warnings``, which only silences): harmless anywhere. ``Compute t``
and ``Eval red in t`` print a reduced term and keep nothing (red team 26: they were refused as additions; a
``Definition x := Eval ... in t`` is a ``Definition``, and a reduction too long is the compile's timeout).
``Show ...`` (``Show Obligation Tactic``, ``Show Proof``), ``Test`` (an option's value), ``Obligations``
(those left open) and ``Preterm`` (a ``Program`` term) print too (red team 31: refused as additions)."""
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
class RocqPolicy:
    """What a candidate may add (G2) and what it may never write (G3)."""

    permitted_additions: tuple[str, ...]
    permitted_libraries: tuple[str, ...]
    proof_commands_denied: tuple[str, ...]
    proof_commands_elaborating: tuple[str, ...]
    """Proof-mode commands whose effect outlives ``Qed`` and can change how later text elaborates."""
    forbidden_words: tuple[Rule, ...]
    forbidden_phrases: tuple[Rule, ...]
    sentence_rules: tuple[Rule, ...]
    """Constructs read by a sentence's command and attributes, not by a word (``sentence_rules.py``)."""
    recursion_words: tuple[Rule, ...]
    answer_choice_operators: tuple[str, ...]
    """Library constants (full names) a no-answer solution may not use: they pick "some value with the
    property" from a proof that one exists (or from classical choice) instead of stating the answer, as
    Lean's ``Classical.choose`` does. G4 looks for them in the compiled solution's kernel term."""
    answer_decision_operators: tuple[str, ...]
    """Library constants (full names) that decide any proposition classically (excluded middle made
    informative: a choice of branch). A value that branches on one is chosen by whether a property holds:
    a search testing the question's own property, ``find (fun n => if excluded_middle_informative (P n) then
    true else false) (seq 0 B)``, is ``ex_minn`` written out (red team 36), proved with a witness under the
    bound and evaluated by no tactic. No official answer uses one; decisions of real comparisons
    (``Rle_dec``, ``Req_EM_T``) decide no other proposition and are not listed (a realType's boolean
    comparisons are read by ``answer_reals.py`` instead, red team 37). A set or predicate answer
    may use them: a decided condition turned back into a proposition is the condition, and such answers
    meet ``restated.py``, which reads a decision back as its condition."""
    answer_limit_operators: tuple[str, ...]
    """Library operators that name a limit, integral, series, derivative or bound instead of its value (as
    Lean's extremal operators ``sInf``/``sSup`` do): the question's own expression copied as the answer
    (``RInt (...) 0 1`` for ``RInt (...) 0 1 = solution``) makes the theorem ``eq_refl``. No official
    PutnamBench answer uses one; G4 reads them from the same kernel-term print."""


def _rules(rule: str, reason: str, *constructs: str) -> tuple[Rule, ...]:
    return tuple(Rule(c, reason, rule) for c in constructs)


POLICY = RocqPolicy(
    permitted_additions=(*sorted(THEOREM_COMMANDS), "Goal", "Definition", "Fixpoint", "Ltac", "Require", "From"),
    permitted_libraries=("Coq.", "mathcomp.", "Coquelicot."),
    # Hints, options and tactic notations in proofs are judged by ``vernacular.classify`` instead, and
    # `Require`/`Import`/`Export`/`Open Scope`/`Close Scope` as reading commands (``scan.reads``).
    proof_commands_denied=(
        "Open",
        "Close",
        "Delimit",
        "Undelimit",
        "Remove",
        "Bind",
        "Notation",
        "Infix",
        "Reserved",
        "Arguments",
        "Coercion",
        "SubClass",
        "Identity",
        "Instance",
        "Existing",
        "Canonical",
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
        # `Derive Inversion NAME ...` and `Functional Scheme NAME := ...` declare constants under names of
        # their own, unread by G2 (`Derive Inversion Rabs ...` shadows the library's `Rabs`)
        "Derive",
        "Functional",
        "Universe",
        "Universes",
        "Constraint",
        # `Obligation Tactic := ...` (Coq accepts it in a proof) is replayed by `Require` in every file that
        # loads the candidate (measured with coqc 8.16); an obligation's own proof cannot open in a proof
        "Obligation",
    ),
    # ssreflect's `Prenex Implicits f` makes `f`'s implicit arguments maximal, as `Arguments` would
    # `Generalizable` is judged by ``vernacular.classify`` (a `Global` one is replayed by `Require`)
    proof_commands_elaborating=("Implicit", "Add", "Opaque", "Transparent", "Strategy", "Prenex"),
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
            "SubClass",
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
    forbidden_phrases=(
        *_rules("kernel", "disables a kernel check", "Guard Checking", "Positivity Checking", "Universe Checking"),
        *_rules(
            "kernel",
            "adds a typing rule (definitional UIP) that coqchk 8.16 does not report and that Coq's "
            "universe-variance bugs turn into a proof of False (rocq#22376)",
            "Definitional UIP",
        ),
    ),
    sentence_rules=(
        *_rules(
            "redefinition",
            "replaces a tactic of a library (tauto, lia, easy...) in every file that merely Requires the "
            "candidate, the harness's own check files included; no published proof needs it: define a tactic "
            "of your own name",
            "Ltac ::=",
            "Ltac2 Set",
        ),
        *_rules(
            "redefinition",
            "changes how tactics unfold a constant in every file that merely Requires the candidate (a "
            "`Strategy` that is not `Local`, a `Global` `Opaque`/`Transparent`; measured with coqc 8.16, even "
            "inside a proof or a section): the harness's answer check unfolds the solution and computes with "
            "`lra`/`lia`, so a wrong answer was no longer proved different and a disputed verdict became "
            "accepted; use `Local Strategy` or a plain `Opaque`, which stay in the candidate's file",
            "global Strategy",
            "Global Opaque",
        ),
        *_rules(
            "elaboration",
            "registers what the attribute names (a canonical structure, a typeclass instance, a coercion), as the "
            "`Canonical`, `Instance` and `Coercion` commands do: judged by what it registers, not by its spelling, "
            "it changes how later text elaborates (coqc 8.16 takes `#[canonical]` on a `Definition` and refuses "
            "the others there; a later Coq takes them all)",
            "#[canonical]/#[instance]/#[coercion]",
        ),
        *_rules(
            "elaboration",
            "declares typeclass instances (`Reflexive`, `Equivalence`, `Proper`...), as the `Instance` command "
            "does, or a translation for `lia`'s zify: either is in force in every file that merely Requires the "
            "candidate, the harness's answer check (which runs lia) included (measured with coqc 8.16: `Print "
            "Instances` and `Show Zify` there list them); a proof can use the relation's lemmas directly",
            "Add Relation/Setoid/Morphism/Zify",
        ),
        *_rules(
            "redefinition",
            "states its locality more than once (`#[local] #[global] Hint`, `#[local, global]`, `#[export] Local`, "
            '`Local Global`): coqc refuses the sentence ("Attribute for Locality specified twice", measured with '
            "8.16), while a text reading would take one of them, so every profile refuses it; write one locality",
            "locality twice",
        ),
        *_rules(
            "syntax",
            "declares a notation (a declaration's `where` clause), as `Notation` does: it changes what later "
            "text means",
            'where "..." :=',
        ),
        *_rules(
            "plugin",
            "writes the universe graph to the file it names, wherever the compile runs (a query that touches "
            "files, as `Redirect` does); print the universes without a file name",
            'Print Universes "file"',
        ),
        *_rules(
            "kernel",
            "declares the section variables a proof uses, which Coq 8.16 does not check against those its "
            "`abstract` subproofs use (rocq#19861, coqchk not affected): closing the section can leave an "
            "ill-typed lemma that coqc accepts, `False` from `Variable h : False` with no axiom. A profile "
            "that compiles (`fast`, `full`) has coqchk re-check the closed section instead (G4, "
            "`discharge.py`); the `text` profile cannot: let Coq find the variables (`Proof.`)",
            "Proof using (in a section)",
        ),
        *_rules(
            "kernel",
            "declares the section variables of every later proof, which Coq 8.16 does not check against those "
            "their `abstract` subproofs use (rocq#19861, coqchk not affected): closing a section can leave an "
            "ill-typed lemma that coqc accepts; let Coq find the variables (`Proof.`)",
            "Default Proof Using",
        ),
        *_rules(
            "kernel",
            "binds a primitive of a loaded plugin under a name and a type of the candidate's choosing, which Coq "
            'does not check: `"ltac2" "constr_make"` is Ltac2\'s unsafe term constructor, which builds any '
            "term, fixpoints included, with neither `Unsafe` nor a recursion keyword in the text (measured with "
            "coqc 8.16, in a proof); use the Ltac2 library's own functions",
            "Ltac2 @ external",
        ),
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
        # read by the sentence (`sentence_rules.mutual_theorem`): its construct is no single word
        *_rules(
            "recursion",
            "a mutual theorem makes Coq build a fixpoint of its statements, in which each is a hypothesis of "
            "the other's proof; the guard checker of this Coq can be fooled by it into proving False; prove "
            "the statements one after the other, by induction",
            "Lemma ... with ...",
        ),
    ),
    answer_choice_operators=(
        "Coq.Logic.Epsilon.epsilon",
        "Coq.Logic.Epsilon.iota",
        "Coq.Logic.Epsilon.constructive_indefinite_description",
        "Coq.Logic.Epsilon.constructive_definite_description",
        "Coq.Logic.ClassicalEpsilon.epsilon",
        "Coq.Logic.ClassicalEpsilon.constructive_indefinite_description",
        "Coq.Logic.ClassicalEpsilon.classical_indefinite_description",
        "Coq.Logic.ClassicalEpsilon.constructive_definite_description",
        "Coq.Logic.ClassicalDescription.iota",
        "Coq.Logic.ClassicalDescription.classical_definite_description",
        "Coq.Logic.Description.constructive_definite_description",
        "Coq.Logic.IndefiniteDescription.constructive_indefinite_description",
        "Coq.Logic.IndefiniteDescription.constructive_definite_description",
        "Coq.Logic.ConstructiveEpsilon.constructive_indefinite_ground_description_nat",
        "Coq.Logic.ConstructiveEpsilon.constructive_indefinite_ground_description_nat_Acc",
        "Coq.Logic.ConstructiveEpsilon.constructive_indefinite_ground_description_nat_direct",
        "Coq.Logic.ConstructiveEpsilon.constructive_ground_epsilon_nat",
        "Coq.Logic.ConstructiveEpsilon.epsilon_smallest",
        "Coq.Logic.ConstructiveEpsilon.epsilon_smallest_direct",
        "Coq.Logic.ConstructiveEpsilon.linear_search_from_0",
        "Coq.Logic.ConstructiveEpsilon.constructive_indefinite_ground_description",
        "Coq.Logic.ConstructiveEpsilon.constructive_definite_ground_description",
        "Coq.Logic.ConstructiveEpsilon.constructive_ground_epsilon",
        "mathcomp.ssreflect.choice.xchoose",
        "mathcomp.ssreflect.choice.choose",
        "mathcomp.ssreflect.ssrnat.ex_minn",
        "mathcomp.ssreflect.ssrnat.ex_maxn",
        "mathcomp.classical.classical_sets.xget",
        "mathcomp.classical.boolp.constructive_indefinite_description",
        "Coquelicot.Hierarchy.iota",
        # the complete-space class's own limit of a filter (`iota` and `lim` unfold to it): read as its
        # field, its constructor in a match, or its recursors, it is `iota` by another name
        "Coquelicot.Hierarchy.CompleteSpace.lim",
        "Coquelicot.Hierarchy.CompleteSpace.Mixin",
        "Coquelicot.Hierarchy.CompleteSpace.mixin_of_rect",
        "Coquelicot.Hierarchy.CompleteSpace.mixin_of_rec",
        # `xget` under other names: `fun_of_rel f0 f x := xget (f0 x) (f x)`, `pblock_index ... := [get i | ...]`
        "mathcomp.classical.classical_sets.fun_of_rel",
        "mathcomp.classical.classical_sets.pblock_index",
        # a value taken out of a proof-carrying package (`{x | P x}`, `{x & P x}`): by projection or by a
        # match on its constructor, whatever lemma or axiom made the package (Epsilon's own
        # `epsilon_statement` axiom, `iota_statement`, mathcomp's `sigW`, boolp's `cid2`...)
        "Coq.Init.Specif.proj1_sig",
        "Coq.Init.Specif.projT1",
        "Coq.Init.Specif.exist",
        "Coq.Init.Specif.existT",
        "Coq.Init.Specif.exist2",
        "Coq.Init.Specif.existT2",
        # ssreflect's names for the same projections (`tag := projT1`, `tag2`/`s2val` match on `existT2`/`exist2`):
        # `tag (sigT_of_sig (completeness E hb he))` is the least upper bound by choice
        "Coq.ssr.ssrfun.tag",
        "Coq.ssr.ssrfun.tag2",
        "Coq.ssr.ssrfun.s2val",
        "Coq.Init.Specif.sig_rect",
        "Coq.Init.Specif.sig_rec",
        "Coq.Init.Specif.sigT_rect",
        "Coq.Init.Specif.sigT_rec",
        "Coq.Init.Specif.sig2_rect",
        "Coq.Init.Specif.sig2_rec",
        "Coq.Init.Specif.sigT2_rect",
        "Coq.Init.Specif.sigT2_rec",
        "Coq.Logic.Epsilon.epsilon_statement",
        "Coq.Logic.Epsilon.iota_statement",
        "mathcomp.ssreflect.choice.xchoose_subproof",
        "mathcomp.ssreflect.choice.sigW",
        "mathcomp.ssreflect.choice.sig2W",
        "mathcomp.ssreflect.choice.sig_eqW",
        "mathcomp.ssreflect.choice.sig2_eqW",
        "mathcomp.classical.boolp.cid2",
        # boolp's classical choice structure for every type (its `find` picks a witness) and the record
        # `classic` that holds it with `pselect`, read as a constant or destructured (red team 36)
        "mathcomp.classical.boolp.gen_choiceMixin",
        "mathcomp.classical.boolp.Prop_choiceType",
        "mathcomp.classical.boolp.classicType_choiceType",
        "mathcomp.classical.boolp.eclassicType_choiceType",
        "mathcomp.classical.boolp.classic",
        "mathcomp.classical.boolp.Build_mclassic",
        # the same classical choice structure on functions (`gen_choiceMixin`, red team 37)
        "mathcomp.classical.boolp.arrow_choiceType",
        "mathcomp.classical.boolp.dep_arrow_choiceClass",
        "mathcomp.classical.boolp.dep_arrow_choiceType",
        *CHOICE_ALIASES,
    ),
    answer_decision_operators=(
        "Coq.Logic.ClassicalDescription.excluded_middle_informative",
        "Coq.Logic.ClassicalEpsilon.excluded_middle_informative",
        "Coq.Logic.ChoiceFacts.constructive_definite_descr_excluded_middle",
        "Coq.Reals.Rlogic.sig_not_dec",
        "Coq.Reals.Rlogic.sig_forall_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_not_dec",
        "Coq.Reals.ClassicalDedekindReals.sig_forall_dec",
        "Coquelicot.Markov.LPO",
        "Coquelicot.Markov.LPO_min",
        "Coquelicot.Markov.LPO_bool",
        "Coquelicot.Markov.LPO_ub_dec",
        "Coquelicot.Markov.EM_dec",
        "Coquelicot.Markov.EM_dec'",
        "mathcomp.classical.boolp.pselect",
        "mathcomp.classical.boolp.pselectT",
        "mathcomp.classical.boolp.asbool",
        "mathcomp.classical.boolp.pred0p",
        # `==` on `Prop` and on `classicType T` is `asbool (x = y)` (boolp's `gen_eq`)
        "mathcomp.classical.boolp.gen_eq",
        "mathcomp.classical.boolp.gen_eqMixin",
        "mathcomp.classical.boolp.Prop_eqType",
        "mathcomp.classical.boolp.classicType_eqType",
        # `x \in A` for a classical set `A` is `asbool (A x)` (classical_sets' `in_set`)
        "mathcomp.classical.classical_sets.set_predType",
        "mathcomp.classical.classical_sets.in_set",
        # red team 37, each `asbool` of a proposition: `==` on functions (`gen_eq`), the pointwise order on
        # functions (`lef f g := asbool (forall x, f x <= g x)`), the order on classical sets, cardinal
        # comparisons, and a realType's integers (`Rint`)
        "mathcomp.classical.boolp.arrow_eqType",
        "mathcomp.classical.boolp.dep_arrow_eqType",
        "mathcomp.classical.boolp.FunOrder.lef",
        "mathcomp.classical.boolp.FunOrder.ltf",
        "mathcomp.classical.boolp.FunOrder.porderMixin",
        "mathcomp.classical.boolp.FunOrder.porderType",
        "mathcomp.classical.boolp.FunOrder.latticeMixin",
        "mathcomp.classical.boolp.FunOrder.latticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.orderMixin",
        "mathcomp.classical.classical_sets.SetOrder.Internal.porderType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.latticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.distrLatticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.bLatticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.tbLatticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.bDistrLatticeType",
        "mathcomp.classical.classical_sets.SetOrder.Internal.tbDistrLatticeType",
        "mathcomp.classical.cardinality.card_le",
        "mathcomp.classical.cardinality.card_eq",
        "mathcomp.analysis.reals.Rint",
    ),
    answer_limit_operators=(
        "Coquelicot.RInt.RInt",
        "Coquelicot.RInt_gen.RInt_gen",
        "Coquelicot.Series.Series",
        "Coquelicot.PSeries.PSeries",
        "Coquelicot.Lim_seq.Lim_seq",
        "Coquelicot.Lim_seq.LimSup_seq",
        "Coquelicot.Lim_seq.LimInf_seq",
        "Coquelicot.Lim_seq.Sup_seq",
        "Coquelicot.Lim_seq.Inf_seq",
        "Coquelicot.Continuity.Lim",
        "Coquelicot.Hierarchy.lim",
        "Coquelicot.Hierarchy.lim_fct",
        "Coquelicot.Hierarchy.R_complete_lim",
        "Coquelicot.Complex.C_complete_lim",
        "Coquelicot.Complex.C_lim",
        "Coquelicot.Complex.C_derive",
        "Coquelicot.KHInt.KHInt",
        "Coquelicot.PSeries.CV_radius",
        "Coquelicot.Derive_2d.partial_derive",
        "Coquelicot.AutoDerive.Derive_Rn",
        "Coquelicot.Lub.Lub_Rbar",
        "Coquelicot.Lub.Glb_Rbar",
        "Coquelicot.Lub.Rbar_lub",
        "Coquelicot.Lub.Rbar_glb",
        "Coquelicot.Derive.Derive",
        "Coquelicot.Derive.Derive_n",
        "Coq.Reals.Ranalysis1.derive",
        "Coq.Reals.Ranalysis1.derive_pt",
        "Coq.Reals.RiemannInt.RiemannInt",
        "Coq.Reals.SeqProp.lub",
        "Coq.Reals.SeqProp.glb",
        "Coq.Reals.SeqProp.sequence_ub",
        "Coq.Reals.SeqProp.sequence_lb",
        "mathcomp.analysis.reals.sup",
        "mathcomp.analysis.reals.inf",
        "mathcomp.classical.classical_sets.supremum",
        "mathcomp.classical.classical_sets.infimum",
        "mathcomp.analysis.ereal.ereal_sup",
        "mathcomp.analysis.ereal.ereal_inf",
        "mathcomp.analysis.topology.lim_in",
        "mathcomp.analysis.sequences.lim_sup",
        "mathcomp.analysis.sequences.lim_inf",
        "mathcomp.analysis.lebesgue_integral.integral",
        "mathcomp.analysis.esum.esum",
        "mathcomp.analysis.derive.derive",
        *LIMIT_ALIASES,
    ),
)
