theorem canary_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.right h.left
