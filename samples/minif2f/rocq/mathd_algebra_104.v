Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_104 (x : R) (h0 : 125 / 8 = x / 12) : x = 375 / 2.
Proof.
  lra.
Qed.
