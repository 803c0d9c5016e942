Require Import Nat.

Theorem mathd_numbertheory_81 : 
  71 mod 3 = 2.
Proof.
  reflexivity.
Qed.
