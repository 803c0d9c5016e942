Require Import Reals.
Open Scope R_scope.

Theorem mathd_algebra_176 (x : R) : (x + 1)^2 * x = x^3 + 2 * x^2 + x.
Proof.
  ring.
Qed.
