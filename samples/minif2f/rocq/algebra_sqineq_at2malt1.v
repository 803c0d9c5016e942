Require Import Reals.
Open Scope R_scope.

Require Import Psatz.

Theorem algebra_sqineq_at2malt1 (a : R) : a * (2 - a) <= 1.
Proof.
  assert (0 <= (a - 1) * (a - 1)) by apply Rle_0_sqr.
  nra.
Qed.
