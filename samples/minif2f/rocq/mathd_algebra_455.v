Require Import Arith.

Require Import Lia.

Theorem mathd_algebra_455 :
  forall x : nat,
  2 * (2 * (2 * (2 * x))) = 48 ->
  x = 3.
Proof.
  intros; lia.
Qed.
