-- for toy_auto (test_lean_redteam_toy.py): `a` and `b` were auto-bound variables of the statement
def a : Nat := Nat.zero
def b : Nat := Nat.zero

theorem toy_auto : Eq a b := Eq.refl _
