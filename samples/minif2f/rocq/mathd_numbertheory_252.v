Require Import Coq.Arith.Arith.
Require Import Coq.Arith.Factorial.



Theorem mathd_numbertheory_252 :
  (fact 7) mod 23 = 3.

Proof.
  reflexivity.
Qed.
