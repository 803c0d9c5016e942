Definition canary_rocq_bound_solution := 2 * 3.
Theorem canary_rocq_bound
    : 3 <= canary_rocq_bound_solution.
Proof. unfold canary_rocq_bound_solution; simpl; repeat constructor. Qed.
