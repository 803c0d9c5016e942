axiom toy_cheat (p : Prop) : p

opaque toy_hidden_proof : (p q : Prop) → And p q → And q p := fun p q _ => toy_cheat (And q p)

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := toy_hidden_proof p q h
