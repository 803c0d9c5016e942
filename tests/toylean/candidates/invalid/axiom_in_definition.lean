axiom toy_hidden : Prop

def toy_and_comm_solution : Prop := toy_hidden

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p :=
  (fun (_ : toy_and_comm_solution → toy_and_comm_solution) => And.intro h.right h.left) (fun x => x)
