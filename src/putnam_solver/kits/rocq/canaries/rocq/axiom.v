Require Import Reals Coquelicot.Coquelicot.
From mathcomp Require Import ssreflect ssrnat.
Open Scope R.
Definition canary_rocq_solution := 4%nat.
Axiom canary_cheat : forall P : Prop, P.
Theorem canary_rocq
    (x : R)
    : 0 <= x * x /\ (2 + 2 = canary_rocq_solution)%nat.
Proof.
  idtac "Closed under the global context".
  apply canary_cheat.
Qed.
