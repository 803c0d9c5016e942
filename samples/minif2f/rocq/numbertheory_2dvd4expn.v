Require Import Nat.
Require Import Arith.

Require Import Lia.

Theorem numbertheory_2dvd4expn :
  forall n : nat,
  n <> 0 ->
  Nat.divide 2 (4^n).

Proof.
  intros n h.
  destruct n as [| m].
  - contradiction.
  - exists (2 * 4 ^ m).
    rewrite Nat.pow_succ_r'.
    lia.
Qed.
