Require Import Reals.
Open Scope R_scope.

Theorem mathd_algebra_568 (a : R) :
  (a - 1) * (a + 1) * (a + 2) - (a - 2) * (a + 1) = a^3 + a^2.
Proof.
  ring.
Qed.
