import Mathlib

theorem canary_sq_helper (h : P) : P := h

theorem canary_sq_nonneg (x : ℝ) : 0 ≤ x ^ 2 := canary_sq_helper (sq_nonneg x)
