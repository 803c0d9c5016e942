Require Import ZArith.
Open Scope Z_scope.

Definition sample_last_digit_solution : Z := 6.
Theorem sample_last_digit
    : (2 ^ 100) mod 10 = sample_last_digit_solution.
Proof.
  reflexivity.
Qed.
