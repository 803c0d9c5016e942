theorem toy_or_comm (p q : Prop) (h : Or p q) : Or q p := Or.casesOn (motive := fun _ => Or q p) h (fun hp => Or.inr hp) (fun hq => Or.inl hq)
