"""The Lean submission policy: what a candidate may add to the challenge (G2) and what it may never
contain (G3), as data (:data:`POLICY`), with the classification of additions (:data:`ADDITIONS`); the
Markdown that ``putnam policy`` prints is made from it outside the trusted package
(``kits.lean.policy_text``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from putnam_solver.core.provers.lean.syntax import normalize_name


@dataclass(frozen=True)
class PermittedAddition:
    construct: str
    note: str


@dataclass(frozen=True)
class Addition:
    """One kind of difference from the challenge and how G2 judges it: ``harmless`` (accepted on every
    profile), ``elaboration`` (accepted only where G6 runs in the same acceptance) or ``refused``."""

    kind: str
    verdict: str
    reason: str


_CANNOT: Final = "harmless"
_NEEDS_G6: Final = "elaboration"
ADDITIONS: Final = (
    Addition("a missing or edited docstring", _CANNOT, "documentation is not part of the statement's meaning"),
    Addition("comments", _CANNOT, "the lexer drops them; Lean never reads them"),
    Addition(
        "layout (line breaks, indentation, spaces around operators and inside brackets)",
        _CANNOT,
        "Lean's parser checks whitespace only at `x[i]`, `h.1`, `f.{u}`, `x@p`, `(.f)`, `!`/`?` after an "
        "index and before application arguments; there it is compared",
    ),
    Addition(
        "`noncomputable` on an answer `abbrev`, `noncomputable section`",
        _CANNOT,
        "turns off code generation only; the kernel sees the same definitions",
    ),
    Addition(
        "`namespace X ... end X` closed before the theorem",
        _CANNOT,
        "helpers inside get the name X.h; one named like any part of a statement name is refused (dot "
        "notation could find it), and one in a namespace the statement names or opens is left to G6",
    ),
    Addition("`section ... end`, also around the theorem", _CANNOT, "an anonymous scope; `variable` stays refused"),
    Addition(
        "`open ... in` before a helper, and global `open` inside a block closed before the theorem",
        _CANNOT,
        "the opened names are in force for that helper or block only, never for the statement",
    ),
    Addition(
        "`set_option` of `linter.*`, `maxHeartbeats`, `maxRecDepth`, `synthInstance.*`, "
        "`exponentiation.threshold` (global or `in`; a header one of these may also be dropped or changed)",
        _CANNOT,
        "warnings and resource limits: they can make elaboration fail, never succeed differently",
    ),
    Addition(
        "`set_option pp.*` (global or `in`)",
        _CANNOT,
        "printing options: only the delaborator and formatter read them (Lean src/Lean/PrettyPrinter), "
        "never elaboration or the kernel",
    ),
    Addition(
        "`#print NAME`, `#print axioms NAME`, `#check e`, before or after the theorem",
        _CANNOT,
        "read-only commands: they print and add nothing to the environment (`#eval`, `#exit`, `#reduce` "
        "and every other `#` command stay refused: they run code or end the file early)",
    ),
    Addition(
        "`import M` added to the header, where `M` is in the import closure of the challenge's imports "
        "on the benchmark's pinned release (`import Aesop` beside `import Mathlib`)",
        _CANNOT,
        "Lean loads the closure of the header's imports as a set, so the environment is the same; the "
        "closure is shipped per release and recomputed at bootstrap; the verdict records the rule",
    ),
    Addition(
        "the header's `open` line split over several `open` lines, same namespaces in the same order",
        _CANNOT,
        "`open A B` opens `A` then `B`, exactly as `open A` then `open B` (src/Lean/Elab/Open.lean)",
    ),
    Addition(
        "a helper named like a variable the statement binds",
        _CANNOT,
        "with `autoImplicit` off the statement's occurrence is the local variable",
    ),
    Addition(
        "a helper (`theorem`, `lemma`, `def`, `abbrev`) with a fresh plain name",
        _CANNOT,
        "a name the statement never mentions cannot be what the statement refers to",
    ),
    Addition(
        "a global `open`/`open scoped` in force at the theorem; the header's `open` namespaces reordered, "
        "one dropped or one added; `open ... in` the theorem",
        _NEEDS_G6,
        "changes how the statement's names resolve (a later namespace may even resolve inside an earlier "
        "opened one: src/Lean/ResolveName.lean `resolveNamespaceUsingOpenDecls`): only G6 can tell",
    ),
    Addition(
        "a global `set_option tactic.hygienic`",
        _NEEDS_G6,
        "changes how tactic blocks inside the statement (if any) elaborate, never what the kernel accepts",
    ),
    Addition(
        "a helper in a namespace the statement names or opens, or that may exist in the library (a `namespace` "
        "block or a dotted name: `RunMove.append_left`)",
        _NEEDS_G6,
        "could change what dot notation or an opened name finds",
    ),
    Addition(
        "an `instance` whose type names a declaration of the candidate; a `local notation`",
        _NEEDS_G6,
        "an instance is a kernel-checked definition, a notation changes parsing: either can change only how "
        "the statement elaborates, which G6's comparison of elaborated types decides",
    ),
    Addition(
        "everything in DESIGN.md section 7 (see the forbidden table below), `variable`, `include`, "
        "`universe`, other `instance`s, global `notation`, other new `import`s, a namespace open at the "
        "theorem, code after it",
        "refused",
        "can change the statement's meaning in ways no text check rules out, or escape the kernel",
    ),
)
"""The classification ``putnam policy`` prints: every kind of addition, its verdict and why."""


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
    """Option families that only steer warnings (``linter.``) or printing (``pp.``): harmless anywhere."""
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

    def forbidden_words(self) -> dict[str, ForbiddenRule]:
        """Rules matched against whole tokens and whole name parts."""
        return {r.construct: r for r in self.forbidden if r.word}

    def rule(self, construct: str) -> ForbiddenRule:
        return next(r for r in self.forbidden if r.construct == construct)


_OPTIONS = (
    "maxHeartbeats",
    "maxRecDepth",
    "synthInstance.maxHeartbeats",
    "synthInstance.maxSize",
    "exponentiation.threshold",
)
_OPTION_PREFIXES = ("linter.", "pp.")
_ELABORATION_OPTIONS = ("tactic.hygienic",)
_READ_ONLY = ("#print", "#check")
_HOLE = "proof hole"
_NATIVE = "native code: trusts the compiler, not the kernel"
_META = "meta-programming: can change the environment or the elaborator"
_PARSE = "syntax extension: the same text could mean something else"
_ELAB = "changes how the statement elaborates"


def _words(rule: str, reason: str, *words: str) -> tuple[ForbiddenRule, ...]:
    return tuple(ForbiddenRule(w, rule, reason) for w in words)


TYPE_KEYWORDS: Final = ("inductive", "structure")
DERIVING_HANDLERS: Final = ("DecidableEq", "Repr", "BEq", "Hashable", "Inhabited", "Nonempty", "Ord", "Fintype")
"""Instance handlers a helper type may derive: library code that makes instances for that new type."""


POLICY: Final = LeanPolicy(
    allowed_options=_OPTIONS,
    allowed_option_prefixes=_OPTION_PREFIXES,
    elaboration_options=_ELABORATION_OPTIONS,
    read_only_commands=_READ_ONLY,
    helper_keywords=("theorem", "lemma", "def", "abbrev", *TYPE_KEYWORDS),
    helper_modifiers=("private", "protected", "noncomputable"),
    helper_attributes=("simp",),
    permitted=(
        PermittedAddition(
            "`theorem`, `lemma`, `def`, `abbrev`",
            "with optional docstring, `@[simp]`, and `private` / `protected` / `noncomputable`; the name "
            "must be a plain (undotted) identifier that the challenge neither declares nor mentions (not "
            "even as a variable): a helper cannot extend another namespace (hijacking dot notation), "
            "shadow the theorem or a solution, or become what a name in the statement resolves to "
            "(a name reached through `open`, an auto-bound variable)",
        ),
        PermittedAddition(
            "`inductive`, `structure`",
            "a new type under the same naming rules, with an optional `deriving` clause of "
            f"{', '.join(DERIVING_HANDLERS)}: it declares the type, its constructors or fields, and instances "
            "for that type only, which nothing in the statement refers to",
        ),
        PermittedAddition(
            "`set_option NAME VALUE in`",
            f"before a helper or before the theorem, or as a global command, NAME one of "
            f"{', '.join(_OPTIONS)} or a `linter.*` option",
        ),
    ),
    choice_operators=(
        "Classical.choose",
        "Classical.choice",
        "Classical.epsilon",
        "Classical.indefiniteDescription",
        "Exists.choose",
        "Nat.find",
    ),
    forbidden=(
        *_words(_HOLE, "an unfinished proof is not a proof", "sorry", "admit", "sorryAx"),
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
        *_words("unsafe", "escapes the kernel's checks", "unsafe", "partial", "opaque", "unsafeCast"),
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
            "elab",
            "elab_rules",
            "initialize",
            "builtin_initialize",
            "simproc",
            "dsimproc",
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
        ForbiddenRule("Lean.*", "meta", f"the `Lean` namespace is the elaborator and kernel API ({_META})", False),
        ForbiddenRule(
            "#command",
            "meta",
            "`#eval`, `#exit`, `#reduce`...: run code or end the file early (only the read-only "
            f"{', '.join(f'`{c}`' for c in _READ_ONLY)} may stand, `#print axioms` included)",
            False,
        ),
        ForbiddenRule("open private", "elaboration", "exposes private declarations of other modules", False),
        ForbiddenRule(
            "@[attribute]",
            "attribute",
            "on any declaration, `where` and `let rec` ones inside proofs included, only `@[simp]` (it can only "
            "help a proof): other attributes run code at load time (`init`), replace compiled code "
            "(`implemented_by`, `extern`, `csimp`), change elaboration (`instance`, `default_instance`, `coe`, "
            "`reducible`) or generate declarations (`to_additive`, `simps`)",
            False,
        ),
        ForbiddenRule(
            "set_option",
            "option",
            f"only {', '.join(_OPTIONS)}, `linter.*`, `pp.*` and (left to G6) "
            f"{', '.join(_ELABORATION_OPTIONS)} may be set; others disable checks (debug.*) or change elaboration",
            False,
        ),
    ),
)


def option_allowed(name: str, policy: LeanPolicy) -> bool:
    """Whether ``policy`` lets a candidate set the option ``name`` (G2 and G3 both ask)."""
    name = normalize_name(name)
    return name in policy.allowed_options or any(name.startswith(p) for p in policy.allowed_option_prefixes)


def elaboration_option(name: str, policy: LeanPolicy) -> bool:
    """Whether ``name`` is an option that can change elaboration but not escape the kernel: allowed by
    G3, left to G6 by G2 when set globally."""
    return normalize_name(name) in policy.elaboration_options
