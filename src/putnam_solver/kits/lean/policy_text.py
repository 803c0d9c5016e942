"""The Lean policy as text: the Markdown ``putnam policy`` prints and the brief a worker's prompt carries.

The rules themselves are data in the trusted package (``core.provers.lean._policy``), next to the gates
that apply them; rendering them decides nothing, so it lives here, with the table of how G2 judges each
kind of addition (:data:`ADDITIONS`), which explains the rules to people and is read by no gate.
"""

from __future__ import annotations

from typing import Final

from putnam_solver.core.provers.lean._policy import LeanPolicy
from putnam_solver.kits.policy_doc import Difference, Forbidden, PolicyDocument, Section

_CANNOT: Final = "harmless"
_NEEDS_G6: Final = "elaboration"
ADDITIONS: Final = (
    Difference("a missing or edited docstring", _CANNOT, "documentation is not part of the statement's meaning"),
    Difference("comments", _CANNOT, "the lexer drops them; Lean never reads them"),
    Difference(
        "layout (line breaks, indentation, spaces around operators and inside brackets)",
        _CANNOT,
        "Lean's parser checks whitespace only at `x[i]`, `h.1`, `f.{u}`, `x@p`, `(.f)`, `!`/`?` after an "
        "index and before application arguments; there it is compared",
    ),
    Difference(
        "`noncomputable` on an answer `abbrev`, `noncomputable section`",
        _CANNOT,
        "turns off code generation only; the kernel sees the same definitions",
    ),
    Difference(
        "`namespace X ... end X` closed before the theorem",
        _CANNOT,
        "helpers inside get the name X.h; one named like any part of a statement name is refused (dot "
        "notation could find it), and one in a namespace the statement names or opens is left to G6",
    ),
    Difference(
        "`section ... end`, also around the theorem",
        _CANNOT,
        "an anonymous scope; a `variable` in it stays refused if the block is still open at the theorem",
    ),
    Difference(
        "`variable`, `include`, `omit ... in` inside a `section`/`namespace` closed before the theorem",
        _CANNOT,
        "Lean drops a block's variables at its `end`: only the helpers inside can use them",
    ),
    Difference(
        "`attribute [local instance] x`, `[local simp]` or `[local irreducible]` (also `reducible`, "
        "`semireducible`) inside a `section`/`namespace` of the candidate's closed before the theorem",
        _CANNOT,
        "Lean drops local attributes at the block's `end` (a local reducibility too: a scoped extension, "
        "src/Lean/ReducibilityAttrs.lean): only the helpers inside are elaborated with them",
    ),
    Difference(
        "`@[simp]`, `@[grind]` (with its modifiers), `@[reducible]`, `@[irreducible]`, `@[inline]`, `@[noinline]`, "
        "`@[specialize]` (also "
        "`local`/`scoped`) on a helper the candidate declares, `where` and `let rec` ones included",
        _CANNOT,
        "an attribute in `@[...]` applies to that declaration only: the simp and grind sets (read by tactics), the "
        "helper's own reducibility and compiler hints, and the statement names no helper; on the theorem "
        "or a pinned declaration it is a changed text, and an `instance` or an answer's auxiliary "
        "definitions keep only `simp`",
    ),
    Difference(
        "`open ... in` before a helper, and global `open` inside a block closed before the theorem",
        _CANNOT,
        "the opened names are in force for that helper or block only, never for the statement",
    ),
    Difference(
        "`set_option` of `linter.*`, `maxHeartbeats`, `maxRecDepth`, `synthInstance.*`, "
        "`exponentiation.threshold` (global or `in`; a header one of these may also be dropped or changed)",
        _CANNOT,
        "warnings and resource limits: they can make elaboration fail, never succeed differently",
    ),
    Difference(
        "`set_option pp.*` (global or `in`)",
        _CANNOT,
        "printing options: only the delaborator and formatter read them (Lean src/Lean/PrettyPrinter), "
        "never elaboration or the kernel",
    ),
    Difference(
        "`#print NAME`, `#print axioms NAME`, `#check e`, before or after the theorem",
        _CANNOT,
        "read-only commands: they print and add nothing to the environment (`#eval`, `#exit`, `#reduce` "
        "and every other `#` command stay refused: they run code or end the file early)",
    ),
    Difference(
        "`import M` added to the header, where `M` is in the import closure of the challenge's imports "
        "on the benchmark's pinned release (`import Aesop` beside `import Mathlib`)",
        _CANNOT,
        "Lean loads the closure of the header's imports as a set, so the environment is the same; the "
        "closure is shipped per release and recomputed at bootstrap; the verdict records the rule",
    ),
    Difference(
        "the header's `open` line split over several `open` lines, same namespaces in the same order",
        _CANNOT,
        "`open A B` opens `A` then `B`, exactly as `open A` then `open B` (src/Lean/Elab/Open.lean)",
    ),
    Difference(
        "`local notation` (`local infix`...), `local instance` and `variable`, `include`, `omit` after the "
        "theorem's proof",
        _CANNOT,
        "the theorem is elaborated before them, and Lean exports none of them to the harness's files that "
        "import the candidate (an `instance` after the theorem is exported, and judged as before it)",
    ),
    Difference(
        "helpers and blocks after the theorem's proof, judged as before it, in any namespace",
        _CANNOT,
        "Lean elaborates commands in order: the statement and its proof are in the environment before the "
        "next command starts (src/Lean/Language/Lean.lean `doElab`), and later gates name the theorem, "
        "which no helper may redeclare",
    ),
    Difference(
        "`set_option autoImplicit V in` (or `relaxedAutoImplicit`) before a helper or inside a proof",
        _CANNOT,
        "both act only on the header of the declaration they prefix (src/Lean/Elab/AutoBound.lean): a "
        "helper's signature, never the statement; before the theorem or as a global command they stay refused",
    ),
    Difference(
        "`set_option simprocs V in` or `push_neg.use_distrib V in` before a helper or inside a proof; "
        "`attribute [local simp] x in` (any local attribute of the row above) before a helper",
        _CANNOT,
        "the options only choose which proof `simp` or `push_neg` builds, which the kernel checks; `c in d` is "
        "`section c d end` (src/Lean/Elab/BuiltinCommand.lean `expandInCmd`), so the local attribute ends with "
        "the helper",
    ),
    Difference(
        "a global `set_option autoImplicit false`, `relaxedAutoImplicit false` (where the benchmark already "
        "turns `autoImplicit` off) or `Elab.async false`",
        _CANNOT,
        "the first two leave the options as they were; `Elab.async false` elaborates and kernel-checks the "
        "proof in the command's thread, the statement as before; `true` stays refused",
    ),
    Difference(
        "a global `set_option autoImplicit false` or `relaxedAutoImplicit false` where `autoImplicit` is on",
        _NEEDS_G6,
        "an auto-bound name becomes an error that overload resolution may drop, so the statement could "
        "elaborate another way",
    ),
    Difference(
        "a helper named like a variable the statement binds",
        _CANNOT,
        "with `autoImplicit` off the statement's occurrence is the local variable",
    ),
    Difference(
        "a helper (`theorem`, `lemma`, `def`, `abbrev`, Mathlib's `irreducible_def n`, which declares `n_def` "
        "too) with a fresh plain name",
        _CANNOT,
        "a name the statement never mentions cannot be what the statement refers to",
    ),
    Difference(
        "a global `open`/`open scoped` in force at the theorem or at a definition or answer the challenge "
        "declares before it (one in a `section` around it included); the header's `open` namespaces "
        "reordered, one dropped or one added; `open ... in` the theorem",
        _NEEDS_G6,
        "changes how the statement's names resolve (a later namespace may even resolve inside an earlier "
        "opened one: src/Lean/ResolveName.lean `resolveNamespaceUsingOpenDecls`): only G6 can tell",
    ),
    Difference(
        "`universe u v` before the theorem",
        _NEEDS_G6,
        "a declared universe instead of an auto-bound one can reorder the theorem's universe parameters; "
        "G6 compares the constant as the kernel holds it",
    ),
    Difference(
        "a global `set_option tactic.hygienic`",
        _NEEDS_G6,
        "changes how tactic blocks inside the statement (if any) elaborate, never what the kernel accepts",
    ),
    Difference(
        "before the theorem, a helper in a namespace the statement names or opens, or that may exist in the "
        "library (a `namespace` block or a dotted name: `RunMove.append_left`); one named after the problem "
        "(`Putnam1997B5`) is harmless",
        _NEEDS_G6,
        "could change what dot notation or an opened name finds, also dot notation that a library notation "
        "writes and the statement's text does not show",
    ),
    Difference(
        "an `instance` whose type names a declaration of the candidate; a `local notation`",
        _NEEDS_G6,
        "an instance is a kernel-checked definition, a notation changes parsing: either can change only how "
        "the statement elaborates, which G6's comparison of elaborated types decides",
    ),
    Difference(
        "everything in DESIGN.md section 7 (see the forbidden table below), `variable`, `include`, `omit` "
        "in scope at the theorem, other `instance`s, global `notation`, other new `import`s, a namespace "
        "open at the theorem, `set_option autoImplicit` before the theorem or global",
        "refused",
        "can change the statement's meaning in ways no text check rules out, or escape the kernel",
    ),
    Difference(
        "on the no-answer track, any addition of the `elaboration` rows in force at a `*_solution` value "
        "(before it, or in a block around it) but a global `open` (the answer rules resolve the value through "
        "it; one that renames is refused, and where one opens `Classical` the statement does not, a value "
        "that decides a proposition the library does not decide is refused)",
        "refused",
        "G6 takes the value as a hole and compares only the theorem, so nothing would check what the value "
        "elaborated to (an instance of a helper abbrev can make `default` a choice of the question's answer)",
    ),
)
"""The classification ``putnam policy`` prints: every kind of addition, how G2 judges it (``harmless``:
accepted on every profile; ``elaboration``: accepted only where G6 runs in the same acceptance;
``refused``) and why. The gates do not read it: it describes what ``core.provers.lean._preservation`` does."""


