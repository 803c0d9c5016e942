theorem toy_choice (α : Type) (h : Nonempty α) : Exists (fun (x : α) => Eq x x) := Exists.intro (Classical.choice h) (Eq.refl _)
