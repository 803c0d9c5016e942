abbrev canary_bool_solution : Bool := false
theorem canary_bool : Or (Eq canary_bool_solution true) (Eq canary_bool_solution false) := Or.inr rfl
