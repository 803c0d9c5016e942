theorem toy_and_comm (h : And p q) : And q p := And.intro h.right h.left
