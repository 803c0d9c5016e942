"""The spellings of red team 19's mutation sweep (``tests/lean_mutations.py``): per attack class of DESIGN
§7, the ways to write it as a top-level command (``C``), a tactic (``T``) and a prefix chained to the theorem
with ``in`` (``I``); the valid additions that must still pass; and helper templates with a tactic slot."""

from __future__ import annotations

# `C` top-level commands (each ends its own line), `T` tactics, `I` a prefix for the theorem (a command
# chained with `in`).

ATTACKS: dict[str, dict[str, tuple[str, ...]]] = {
    "hole": {
        "C": (
            "theorem mut_hole : False := sorry",
            "theorem mut_hole : False := by admit",
            "def mut_hole {α : Sort _} : α := sorryAx α false",
            "theorem mut_hole : False := @sorryAx _ true",
            "theorem mut_hole : False := _root_.sorryAx False",
            "theorem mut_hole : False := «sorryAx» False false",
            "theorem mut_hole : False := by\n  stop\n  trivial",
        ),
        "T": (
            "sorry",
            "admit",
            "exact sorry",
            "exact sorryAx _ false",
            "exact (@sorryAx _ true)",
            "all_goals sorry",
            "first | sorry | skip",
            "stop",
            "exact «sorryAx» _ false",
            "refine ?_; sorry",
            "(sorry)",
            "plausible",
            "slim_check",
            "first | plausible | skip",
        ),
    },
    "axiom": {
        "C": (
            "axiom mut_ax : False",
            "private axiom mut_ax : False",
            "@[simp] axiom mut_ax : False",
            "noncomputable axiom mut_ax : ∀ p : Prop, p",
            "unsafe axiom mut_ax : False",
            "opaque mut_op : ℕ",
            "opaque mut_op : ℕ → ℕ := id",
            "namespace MutNs\naxiom mut_ax : False\nend MutNs",
            "section\naxiom mut_ax : False\nend",
            "mutual\naxiom mut_ax : False\nend",
        ),
        "T": (),
    },
    "native": {
        "C": (
            "theorem mut_nat : 2 + 2 = 4 := by native_decide",
            "theorem mut_nat : 2 + 2 = 4 := by decide +native",
            "theorem mut_nat : 2 + 2 = 4 := by decide (config := { native := true })",
            "theorem mut_nat : 2 + 2 = 4 := Lean.ofReduceBool _ _ rfl",
            "theorem mut_nat : 2 + 2 = 4 := ofReduceBool _ _ rfl",
            "@[implemented_by id] def mut_f (n : ℕ) : ℕ := n",
            '@[extern "mut_f"] def mut_f (n : ℕ) : ℕ := n',
            "@[csimp] theorem mut_c : @id = @id := rfl",
            "attribute [implemented_by id] Nat.succ",
            "attribute [csimp] Nat.add_comm",
            "@[simp, implemented_by id] def mut_f (n : ℕ) : ℕ := n",
        ),
        "T": (
            "native_decide",
            "decide +native",
            "decide (config := { native := true })",
            "exact Lean.ofReduceBool _ _ rfl",
            "exact ofReduceNat _ _ rfl",
            "bv_decide",
        ),
    },
    "kernel_option": {
        "C": (
            "set_option debug.skipKernelTC true",
            "set_option bootstrap.genMatcherCode false",
            "set_option debug.byAsSorry true",
            "set_option allowUnsafeReducibility true",
            "set_option compiler.extract_closed false",
            "set_option trace.debug true",
            "set_option debug.«skipKernelTC» true",
            "set_option «debug».skipKernelTC true",
        ),
        "T": (
            "set_option debug.skipKernelTC true in skip",
            "set_option debug.byAsSorry true in skip",
            "exact (set_option debug.skipKernelTC true in trivial)",
        ),
        "I": (
            "set_option debug.skipKernelTC true in",
            "set_option debug.byAsSorry true in",
            "set_option bootstrap.inductiveCheckResultingUniverse false in",
            "set_option maxHeartbeats 400000 in\nset_option debug.skipKernelTC true in",
            "open Nat in set_option debug.byAsSorry true in",
        ),
    },
    "meta": {
        "C": (
            "run_cmd pure ()",
            "run_elab pure ()",
            "run_meta pure ()",
            "#eval 1",
            "#eval show IO Unit from pure ()",
            "#reduce 1 + 1",
            'elab "mut" : tactic => pure ()',
            'macro "mut" : tactic => `(tactic| sorry)',
            'syntax "mut" : tactic',
            "macro_rules | `(tactic| trivial) => `(tactic| sorry)",
            'notation "ℝ" => ℚ',
            'local notation "ℝ" => ℚ',
            'scoped notation "ℝ" => ℚ',
            'infix:50 " ≤ " => LT.lt',
            'local infixl:65 " + " => HSub.hSub',
            'notation3 "mutn" => (0 : ℕ)',
            'local macro "mut" : term => `(0)',
            "declare_syntax_cat mutcat",
            "initialize pure ()",
            "open private Nat.add in\ntheorem mut_t : True := trivial",
            "elab_rules : tactic | `(tactic| trivial) => pure ()",
            "deriving instance Repr for Nat",
            "unif_hint (n : ℕ) where n =?= 0 ⊢ n + 0 =?= 0",
            "@[command_elab Lean.Parser.Command.check] def mutElab : Unit := ()",
            "@[tactic trivial] def mutTac : Unit := ()",
            "@[macro Parser.Tactic.tacticTrivial] def mutMacro : Unit := ()",
        ),
        "T": (
            "run_tac pure ()",
            "by_elab pure ()",
            "exact (by run_tac pure () : True) |>.elim",
            "#eval 1",
        ),
    },
    "open": {
        "C": (
            "open Nat",
            "open Real hiding pi",
            "open Nat renaming succ → mutSucc",
            "open scoped BigOperators",
            "export Nat (succ)",
        ),
        "T": (),
        "I": (
            "open Nat in",
            "open Real in",
            "open Classical in",
            "open scoped Classical in",
            "set_option maxHeartbeats 400000 in\nopen Nat in",
            "open Nat hiding succ in",
        ),
    },
    "variable": {
        "C": (
            "variable (mut_h : False)",
            "variable {α : Type} [Fact (1 = 2)]",
            "include mut_h",
            "omit mut_h",
            "variable (x : ℕ) in\ntheorem mut_v : True := trivial",
        ),
        "T": (),
        "I": ("variable (mut_h : False) in", "omit mut_h in", "include mut_h in"),
    },
    "auto_implicit": {
        # round 34: a global `autoImplicit false` is a no-op on PutnamBench's project and accepted there
        "C": ("set_option autoImplicit true", "set_option relaxedAutoImplicit true"),
        "T": (),
        "I": (
            "set_option autoImplicit true in",
            "set_option relaxedAutoImplicit true in",
            "set_option linter.all false in\nset_option autoImplicit true in",
        ),
    },
    "import": {
        "C": ("import Lean", "prelude", "import Lean.Elab.Command", "import Std.Tactic.BVDecide"),
        "T": (),
    },
    "instance": {
        "C": (
            "instance : Fact (1 = 2) := ⟨sorry⟩",
            "instance mutInst : Inhabited ℕ := ⟨1⟩",
            "instance (priority := high) mutInst : LE ℕ := ⟨fun _ _ => True⟩",
            "@[instance] def mutInst : LE ℕ := ⟨fun _ _ => True⟩",
            "attribute [-instance] Real.instLE",
            "attribute [simp] Nat.add_comm",
            "attribute [local instance] Classical.propDecidable",
            "attribute [instance] Classical.propDecidable",
            "local instance : LE ℕ := ⟨fun _ _ => True⟩",
            "scoped instance : LE ℕ := ⟨fun _ _ => True⟩",
            "class MutClass extends Inhabited ℕ where\n  x : ℕ",
            "@[default_instance] def mutInst : LE ℕ := ⟨fun _ _ => True⟩",
            "@[reducible] instance mutInst : LE ℕ := ⟨fun _ _ => True⟩",
            "class abbrev MutC := Inhabited ℕ",
            "class inductive MutCI | a",
            "inductive MutT | a\nderiving LinearOrder",
            "@[simp, instance] def mutInst : LE ℕ := ⟨fun _ _ => True⟩",
        ),
        "T": (),
        "I": ("attribute [local instance] Classical.propDecidable in", "instance : LE ℕ := ⟨fun _ _ => True⟩ in"),
    },
    "exit": {
        "C": ("#exit", "#exit -- done"),
        "T": ("#exit",),
    },
}

