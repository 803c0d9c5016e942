Require Import Arith.

Theorem mathd_numbertheory_466 : 
  (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10) mod 9 = 1.
Proof.
  reflexivity.
Qed.
