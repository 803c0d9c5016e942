Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_37 :
  forall x y : R,
  x + y = 7 ->
  3 * x + y = 45 ->
  x^2 - y^2 = 217.
Proof.
  intros x y h0 h1.
  assert (x = 19) by lra.
  assert (y = -12) by lra.
  subst; ring.
Qed.