VALID: dict[str, tuple[str, ...]] = {
    "C": (
        "-- mutation note: a comment",
        "/- a block comment with sorry and axiom inside -/",
        "",
        "/-- A harmless helper. -/\ntheorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "theorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "open Real in\ntheorem mut_ok : (1 : ℝ) + 1 = 2 := by norm_num",
        "set_option maxHeartbeats 400000 in\ntheorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "set_option linter.unusedVariables false",
        "example : (2 : ℕ) = 2 := rfl",
        "#check Nat.add_comm",
        "noncomputable section\ntheorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num\nend",
        "section\nvariable (x : ℕ)\ntheorem mut_ok : x + 0 = x := by simp\nend",
        "@[simp] theorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "@[reducible, inline] def mut_r : ℕ := 0",
        "private lemma mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "set_option pp.all true in\ntheorem mut_ok : (1 : ℕ) + 1 = 2 := by norm_num",
        "#print axioms Nat.add_comm",
    ),
    "T": (
        "-- a comment inside the proof: sorry",
        "/- block: admit -/",
        "skip",
        "set_option maxHeartbeats 400000 in skip",
        "open Real in skip",
        "open Classical in skip",
    ),
    "I": (
        "set_option maxHeartbeats 400000 in",
        "set_option maxRecDepth 2000 in",
        "set_option linter.unusedVariables false in",
    ),
}

