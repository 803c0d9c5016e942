theorem toy_propext (a b : Prop) (h : Iff a b) : Eq a b := propext h
