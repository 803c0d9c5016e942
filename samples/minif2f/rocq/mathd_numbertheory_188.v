Require Import Nat.

Theorem mathd_numbertheory_188 :
  Nat.gcd 180 168 = 12.
Proof.
  reflexivity.
Qed.
