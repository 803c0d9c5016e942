Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_119:
  forall (d e : R), 
  (2 * d = 17 * e - 8) -> 
  (2 * e = d - 9) -> 
  e = 2.
Proof.
  intros; lra.
Qed.
