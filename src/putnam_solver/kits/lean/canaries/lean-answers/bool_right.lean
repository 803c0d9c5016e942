abbrev canary_bool_solution : Bool := true
theorem canary_bool : Or (Eq canary_bool_solution true) (Eq canary_bool_solution false) := Or.inl rfl