def brief(policy: LeanPolicy) -> str:
    """The rules a worker writing a proof needs, without the reasons (``describe`` has them; a
    rejection names the rule it applies)."""
    helpers = "; ".join(f"{p.construct}" for p in policy.permitted)
    forbidden = ", ".join(dict.fromkeys(f"`{r.construct}`" for r in policy.forbidden))
    return "\n".join(
        [
            f"- After the header, before the theorem or after its proof, you may add: {helpers}. A helper's "
            "name must be a plain identifier the challenge neither declares nor mentions.",
            "- Nothing else may change: no new `import`, `open` at the theorem, `variable` in scope at the "
            "theorem, `instance`, "
            "`notation`, namespace left open at the theorem, or option before the theorem that steers "
            "elaboration (`autoImplicit`).",
            f"- Forbidden anywhere outside comments and strings: {forbidden}.",
        ]
    )


def describe(policy: LeanPolicy) -> str:
    """The policy as Markdown, for users and docs (the format every prover's policy shares)."""
    return PolicyDocument(
        language="Lean",
        intro=(
            "A candidate is the challenge file with each hole filled: the theorem's proof and, on the",
            "no-answer track, the value of each `*_solution` declaration. On with-answer the challenge is",
            "PutnamBench's own text (answer inlined as `((<answer>) : <type>)`); a candidate that keeps",
            "`abbrev putnam_X_solution : T := <official answer>` is judged against that form instead.",
        ),
        semantic_check="G6 (profile `full`)",
        differences=ADDITIONS,
        permitted=Section(
            "Permitted helpers (after the header, before the theorem)",
            tuple(f"- {p.construct}: {p.note}" for p in policy.permitted),
        ),
        sections=(
            Section(
                "No-answer track: the solution values",
                (
                    "A value must state the answer. It may not mention the theorem, nor name a choice operator",
                    f"({', '.join(f'`{c}`' for c in policy.choice_operators)}): `Classical.choose (h : ∃ x, P x)`",
                    "restates the problem instead of answering it. A `.choose`/`.some` field stands only on",
                    "the value's own `fun` parameters, finset indices, numerals and arithmetic on them (its",
                    "receiver could otherwise be a proof: `Exists.choose`); write `Nat.choose a b` elsewhere.",
                    "Nor may it be written with an integral, series or derivative",
                    f"({', '.join(f'`{c}`' for c in policy.analysis_operators)}): state its value.",
                    "A `where` or `let rec` in a value may not take a name the statement reaches under the",
                    "solution's own (`putnam_X_solution.Prime` would then resolve to it).",
                    "Values that restate the problem in other words (`{x | P x}`) are not stopped by the",
                    "gates: the verdict records every value beside the official answer for review.",
                ),
            ),
        ),
        forbidden_where="anywhere outside comments and strings",
        forbidden=tuple(Forbidden(r.construct, r.rule, r.reason) for r in policy.forbidden),
    ).render()
