Require Import Reals.
Open Scope R_scope.

Require Import Psatz.

Theorem mathd_algebra_410 :
  forall x y : R,
    y = x^2 - 6 * x + 13 -> 4 <= y.
Proof.
  intros x y h; subst.
  assert (0 <= (x - 3) * (x - 3)) by apply Rle_0_sqr.
  nra.
Qed.
