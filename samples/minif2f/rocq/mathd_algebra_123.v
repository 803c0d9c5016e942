Require Import Arith.

Require Import Lia.

Theorem mathd_algebra_123
  (a b : nat)
  (h₀ : a + b = 20)
  (h₁ : a = 3 * b) :
  a - b = 10.
Proof.
  lia.
Qed.
