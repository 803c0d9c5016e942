"""The Lean submission policy: what a candidate may add to the challenge (G2) and what it may never
contain (G3), as data (:data:`POLICY`); the Markdown that ``putnam policy`` prints, with its classification
of every kind of addition, is made from it outside the trusted package (``kits.lean.policy_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from putnam_solver.core.provers.lean._aesop_code import CONSTRUCT as AESOP_CODE_CONSTRUCT
from putnam_solver.core.provers.lean._aesop_code import REASON as AESOP_CODE_REASON
from putnam_solver.core.provers.lean._brackets import CONSTRUCT as BRACKET_CONSTRUCT
from putnam_solver.core.provers.lean._brackets import REASON as BRACKET_REASON
from putnam_solver.core.provers.lean._choice_aliases import CHOICE_ALIASES, EXTREMAL_ALIASES
from putnam_solver.core.provers.lean._evaluated import TRACE_CONSTRUCT, TRACE_REASON, VALUE_CONSTRUCT, VALUE_REASON
from putnam_solver.core.provers.lean._file_reads import EFFECT_REASON, EFFECTS, FILE_READING
from putnam_solver.core.provers.lean._grind_attribute import GRIND_ATTRIBUTES
from putnam_solver.core.provers.lean._literals import CONSTRUCT as INTERPOLATION_CONSTRUCT
from putnam_solver.core.provers.lean._literals import REASON as INTERPOLATION_REASON
from putnam_solver.core.provers.lean._operators import ANALYSIS_OPERATORS, DECISION_OPERATORS, EXTREMAL_OPERATORS
from putnam_solver.core.provers.lean._resumed_names import CONSTRUCT as RESUMED_CONSTRUCT
from putnam_solver.core.provers.lean._resumed_names import REASON as RESUMED_REASON
from putnam_solver.core.provers.lean._tactic_config import CONFIG_CONSTRUCT, CONFIG_REASON
from putnam_solver.core.provers.lean.syntax import normalize_name


@dataclass(frozen=True)
class PermittedAddition:
    construct: str
    note: str


@dataclass(frozen=True)
class ForbiddenRule:
    """``construct`` is what the scanner matches; ``reason`` says why. A ``word`` rule matches a whole
    token or a whole ``.``-separated name part; the others are patterns :func:`scan_forbidden` knows."""

    construct: str
    rule: str
    reason: str
    word: bool = True


@dataclass(frozen=True)
class LeanPolicy:
    """What a Lean candidate may add to the challenge (G2) and what it may never contain (G3)."""

    allowed_options: tuple[str, ...]
    allowed_option_prefixes: tuple[str, ...]
    """Option families that only steer warnings (``linter.``) or printing (``pp.``, ``trace.``): harmless anywhere."""
    excluded_options: tuple[str, ...]
    """Options (and their sub-options) under an allowed prefix that are not harmless."""
    elaboration_options: tuple[str, ...]
    """Options that steer how terms elaborate: a global one is left to G6 (refused without it)."""
    read_only_commands: tuple[str, ...]
    """Commands that only print (``#print``, ``#check``): they add nothing to the environment."""
    helper_keywords: tuple[str, ...]
    helper_modifiers: tuple[str, ...]
    helper_attributes: tuple[str, ...]
    permitted: tuple[PermittedAddition, ...]
    forbidden: tuple[ForbiddenRule, ...]
    choice_operators: tuple[str, ...]
    """Names a no-answer solution value may not use: they pick "some value with the property" from a
    proof that one exists, instead of stating the answer. Only full names are matched: ``choose`` alone
    or ``n.choose k`` is usually ``Nat.choose`` (a binomial coefficient, in official answers)."""
    analysis_operators: tuple[str, ...]
    """Names and notations (see :data:`ANALYSIS_OPERATORS`) a no-answer solution value may not use: the
    integral, series or derivative the question asks to evaluate, not its value."""

    def forbidden_words(self) -> dict[str, ForbiddenRule]:
        """Rules matched against whole tokens and whole name parts."""
        return {r.construct: r for r in self.forbidden if r.word}

    def rule(self, construct: str) -> ForbiddenRule:
        return next(r for r in self.forbidden if r.construct == construct)


_OUTPUT_OPTIONS = ("diagnostics", "diagnostics.threshold", "profiler", "profiler.threshold", "grind.warning")
"""Options that change only what Lean prints, registered in leanprover/lean4 (``register_builtin_option``):
``diagnostics`` ("collect diagnostic information") and ``diagnostics.threshold`` (which counters are
reported) in src/Lean/CoreM.lean; ``profiler`` ("show execution times") and ``profiler.threshold`` (which
times are reported) in src/Lean/Util/Profile.lean; ``grind.warning`` (a warning whenever ``grind`` is used)
in src/Lean/Meta/Tactic/Grind/Types.lean. ``trace.<class>`` options (:data:`_OPTION_PREFIXES`) are those
``registerTraceClass`` registers and ``trace.profiler*`` in src/Lean/Util/Trace.lean: each adds trace
messages, which ``lean --json`` prints as JSON messages like ``#check``'s (G4 reads exit code and error
severities only; comparator's output can only lose by more text, ``comparator_output``)."""
_OPTIONS = (
    "maxHeartbeats",
    "maxRecDepth",
    "synthInstance.maxHeartbeats",
    "exponentiation.threshold",
    *_OUTPUT_OPTIONS,
)
_OPTION_PREFIXES = ("linter.", "pp.", "trace.")
_OPTION_EXCLUDED = ("trace.profiler.output",)
"""Under an allowed prefix but not output-only: ``trace.profiler.output`` (a ``String``, src/Lean/Util/
Trace.lean) names a file Lean writes the profile to, and ``trace.profiler.output.pp`` shapes that file.
Any option with a ``debug`` part (``trace.Debug.Meta.Tactic.simp``, ``trace.grind.debug``, a library's
``trace.debug``) is refused too: debugging classes exist to run extra code, not only to print."""
_ELABORATION_OPTIONS = ("tactic.hygienic", "synthInstance.maxSize")
"""``synthInstance.maxSize`` is not a resource cap: an instance whose answer is that large is dropped and
the search goes on (leanprover/lean4 src/Lean/Meta/SynthInstance.lean, ``addAnswer``), so a smaller,
lower-priority instance can be the one the statement gets (checked on Lean 4.35 with the toy toolchain:
``set_option synthInstance.maxSize 1 in`` turned a false statement into one ``rfl`` proves)."""
_READ_ONLY = ("#print", "#check")
_HOLE = "proof hole"
_NATIVE = "native code: trusts the compiler, not the kernel"
_META = "meta-programming: can change the environment or the elaborator"
_PARSE = "syntax extension: the same text could mean something else"
_ELAB = "changes how the statement elaborates"
RUNNER_CONSTRUCT: Final = "run_* tactic"
RUNNER_PREFIXES: Final = ("run_",)
"""Red team 29: the prefix of the tactics that run a do-block as meta code (core's ``run_tac``, Mathlib's
``run_conv``, Qq's ``run_tacq``): a one-part word with it where a tactic may begin is refused, so that a
library's next variant is refused with them (as a name in a term's or binder's place it stays)."""
RUNNER_REASON: Final = (
    "a `run_...` tactic (`run_tac`, Mathlib's `run_conv`, Qq's `run_tacq`...) runs its do-block in Lean's "
    f"interpreter ({_META})"
)


def _words(rule: str, reason: str, *words: str) -> tuple[ForbiddenRule, ...]:
    return tuple(ForbiddenRule(w, rule, reason) for w in words)


TYPE_KEYWORDS: Final = ("inductive", "structure", "class")
HELPER_ATTRIBUTES: Final = (
    "simp",
    "reducible",
    "irreducible",
    "inline",
    "noinline",
    "specialize",
    *GRIND_ATTRIBUTES,
    "aesop",  # round 29: with rule expressions that name no code (`_aesop_clauses.aesop_rule_arguments`)
)
"""What a declaration of the candidate's own may carry in ``@[...]`` (see ``_attributes``): the simp set,
``grind``'s theorem set (red team 27), its own reducibility, compiler hints; each can change only the proofs
after it, never the statement."""
DERIVING_HANDLERS: Final = ("DecidableEq", "Repr", "BEq", "Hashable", "Inhabited", "Nonempty", "Ord", "Fintype")
"""Instance handlers a helper type may derive: library code that makes instances for that new type."""


POLICY: Final = LeanPolicy(
    allowed_options=_OPTIONS,
    allowed_option_prefixes=_OPTION_PREFIXES,
    excluded_options=_OPTION_EXCLUDED,
    elaboration_options=_ELABORATION_OPTIONS,
    read_only_commands=_READ_ONLY,
    # round 34: Mathlib's `irreducible_def n := v` (Mathlib/Tactic/IrreducibleDef.lean) declares a hygienic
    # `definition := v`, an `opaque wrapped : Subtype (Eq definition) := ⟨_, rfl⟩` whose value the kernel
    # checks like a definition's (leanprover/lean4 src/kernel/environment.cpp, `add_opaque`) and that is no
    # axiom, `n := wrapped.val` and the theorem `n_def`: no more than a `def` and a `theorem` can do
    helper_keywords=("theorem", "lemma", "def", "abbrev", "irreducible_def", *TYPE_KEYWORDS),
    # `nonrec` (leanprover/lean4 src/Lean/Parser/Command.lean, `declModifiers`: `("partial" <|> "nonrec")?`)
    # only keeps the declaration's name out of its own body (no recursion: the name there is the outer one)
    helper_modifiers=("private", "protected", "noncomputable", "nonrec"),
    helper_attributes=HELPER_ATTRIBUTES,
    permitted=(
        PermittedAddition(
            "`theorem`, `lemma`, `def`, `abbrev`, Mathlib's `irreducible_def`",
            "with optional docstring, attributes of its own (`@[simp]`, `@[reducible]`, `@[irreducible]`, "
            "`@[inline]`, `@[noinline]`, `@[specialize]`, `@[grind]` with its modifiers, `@[aesop]` with rule "
            "expressions but the `tactic` builder, each may be `local`), and "
            "`private` / `protected` / `noncomputable` / `nonrec`, before the "
            "theorem or after its proof; the name must be an identifier that the challenge neither declares "
            "nor mentions (not even as a variable): a helper cannot shadow the theorem or a solution, or "
            "become what a name in the statement resolves to (a name reached through `open`, an auto-bound "
            "variable; `irreducible_def n` declares `n_def` too); before the theorem, a dotted name or one in a "
            "namespace other than the problem's own could hijack dot notation and is left to G6; a helper may be "
            "prefixed by `attribute [local simp] x in` (a local attribute that ends with it)",
        ),
        PermittedAddition(
            "`inductive`, `structure`, `class`",
            "a new type under the same naming rules, with an optional `deriving` clause of "
            f"{', '.join(DERIVING_HANDLERS)}: it declares the type, its constructors or fields, and instances "
            "for that type only, which nothing in the statement refers to; a `class` without `extends` and "
            "`[...]` fields (which Lean makes instances), no `class inductive` or `class abbrev`",
        ),
        PermittedAddition(
            "`example`, `mutual ... end`",
            "an `example` (with the helpers' prefixes) leaves nothing in the environment, Lean elaborates it "
            "and drops it; a `mutual` block of helpers declares only them",
        ),
        PermittedAddition(
            "`[local|scoped] grind_pattern NAME => PATTERN, ...`",
            "an E-matching pattern for a theorem, read only by the `grind` tactic, which builds proofs the "
            "kernel checks (like `@[grind]`): the statement names no pattern",
        ),
        PermittedAddition(
            "`set_option NAME VALUE in`",
            f"before a helper or before the theorem, or as a global command, NAME one of "
            f"{', '.join(_OPTIONS)} or a `linter.*`, `pp.*` or `trace.*` option "
            "(no `trace.profiler.output`, no `debug` part); "
            "before a helper or inside a proof also "
            "`autoImplicit` or `relaxedAutoImplicit` (they act on that helper's signature only) and the tactic "
            "search options `simprocs` and `push_neg.use_distrib`; as a global command also `autoImplicit false` "
            "and `relaxedAutoImplicit false` (where the benchmark turns `autoImplicit` on, left to G6) and "
            "`Elab.async false`",
        ),
    ),
    choice_operators=(
        "Classical.choose",
        "Classical.choice",
        "Classical.epsilon",
        "Classical.indefiniteDescription",
        "Exists.choose",
        "Nat.find",
        "Classical.strongIndefiniteDescription",
        "Function.invFun",
        "PNat.find",
        "Nat.findX",
        "Encodable.choose",
        "Encodable.chooseX",
        "Fintype.choose",
        "Fintype.chooseX",
        "Finset.choose",
        "Finset.chooseX",
        "Classical.arbitrary",
        "Classical.ofNonempty",
        "Quotient.out",
        "Quot.out",
        "Trunc.out",
        "Classical.inhabited_of_nonempty",
        "Classical.subtype_of_exists",
        "Multiset.choose",
        "List.choose",
        "Function.partialInv",
        "Equiv.ofBijective",
        # choice reached through a library definition: `invFunOn f s b` and `extend f g e b` pick an `a`
        # with `f a = b` by `Classical.choose`, `rangeSplitting` a preimage; `Nat.nth p 0` is the least `n`
        # with `p n` (an `sInf`), `Nat.Subtype.ofNat s 0` the least element of `s` (a `Nat.find`); the inverse
        # of `Equiv.ofInjective` and `Set.Infinite.natEmbedding` pick an element by `Classical.choice`
        "Function.invFunOn",
        "Function.extend",
        "Set.rangeSplitting",
        "Quotient.out'",
        "Nat.nth",
        "Nat.Subtype.ofNat",
        "Equiv.ofInjective",
        "Infinite.natEmbedding",
        # red team 12: `Function.sometimes f` is `f (Classical.choice h)` for a nonempty domain (with
        # `f := Subtype.val` on `{x // P x}`, an `x` with `P x`); `Multiset.toList` is `Quot.out` (an order
        # picked by choice), so `s.toList.headI` is an element of a finite set, and `Finset.sort` then
        # `head` its least one (a `Finset.min'`)
        "Function.sometimes",
        # red team 14, each accepted by the text profile: an element picked through an equivalence or an
        # enumeration made by choice (`(Fintype.equivFin S).symm 0` is `Trunc.out`, `Finite.equivFin`
        # `Classical.choice`; `Denumerable.ofNat {n // P n} 0` is the least `n` with `P n` through an
        # instance, `Ordinal.enum` an element of a given rank, `invOfMemRange` a preimage, `denseSeq` and
        # `enumerateCountable` a sequence picked by choice), a root picked by `Classical.choose`
        "Fintype.equivFin",
        "Finite.equivFin",
        "Denumerable.ofNat",
        "Ordinal.enum",
        "Function.Embedding.invOfMemRange",
        "TopologicalSpace.denseSeq",
        "Set.enumerateCountable",
        "Polynomial.rootOfSplits",
        "Multiset.toList",
        "Finset.toList",
        "Finset.sort",
        "Multiset.sort",
        # red team 16, accepted by the text profile: `Nat.Subtype.ofNat` (a `Nat.find`) under other names,
        # whose value at `0` is the least element of an infinite set of naturals, and the index where an
        # eventually constant sequence settles (an `sInf`) with its value there
        "Nat.Subtype.orderIsoOfNat",
        "Nat.orderEmbeddingOfSet",
        "monotonicSequenceLimitIndex",
        "monotonicSequenceLimit",
        *EXTREMAL_OPERATORS,
        *DECISION_OPERATORS,
        # value red team 41: the names a scan of Mathlib found (`_choice_aliases`, each with its definition)
        *CHOICE_ALIASES,
        *EXTREMAL_ALIASES,
    ),
    analysis_operators=ANALYSIS_OPERATORS,
    forbidden=(
        # `stop` is core Lean's `repeat sorry` (Init/Tactics.lean): the rest of the proof discarded.
        # Red team 19: `plausible` (Mathlib's `slim_check` before it) never proves a goal: it fails on a
        # counterexample and otherwise closes the goal with `sorry` (`admitGoal`). `apply?` is not here:
        # it closes the goal with the proof it finds when it finds one (published proofs rely on it) and
        # admits it only otherwise, with the `sorry` warning and axiom that G4 and G5 refuse.
        *_words(
            _HOLE,
            "an unfinished proof is not a proof",
            "sorry",
            "admit",
            "sorryAx",
            "stop",
            "plausible",
            "slim_check",
        ),
        *_words("axiom", "adds an unproved assumption", "axiom"),
        *_words(
            "native",
            _NATIVE,
            "native_decide",
            "native",
            "bv_decide",
            "bv_check",
            "ofReduceBool",
            "ofReduceNat",
            "reduceBool",
            "reduceNat",
            "trustCompiler",
            "implemented_by",
            "extern",
            "csimp",
        ),
        # Red team 22: the compiler's markers in Lean's prelude (src/Init/Prelude.lean) are `unsafe axiom`s,
        # `lcProof {α : Prop} : α` ("every proposition is true"), `lcUnreachable {α : Sort u} : α` and
        # `lcCast (a : α) : β`: a `sorry` by another name, in scope with no `open`. The kernel refuses them in
        # a safe declaration (G4: "uses unsafe declaration"), so no sound proof names them, but the text
        # profile accepted `decreasing_by all_goals exact lcProof`, as it would `unsafeCast`.
        *_words(
            "unsafe",
            "escapes the kernel's checks",
            "unsafe",
            "partial",
            "opaque",
            "unsafeCast",
            "lcProof",
            "lcUnreachable",
            "lcCast",
        ),
        *_words(
            "kernel",
            "disables or bypasses kernel checking",
            "skipKernelTC",
            "prelude",
            "addDecl",
            "addAndCompile",
            "Environment",
        ),
        *_words(
            "meta",
            _META,
            "run_cmd",
            "run_elab",
            "run_meta",
            "run_tac",
            "by_elab",
            # red team 29: the same runners in libraries every Mathlib file has: Mathlib's conv tactic
            # `run_conv` (Mathlib/Tactic/Conv.lean: `conv| tactic' => run_tac $e`) and Qq's `run_tacq` and
            # `by_elabq` (Qq/Commands.lean: `unsafe evalExpr (TacticM Unit)`, `(TermElabM Expr)`); another
            # `run_...` word where a tactic may begin is refused by its prefix (`RUNNER_CONSTRUCT`)
            "run_conv",
            "run_tacq",
            "by_elabq",
            "elab",
            "elab_rules",
            "initialize",
            "builtin_initialize",
            # red team 28: library commands that expand to `initialize` (code Lean runs when the module
            # is imported): core's `register_simp_attr` (src/Lean/Meta/Tactic/Simp/RegisterCommand.lean),
            # `register_option`, `register_builtin_option` (src/Lean/Data/Options.lean),
            # `register_label_attr` (src/Lean/LabelAttribute.lean), Aesop's `declare_aesop_rule_sets`
            "register_simp_attr",
            "register_option",
            "register_builtin_option",
            "register_label_attr",
            "declare_aesop_rule_sets",
            "simproc",
            "dsimproc",
            # red team 22: the other commands whose body is a simplification or `grind` procedure, code that
            # runs inside `simp`/`cbv`/`grind` (src/Init/Simproc.lean, src/Init/CbvSimproc.lean, src/Init/Grind)
            "builtin_simproc",
            "builtin_dsimproc",
            "simproc_decl",
            "dsimproc_decl",
            "builtin_simproc_decl",
            "builtin_dsimproc_decl",
            "cbv_simproc_decl",
            "builtin_cbv_simproc_decl",
            "grind_propagator",
            "builtin_grind_propagator",
            "elab_stx_quot",
            "set_premise_selector",
            "MetaM",
            "TacticM",
            "TermElabM",
            "CommandElabM",
            "CoreM",
            "evalExpr",
            "throwError",
            "throwErrorAt",
            "dbg_trace",
            "dbgTrace",
        ),
        *_words(
            "syntax",
            _PARSE,
            "macro",
            "macro_rules",
            "syntax",
            "declare_syntax_cat",
            "notation",
            "notation3",
            "infix",
            "infixl",
            "infixr",
            "prefix",
            "postfix",
            "binder_predicate",
        ),
        *_words(
            "elaboration",
            _ELAB,
            "instance",
            "attribute",
            "export",
            "unif_hint",
            "autoImplicit",
            "relaxedAutoImplicit",
        ),
        *(ForbiddenRule(*words) for words in FILE_READING),
        *_words("meta", EFFECT_REASON, *EFFECTS),  # red team 27 (`_file_reads.EFFECTS`)
        ForbiddenRule(VALUE_CONSTRUCT, "meta", VALUE_REASON, False),  # red team 27 (`_evaluated`)
        ForbiddenRule(TRACE_CONSTRUCT, "meta", TRACE_REASON, False),  # red team 27 (`_evaluated`)
        ForbiddenRule(RUNNER_CONSTRUCT, "meta", RUNNER_REASON, False),  # red team 29 (`_forbidden`)
        ForbiddenRule(AESOP_CODE_CONSTRUCT, "meta", AESOP_CODE_REASON, False),  # red team 31 (`_aesop_code`)
        ForbiddenRule(BRACKET_CONSTRUCT, "parse", BRACKET_REASON, False),  # red team 34 (`_brackets`)
        ForbiddenRule(INTERPOLATION_CONSTRUCT, "parse", INTERPOLATION_REASON, False),  # red team 41 (`_literals`)
        ForbiddenRule(RESUMED_CONSTRUCT, "parse", RESUMED_REASON, False),  # red team 49 (`_resumed_names`)
        ForbiddenRule("Lean.*", "meta", f"the `Lean` namespace is the elaborator and kernel API ({_META})", False),
        ForbiddenRule(  # red team 28: Aesop's rule builders (Aesop/Builder/Tactic.lean, Default.lean)
            "Aesop.*",
            "meta",
            "the `Aesop` namespace is Aesop's rule API: `aesop (add safe x)` runs a declaration `x` of type "
            "`Aesop.RuleTac`, `SingleRuleTac` or `TacGen` (whose strings Aesop parses and runs as tactics) "
            f"in the interpreter ({_META})",
            False,
        ),
        ForbiddenRule(
            "#command",
            "meta",
            "`#eval`, `#exit`, `#reduce`...: run code or end the file early (only the read-only "
            f"{', '.join(f'`{c}`' for c in _READ_ONLY)} may stand, `#print axioms` included); Mathlib's card "
            "notation is read before a one-letter name (`#s`), `#(...)` or `#{...}`: write `#(univ)`, not `#univ`",
            False,
        ),
        ForbiddenRule(
            "eval%",
            "meta",
            f"Mathlib's `eval% e` runs `e` in the interpreter while elaborating ({_META})",
            False,
        ),
        ForbiddenRule("open private", "elaboration", "exposes private declarations of other modules", False),
        ForbiddenRule(CONFIG_CONSTRUCT, "native", CONFIG_REASON, False),  # red team 24 (`_tactic_config`)
        ForbiddenRule(
            "@[attribute]",
            "attribute",
            "on any declaration, `where` and `let rec` ones inside proofs included, only `simp`, `reducible`, "
            "`irreducible`, `inline`, `noinline`, `specialize`, `grind` (the simp and grind sets, the "
            "declaration's own reducibility, compiler hints: on the candidate's own helper they can only help "
            "later proofs; an instance or a pinned answer keeps only `simp`): other attributes run code at load time "
            "(`init`), replace compiled code (`implemented_by`, `extern`, `csimp`), change elaboration "
            "(`instance`, `default_instance`, `coe`, `macro`, `*_elab`) or generate declarations "
            "(`to_additive`, `simps`)",
            False,
        ),
        ForbiddenRule(
            "set_option",
            "option",
            f"only {', '.join(_OPTIONS)}, `linter.*`, `pp.*`, `trace.*` "
            "(no `trace.profiler.output`, no `debug` part) and (left to G6) "
            f"{', '.join(_ELABORATION_OPTIONS)} may be set; others disable checks (debug.*) or change elaboration",
            False,
        ),
    ),
)


def option_allowed(name: str, policy: LeanPolicy) -> bool:
    """Whether ``policy`` lets a candidate set the option ``name`` (G2 and G3 both ask)."""
    name = normalize_name(name)
    if any(name == x or name.startswith(f"{x}.") for x in policy.excluded_options):
        return False
    if any(part.lower() == "debug" for part in name.split(".")):
        return False
    return name in policy.allowed_options or any(name.startswith(p) for p in policy.allowed_option_prefixes)


def elaboration_option(name: str, policy: LeanPolicy) -> bool:
    """Whether ``name`` is an option that can change elaboration but not escape the kernel: allowed by
    G3, left to G6 by G2 when set globally."""
    return normalize_name(name) in policy.elaboration_options
