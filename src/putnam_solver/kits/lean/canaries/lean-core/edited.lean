theorem canary_and_comm (p q : Prop) (h : And p q) : And p p := And.intro h.left h.left
