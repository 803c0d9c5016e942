Require Import Arith.

Lemma sample_even_or_odd_helper (n : nat) : orb (Nat.even n) (Nat.even (n + 1)) = true.
Proof.
  rewrite Nat.even_add. destruct (Nat.even n); reflexivity.
Qed.

Theorem sample_consecutive_even
    : forall n : nat, Nat.Even (n * (n + 1)).
Proof.
  intros n. apply Nat.even_spec. rewrite Nat.even_mul.
  apply sample_even_or_odd_helper.
Qed.
