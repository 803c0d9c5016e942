Require Import Arith Lia.
Definition canary_rocq_sum_solution := fun n : nat => n + n.
Theorem canary_rocq_sum
    : forall n : nat, n + n = canary_rocq_sum_solution n.
Proof. intros n; reflexivity. Qed.
