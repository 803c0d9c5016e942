Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_462 :
  (1/2 + 1/3) * (1/2 - 1/3) = 5/36.
Proof.
  field.
Qed.
