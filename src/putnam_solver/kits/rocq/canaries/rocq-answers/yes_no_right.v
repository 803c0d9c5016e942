Definition canary_rocq_yes_no_solution := True.
Theorem canary_rocq_yes_no
    : (exists n : nat, n = n) <-> canary_rocq_yes_no_solution.
Proof. unfold canary_rocq_yes_no_solution; split; intros; [exact I | exists 0; reflexivity]. Qed.
