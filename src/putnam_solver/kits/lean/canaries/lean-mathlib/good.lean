import Mathlib

theorem canary_sq_nonneg (x : ℝ) : 0 ≤ x ^ 2 := sq_nonneg x
