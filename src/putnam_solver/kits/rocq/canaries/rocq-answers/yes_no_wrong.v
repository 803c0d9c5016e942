Definition canary_rocq_yes_no_weak_solution := False.
Theorem canary_rocq_yes_no_weak
    : canary_rocq_yes_no_weak_solution -> exists n : nat, n = n.
Proof. intros _; exists 0; reflexivity. Qed.
