-- for toy_choice (test_lean_redteam_toy.py): the `open` ends the helper and opens `Classical`
theorem helper_ok : True :=
  True.intro
  open Classical

theorem toy_choice (α : Type) (h : Nonempty α) : Exists (fun (x : α) => Eq x x) :=
  Exists.intro (choice h) (Eq.refl _)
