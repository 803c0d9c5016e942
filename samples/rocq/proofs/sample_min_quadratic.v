Require Import Reals Psatz.
Open Scope R_scope.

Definition sample_min_quadratic_solution : R := -1.
Theorem sample_min_quadratic
    : (forall x : R, x ^ 2 + 2 * x >= sample_min_quadratic_solution) /\
      (exists x : R, x ^ 2 + 2 * x = sample_min_quadratic_solution).
Proof.
  unfold sample_min_quadratic_solution. split.
  - intros x. pose proof (pow2_ge_0 (x + 1)). nra.
  - exists (-1). ring.
Qed.
