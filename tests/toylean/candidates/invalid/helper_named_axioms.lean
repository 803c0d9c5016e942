axiom toy_cheat (p : Prop) : p

theorem axioms : True := True.intro

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := toy_cheat _
