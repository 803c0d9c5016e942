abbrev canary_yes_no_solution : Prop := Exists (fun n : Nat => Eq n n)
theorem canary_yes_no : Iff (Exists (fun n : Nat => Eq n n)) canary_yes_no_solution :=
  Iff.intro (fun h => h) (fun h => h)
