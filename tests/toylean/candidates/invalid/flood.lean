theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left
#check And.intro
#check Or.inl
#check Or.inr
#check Exists.intro
#check Classical.choice
