Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_109 (a b : R) :
  3 * a + 2 * b = 12 ->
  a = 4 ->
  b = 0.
Proof.
  intros; lra.
Qed.
