Require Import Arith Lia.

Fixpoint sum_to (n : nat) : nat :=
  match n with
  | O => O
  | S k => S k + sum_to k
  end.

Theorem sample_sum_first_n
    : forall n : nat, 2 * sum_to n = n * (n + 1).
Proof.
  induction n as [| k IH]; simpl; [reflexivity | lia].
Qed.
