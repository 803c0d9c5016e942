"""What of Lean's ``Init/Prelude.lean`` a term built by ``decide`` needs, for statements run on the toy Lean.

The toy ``Init`` (``Init.lean`` here) has no ``Decidable``; real statements get it from Lean's ``Init``.
A toy statement that is checked by deciding (the no-answer yes/no rule, ``yes_no``) starts with these
lines: ``Decidable``, ``Decidable.decide``, ``of_decide_eq_true`` (as in Lean's Init/Prelude.lean, where
``of_decide_eq_true [inst : Decidable p] : Eq (decide p) true → p``) and the instances for ``True``,
``False``, ``Not``, ``Iff``, ``Or`` and equality of ``Bool``, written with recursors only.
"""

DECIDABLE = """set_option genCtorIdx false in
class inductive Decidable (p : Prop) where
  | isFalse (h : Not p) : Decidable p
  | isTrue (h : p) : Decidable p

noncomputable def Decidable.decide (p : Prop) [h : Decidable p] : Bool :=
  @Decidable.rec p (fun _ => Bool) (fun _ => Bool.false) (fun _ => Bool.true) h

theorem decide_false_ne_true (h : Eq Bool.false Bool.true) : False :=
  @Eq.ndrec Bool Bool.false (fun b => @Bool.rec (fun _ => Prop) True False b) True.intro Bool.true h

theorem decide_true_ne_false (h : Eq Bool.true Bool.false) : False :=
  @Eq.ndrec Bool Bool.true (fun b => @Bool.rec (fun _ => Prop) False True b) True.intro Bool.false h

theorem of_decide_eq_true {p : Prop} [inst : Decidable p] (h : Eq (Decidable.decide p) Bool.true) : p :=
  @Decidable.rec p (fun i => Eq (@Decidable.decide p i) Bool.true -> p)
    (fun _ e => False.elim (decide_false_ne_true e)) (fun hp _ => hp) inst h

noncomputable instance instDecidableTrue : Decidable True := Decidable.isTrue True.intro
noncomputable instance instDecidableFalse : Decidable False := Decidable.isFalse (fun h => h)

noncomputable instance instDecidableNot {p : Prop} [dp : Decidable p] : Decidable (Not p) :=
  @Decidable.rec p (fun _ => Decidable (Not p)) (fun np => Decidable.isTrue np)
    (fun hp => Decidable.isFalse (fun np => np hp)) dp

noncomputable instance instDecidableIff {p q : Prop} [dp : Decidable p] [dq : Decidable q] :
    Decidable (Iff p q) :=
  @Decidable.rec p (fun _ => Decidable (Iff p q))
    (fun np => @Decidable.rec q (fun _ => Decidable (Iff p q))
      (fun nq => Decidable.isTrue (Iff.intro (fun h => False.elim (np h)) (fun h => False.elim (nq h))))
      (fun hq => Decidable.isFalse (fun h => np (h.mpr hq))) dq)
    (fun hp => @Decidable.rec q (fun _ => Decidable (Iff p q))
      (fun nq => Decidable.isFalse (fun h => nq (h.mp hp)))
      (fun hq => Decidable.isTrue (Iff.intro (fun _ => hq) (fun _ => hp))) dq) dp

noncomputable instance instDecidableOr {p q : Prop} [dp : Decidable p] [dq : Decidable q] :
    Decidable (Or p q) :=
  @Decidable.rec p (fun _ => Decidable (Or p q))
    (fun np => @Decidable.rec q (fun _ => Decidable (Or p q))
      (fun nq => Decidable.isFalse (fun h => @Or.rec p q (fun _ => False) np nq h))
      (fun hq => Decidable.isTrue (Or.inr hq)) dq)
    (fun hp => Decidable.isTrue (Or.inl hp)) dp

noncomputable instance instDecidableEqBool (a b : Bool) : Decidable (Eq a b) :=
  @Bool.rec (fun a => Decidable (Eq a b))
    (@Bool.rec (fun b => Decidable (Eq Bool.false b)) (Decidable.isTrue rfl)
      (Decidable.isFalse decide_false_ne_true) b)
    (@Bool.rec (fun b => Decidable (Eq Bool.true b)) (Decidable.isFalse decide_true_ne_false)
      (Decidable.isTrue rfl) b) a

"""

DECIDE_EQ_FALSE = """theorem of_decide_eq_false {p : Prop} [inst : Decidable p]
    (h : Eq (Decidable.decide p) Bool.false) : Not p :=
  @Decidable.rec p (fun i => Eq (@Decidable.decide p i) Bool.false -> Not p)
    (fun np _ => np) (fun _ e => False.elim (decide_true_ne_false e)) inst h

"""
"""``of_decide_eq_false`` as in Lean's Init/Prelude.lean (``Eq (decide p) false → Not p``): the term the
answer check's ``decide`` attempt elaborates to for a negation."""
