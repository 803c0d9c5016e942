Require Import Reals. Definition x := 1%R. Check x. 
Check (x + x)%R.
