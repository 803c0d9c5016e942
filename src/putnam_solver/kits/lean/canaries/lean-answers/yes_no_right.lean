abbrev canary_yes_no_solution : Prop := True
theorem canary_yes_no : Iff (Exists (fun n : Nat => Eq n n)) canary_yes_no_solution :=
  Iff.intro (fun _ => True.intro) (fun _ => Exists.intro Nat.zero rfl)
