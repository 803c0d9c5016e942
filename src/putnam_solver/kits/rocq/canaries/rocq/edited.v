Require Import Reals Coquelicot.Coquelicot.
From mathcomp Require Import ssreflect ssrnat.
Open Scope R.
Definition canary_rocq_solution := 4%nat.
Theorem canary_rocq
    (x : R)
    (hx : 0 <= x)
    : 0 <= x * x /\ (2 + 2 = canary_rocq_solution)%nat.
Proof.
  split.
  - apply Rle_0_sqr.
  - reflexivity.
Qed.
