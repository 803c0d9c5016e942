Require Import Arith.

Theorem sample_even_square
    (n : nat)
    : Nat.even (n * n) = Nat.even n.
Proof.
  rewrite Nat.even_mul.
  destruct (Nat.even n); reflexivity.
Qed.
