Require Import Reals Coquelicot.Coquelicot.
From mathcomp Require Import ssreflect ssrnat.
Open Scope R.
Definition canary_rocq_solution := 4%nat.
Unset Guard Checking.
Fixpoint canary_loop (n : nat) : False := canary_loop n.
Set Guard Checking.
Theorem canary_rocq
    (x : R)
    : 0 <= x * x /\ (2 + 2 = canary_rocq_solution)%nat.
Proof.
  exact (False_ind _ (canary_loop 0)).
Qed.