# Helper templates with a tactic slot `{T}` (indented as written): each is a harmless helper with the slot
# filled by `VALID_FILL`, and an attack when the slot holds an attack tactic.
TEMPLATES: dict[str, str] = {
    "where": (
        "theorem mut_w : (1 : ℕ) + 1 = 2 := mut_aux\nwhere\n  mut_aux : (1 : ℕ) + 1 = 2 := by\n    {T}\n    norm_num"
    ),
    "match_arm": "def mut_g : ℕ → ℕ\n  | 0 => by\n    {T}\n    exact 0\n  | n + 1 => n",
    "calc": (
        "theorem mut_c (a b : ℕ) (h : a = b) : a = b := by\n"
        "  calc a = b := by\n        {T}\n        exact h\n    _ = b := rfl"
    ),
    "decreasing_by": (
        "def mut_f : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => mut_f n\n"
        "termination_by n => n\ndecreasing_by\n  {T}\n  all_goals decreasing_tactic"
    ),
    "termination_by": (
        "def mut_f : ℕ → ℕ\n  | 0 => 0\n  | n + 1 => mut_f n\ntermination_by n => (by\n  {T}\n  exact n : ℕ)"
    ),
    "let_rec": (
        "theorem mut_l : (1 : ℕ) + 1 = 2 := by\n"
        "  let rec mut_aux : (1 : ℕ) + 1 = 2 := by\n    {T}\n    norm_num\n  exact mut_aux"
    ),
    "have": ("theorem mut_h : (1 : ℕ) + 1 = 2 := by\n  have h : (2 : ℕ) = 2 := by\n    {T}\n    rfl\n  norm_num"),
}
VALID_FILL = "skip"
