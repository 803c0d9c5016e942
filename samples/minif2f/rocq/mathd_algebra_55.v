Require Import Reals.
Open Scope R_scope.

Require Import Lra.

Theorem mathd_algebra_55:
  (2 - 4 + 6 - 8 + 10 - 12 + 14) / (3 - 6 + 9 - 12 + 15 - 18 + 21) = 2 / 3.
Proof.
  field.
Qed.
