set_option maxRecDepth 1000000
set_option maxHeartbeats 0

noncomputable def toy_add (a b : Nat) : Nat := Nat.rec a (fun _ r => Nat.succ r) b
noncomputable def toy_double (a : Nat) : Nat := Nat.rec Nat.zero (fun _ r => Nat.succ (Nat.succ r)) a
noncomputable def toy_pow2 (n : Nat) : Nat := Nat.rec (Nat.succ Nat.zero) (fun _ r => toy_add r r) n
noncomputable def toy_pow2' (n : Nat) : Nat := Nat.rec (Nat.succ Nat.zero) (fun _ r => toy_double r) n

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p :=
  (fun (_ : Eq (toy_pow2 20) (toy_pow2' 20)) => And.intro h.right h.left) (Eq.refl _)
