Require Import List.

Variable A : Type.
Theorem sample_rev_length
    (l : list A)
    : length (rev l) = length l.
Proof.
  apply rev_length.
Qed.
