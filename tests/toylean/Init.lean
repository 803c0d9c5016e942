/-
The toy `Init` of the test suite's Lean toolchain (see build.py): just enough of Lean's prelude for
the elaborator, the kernel, `sorry` and `#print axioms` to work on term-mode proofs. It stands in for
the real `Init` that ships with a Lean release; nothing here is specific to the gates under test.
-/
prelude
set_option bootstrap.inductiveCheckResultingUniverse false
set_option linter.unusedVariables false
set_option linter.defProp false
-- Auxiliary constructions that would need much more of the real prelude (`Nat.ble`, `PULift`, ...).
set_option genCtorIdx false
set_option genSizeOf false
set_option genInjectivity false

universe u v

-- Markers the code generator expects to exist.
unsafe axiom lcErased : Type
unsafe axiom lcAny : Type
unsafe axiom lcVoid : Type
unsafe axiom lcProof {α : Prop} : α
unsafe axiom lcCast {α : Sort u} {β : Sort v} (a : α) : β
unsafe axiom lcUnreachable {α : Sort u} : α

inductive PUnit : Sort u where
  | unit : PUnit

abbrev Unit : Type := PUnit
@[match_pattern] abbrev Unit.unit : Unit := PUnit.unit

-- `Nat`, `String` and `Lean.Name` come before `Eq`/`HEq` so that no `noConfusion` is generated for
-- them; the elaborator needs them to label every `sorry` with its source position.
inductive Nat where
  | zero : Nat
  | succ (n : Nat) : Nat

class OfNat (α : Type u) (_ : Nat) where
  ofNat : α

instance instOfNatNat (n : Nat) : OfNat Nat n where
  ofNat := n

structure String where
  mk ::
  raw : Nat

inductive Lean.Name where
  | anonymous : Lean.Name
  | str (pre : Lean.Name) (str : String) : Lean.Name
  | num (pre : Lean.Name) (i : Nat) : Lean.Name

inductive Bool : Type where
  | false : Bool
  | true : Bool

export Bool (false true)

@[reducible] def optParam (α : Sort u) (default : α) : Sort u := α
@[reducible] def outParam (α : Sort u) : Sort u := α

def Function.const {α : Sort u} (β : Sort v) (a : α) : β → α := fun _ => a

-- As in Lean's prelude: the tactic `match` (built into the elaborator) compiles its patterns with these.
@[inline] def id {α : Sort u} (a : α) : α := a

structure PProd (α : Sort u) (β : Sort v) where
  fst : α
  snd : β

inductive Eq : α → α → Prop where
  | refl (a : α) : Eq a a

abbrev Eq.ndrec.{u1, u2} {α : Sort u2} {a : α} {motive : α → Sort u1} (m : motive a) {b : α}
    (h : Eq a b) : motive b :=
  h.rec m

def rfl {α : Sort u} {a : α} : Eq a a := Eq.refl a

inductive HEq : {α : Sort u} → α → {β : Sort u} → β → Prop where
  | refl (a : α) : HEq a a

def cast {α β : Sort u} (h : Eq α β) (a : α) : β := h.rec a

theorem eq_of_heq {α : Sort u} {a a' : α} (h : HEq a a') : Eq a a' :=
  have : (α β : Sort u) → (a : α) → (b : β) → HEq a b → (h : Eq α β) → Eq (cast h a) b :=
    fun _ _ _ _ h₁ => h₁.rec (fun _ => Eq.refl _)
  this α α a a' h (Eq.refl α)

theorem heq_of_eq {α : Sort u} {a a' : α} (h : Eq a a') : HEq a a' :=
  h.rec (motive := fun x _ => HEq a x) (HEq.refl a)

inductive True : Prop where
  | intro : True

inductive False : Prop

def False.elim {C : Sort u} (h : False) : C := h.rec

def Not (a : Prop) : Prop := a → False

structure And (a b : Prop) : Prop where
  intro ::
  left : a
  right : b

inductive Or (a b : Prop) : Prop where
  | inl (h : a) : Or a b
  | inr (h : b) : Or a b

structure Iff (a b : Prop) : Prop where
  intro ::
  mp : a → b
  mpr : b → a

inductive Exists {α : Sort u} (p : α → Prop) : Prop where
  | intro (w : α) (h : p w) : Exists p

class inductive Nonempty (α : Sort u) : Prop where
  | intro (val : α) : Nonempty α

-- The three standard axioms, as in Lean's prelude (`Quot` itself is built into the kernel).
init_quot

axiom Quot.sound {α : Sort u} {r : α → α → Prop} {a b : α} : r a b → Eq (Quot.mk r a) (Quot.mk r b)

axiom propext {a b : Prop} : Iff a b → Eq a b

axiom Classical.choice {α : Sort u} : Nonempty α → α

axiom sorryAx (α : Sort u) (synthetic : Bool) : α
