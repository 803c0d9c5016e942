import Mathlib

unsafe def canary_loop (p : Prop) : p := canary_loop p

set_option debug.skipKernelTC true in
theorem canary_sq_nonneg (x : ℝ) : 0 ≤ x ^ 2 := canary_loop _
