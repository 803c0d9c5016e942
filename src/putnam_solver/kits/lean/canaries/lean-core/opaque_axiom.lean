axiom canary_cheat (p : Prop) : p

opaque canary_hidden : (p q : Prop) → And p q → And q p := fun p q _ => canary_cheat (And q p)

theorem canary_and_comm (p q : Prop) (h : And p q) : And q p := canary_hidden p q h
