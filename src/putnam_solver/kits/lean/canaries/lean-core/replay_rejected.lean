unsafe def canary_loop (p : Prop) : p := canary_loop p

set_option debug.skipKernelTC true in
theorem canary_and_comm (p q : Prop) (h : And p q) : And q p := canary_loop (And q p)
