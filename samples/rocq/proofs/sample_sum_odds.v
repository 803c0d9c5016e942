Require Import Arith Lia.

Fixpoint sum_odds (n : nat) : nat :=
  match n with
  | O => O
  | S k => 2 * k + 1 + sum_odds k
  end.

Definition sample_sum_odds_solution : nat -> nat := fun n => n * n.
Theorem sample_sum_odds
    : forall n : nat, sum_odds n = sample_sum_odds_solution n.
Proof.
  unfold sample_sum_odds_solution.
  induction n as [| k IH]; simpl; [reflexivity | rewrite IH; lia].
Qed.
