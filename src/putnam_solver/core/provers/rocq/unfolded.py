"""No-answer: a number answer may not be the question unfolded (a G4 check, beside ``restated``'s).

``restated`` compares a number answer with the expression the question asks to evaluate by syntax alone:
conversion on numbers can evaluate the statement's arithmetic (``putnam_1986_a2``'s ``10 ^ 20000``), so an
honest answer would time the check out. A copy written through a library function's definition then
passed: ``putnam_2020_a2``'s ``sum_n (fun j => ..) k`` answered with ``sum_n_m (fun j => ..) 0 k``
(Coquelicot's ``Hierarchy.v`` 844: ``Definition sum_n (a : nat -> G) n := sum_n_m a O n``), Coq's
``Binomial.C`` written out, MathComp's ``x ^+ n`` as ``iterop n *%R x 1`` (``putnam_1976_b5``, ``ssralg.v``
981), ``putnam_1974_a4``'s ``2 ^ n.-1`` (``exprz``, a ``match`` on ``Posz``) as ``2 ^+ n.-1``, or a
let-bound function of the theorem's inlined. Each makes the theorem true by conversion, so a proof of it
found nothing, and it was accepted with the answer check ``unknown`` (red teams 42 and 43).

Coq decides it by meaning, lazily (red team 43). Two terms are the same when they are convertible by
``beta``, ``delta``, ``match`` and ``zeta`` alone, never ``fix`` or ``cofix``: nothing recursive runs, so no
arithmetic is evaluated. The comparison is Coq's own conversion algorithm written in Ltac2 (the kernel's
``Reduction.ccnv``: compare, and unfold only where the two sides differ): two syntactically equal terms are
the same; two applications of the same head are when their arguments are; otherwise one definition is
unfolded (the one at the weak head of the left side, or of what a ``match`` or projection there is stuck
on, else the right's; ``Std.eval_cbv`` with ``rDelta := false`` and that one reference in ``rConst``,
``Std.v`` 46-54: "false = delta only on rConst"), and the two are compared again. Where neither side has a
head to unfold, binders are compared part by part, under the binder (``cbv`` leaves an unbound ``Rel`` as it
is: ``pretyping/cbv.ml``'s ``norm_head``, ``Inr (n,None) -> (VAL(0, mkRel n), stack)``), and
``match``es on stuck terms by their return clauses (which name the inductive), scrutinees and branches
(one rebuilt with the other's case information raised a Coq anomaly, ``kernel/inductive.ml`` 453, on an
honest answer); anything else differs. Without ``fix`` the reduction ends, and
each comparison is counted: after :data:`STEPS` of them the check throws an Ltac2 exception that no
``first`` catches (``Control.v`` 16-17: ``throw``, "Fatal exception throwing. This does not induce
backtracking"), so the file stops and the step is an ``error``, never a pass. Pairs found different are
remembered, so a pair is not compared again after its heads are unfolded.

A full normal form, the first version of this check (round 42), is not reached where MathComp's analysis
is loaded: ``putnam_1980_a3``'s honest ``pi / 4`` against its integrand (``expR``, ``ln``, ``tan``)
normalised did not end in the step's 20 s. Lazily, its integral is a folded operator and ``pi / 4`` a
product of a stuck class projection, and the two differ at once (milliseconds). So the check now runs on
every number answer, the 44 pinned ones under analysis or classical libraries as well.

The operators G4 lists (``policy.answer_*_operators``, ``answer_tests``' decisions) are never unfolded: an
answer may not name one, and unfolding the question's (MathComp's Lebesgue integral) would not end. Each is
looked up by its full name (Ltac2's ``Env.get``, ``Env.v`` 13) and compared by path (``Env.path``,
``Env.v`` 21), so an operator of a library the statement does not load is skipped, not an error.

When the sides are the same, the goal is normalised by ``cbv`` with only the references the comparison
unfolded (confluence: two terms convertible by those unfoldings have one normal form), and the Ltac1 step
closes it by ``reflexivity`` (the two sides identical up to eta), so Coq checks every step. The check only
ever refuses: two convertible sides make the theorem hold by ``eq_refl``, so no honest answer (a value the
question had to be worked out to find) is refused by it. It runs inside the restatement step, under its
command ``Timeout``. Ltac2 is loaded, never imported (its ``Init.v`` sets the proof mode ``#[export]``), and
the tactic is defined in a module of its own that imports it, so the file's other steps stay in Ltac1.

Round 44: eta. Where neither side unfolds, a side that is a ``fun`` whose body applies a term that does not
name the bound variable to it (``fun n => Nat.pow 2 n``) is read as that term (``Nat.pow 2``), as Coq's
conversion does (``kernel/conversion.ml``'s eta rule): the question ``Nat.pow 2``, whose ``Nat.pow`` unfolds
to a ``fix`` the check never runs, met its eta-expanded copy as a ``fun`` against an application and passed.
Whether the bound variable occurs is asked of Coq: substituting two different constants for it gives one
term exactly when it does not occur (``Constr.Unsafe.substnl``, which also lowers the other indices). The
normal forms are then identical up to eta, which ``reflexivity`` closes (its conversion expands the side
that is no ``fun`` and meets identical bodies) instead of the former syntactic ``constr_eq``.

Round 47: a ``fix`` that never recurses. A copy inside one (``fix h (n : nat) : nat := 3 * n + 1`` for the
question ``fun n => 3 * n + 1``) is not convertible (its reduction waits for a constructor), so where the
kernel-bug rule is lifted (``--allow-recursion``) it passed G4 with a real proof (one case analysis). Where
neither side unfolds nor is an eta redex, a side whose head is a fixpoint whose chosen body names none of the
block's own functions is read as that body (a ``fun``) applied to its arguments: on every value of an
inductive type, a constructor, the two reduce alike. Whether a body names them is asked of Coq as for eta
(two different constants substituted give one term). Being no conversion, such a reading is then proved:
pointwise (``FIX_PROOF``), each fixpoint applied to a variable taken case by case, then ``reflexivity``.
Only what reads a fixpoint is affected: a comparison that reads none ends as before.

Round 50: where that proof fails (a fixpoint applied to a variable a ``fun`` inside the answer binds, such as
a summand's index: ``fun k => sum_n (fun j => (fix h m := ..) j) k``, which no case analysis of the goal
reaches), the check used to throw an exception no ``first`` catches, so the answer check was an ``error``.
The reading is true on every value (the fixpoint's argument is of an inductive type, and on each constructor
the fixpoint reduces to its body), so the sides are the same function: the answer is the question read
through a fixpoint that never recurses, and an honest answer is never one (its value had to be worked out).
The check now prints the harness's line :data:`UNPROVED` and fails, and G4 refuses the answer as a
restatement. The comparison never says "same" for sides that differ, so no other answer changes.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.decision_names import CLASSICAL_DECISIONS, REFLECTIONS
from putnam_solver.core.provers.rocq.loaded_unfold import ltac2_path
from putnam_solver.core.provers.rocq.policy import POLICY

OPERATORS = (
    *POLICY.answer_choice_operators,
    *POLICY.answer_decision_operators,
    *POLICY.answer_limit_operators,
    *REFLECTIONS,
    *CLASSICAL_DECISIONS,
)
"""The constants left folded: what G4 refuses in an answer, whose unfolding is the question's operator."""
MODULE = "Putnam_unfolded"
"""The environment file's module that imports Ltac2 and defines the check."""
STEPS = 20000
"""The comparisons the check may make before it gives up (an ``error``). Measured on the official answers of
15 pinned questions that are equations (11 of the 44 under analysis or classical libraries, and round
42's ``2020_a2``, ``1962_a5``, ``1997_b1``, ``1986_a2``): at most 59 (``putnam_1974_a4``), most under 20."""
_FAIL = "Control.zero (Tactic_failure None)"
FUNEXT = "Coq.Logic.FunctionalExtensionality"
FIX_CASES = (
    "do 8 try (match goal with |- context [?f ?x] => is_var x; "
    "match f with ?g _ _ => is_fix g | ?g _ => is_fix g | _ => is_fix f end; destruct x end); "
)
"""Case analysis on each variable a fixpoint is applied to (bounded: each round destructs one variable, and
a constructor is no variable), after which the fixpoint is applied to a constructor and reduces. Round 49: or
applied to it after up to two other arguments (``(fix h a m {struct m} := ..) 1 n``, whose structural argument
is not the first: the proof failed and the check was an ``error``)."""
FIX_PROOF = f"repeat (apply {FUNEXT}.functional_extensionality_dep; intro); {FIX_CASES}reflexivity"
"""The proof of an equation the comparison found the same only by reading a fixpoint that never recurses as
its body: pointwise (functional extensionality, the harness's own axiom), each such fixpoint applied to a
variable taken case by case, then conversion."""
_U = "Constr.Unsafe"


def _definitions() -> list[str]:
    """The Ltac2 helpers: the operators' paths, the flags that unfold one reference, the step counter, a
    term's head and arguments, the reference that blocks its weak head, one unfolding step."""
    paths = "; ".join(ltac2_path(name) for name in OPERATORS)
    return [
        "Ltac2 Type exn ::= [ Unfolded_bound ].",
        "Ltac2 operators () := List.fold_right (fun p acc => match Env.get p with | Some r => match r with "
        f"| Std.ConstRef _ => Env.path r :: acc | _ => acc end | None => acc end) [] [{paths}].",
        "Ltac2 rec same_path p q := match p with | [] => match q with [] => true | _ => false end "
        "| x :: p' => match q with [] => false | y :: q' => if Ident.equal x y then same_path p' q' else false "
        "end end.",
        "Ltac2 only (rs : Std.reference list) := { Std.rBeta := true; Std.rMatch := true; Std.rFix := false; "
        "Std.rCofix := false; Std.rZeta := true; Std.rDelta := false; Std.rConst := rs }.",
        "Ltac2 Type state := { ops : ident list list; fuel : int array; failed : (constr * constr) list array; "
        "unfolded : Std.reference list array; fixes : bool array }.",
        "Ltac2 tick (s : state) := let n := Array.get (s.(fuel)) 0 in "
        "if Int.le n 0 then Control.throw Unfolded_bound else Array.set (s.(fuel)) 0 (Int.sub n 1).",
        f"Ltac2 spine c := match {_U}.kind c with | {_U}.App h args => (h, args) | _ => (c, Array.make 0 c) end.",
        f"Ltac2 rec blocker (s : state) c := let (h, _) := spine c in match {_U}.kind h with "
        f"| {_U}.Constant k _ => let r := Std.ConstRef k in "
        "if List.exist (same_path (Env.path r)) (s.(ops)) then None else Some r "
        f"| {_U}.Var i => Some (Std.VarRef i) | {_U}.Case _ _ _ x _ => blocker s x "
        f"| {_U}.Proj _ x => blocker s x | _ => None end.",
        "Ltac2 step (s : state) c := match blocker s c with | None => None | Some r => "
        "let c' := Std.eval_cbv (only [r]) c in if Constr.equal c c' then None "
        "else (Array.set (s.(unfolded)) 0 (r :: Array.get (s.(unfolded)) 0); Some c') end.",
        f"Ltac2 lower c := {_U}.substnl [constr:(Coq.Init.Datatypes.O)] 0 c.",
        f"Ltac2 eta c := match {_U}.kind c with | {_U}.Lambda _ t => "
        f"match {_U}.kind t with | {_U}.App h args => let n := Int.sub (Array.length args) 1 in "
        f"match {_U}.kind (Array.get args n) with | {_U}.Rel i => if Int.equal i 1 then "
        f"let f := if Int.equal n 0 then h else {_U}.make ({_U}.App h (Array.sub args 0 n)) in "
        f"if Constr.equal (lower f) ({_U}.substnl [constr:(Coq.Init.Datatypes.true)] 0 f) then Some (lower f) "
        "else None else None | _ => None end | _ => None end | _ => None end.",
        "Ltac2 unfix (s : state) c := let (h, args) := spine c in "
        f"match {_U}.kind h with | {_U}.Fix _ i _ ts => let n := Array.length ts in let t := Array.get ts i in "
        f"let low := {_U}.substnl (List.init n (fun _ => constr:(Coq.Init.Datatypes.O))) 0 t in "
        f"if Constr.equal low ({_U}.substnl (List.init n (fun _ => constr:(Coq.Init.Datatypes.true))) 0 t) then "
        "(Array.set (s.(fixes)) 0 true; Some (Std.eval_cbv (only []) (if Int.equal (Array.length args) 0 then low "
        f"else {_U}.make ({_U}.App low args)))) else None | _ => None end.",
        "Ltac2 rec all2 f a b i := if Int.equal i (Array.length a) then true "
        "else if f (Array.get a i) (Array.get b i) then all2 f a b (Int.add i 1) else false.",
    ]


def _comparison() -> list[str]:
    """The comparison: ``conv`` (equal, or remembered as different, or compared by heads), ``conv_head``
    (same head and arguments, else one unfolding), ``rigid`` (neither side unfolds: binders and ``match``es
    part by part)."""
    same_shape = "Int.equal (Array.length xa) (Array.length xb)"
    return [
        "Ltac2 rec conv (s : state) a b := tick s; if Constr.equal a b then true "
        "else if List.exist (fun (x, y) => if Constr.equal x a then Constr.equal y b else false) "
        "(Array.get (s.(failed)) 0) then false else let r := conv_head s a b in "
        "(if r then () else Array.set (s.(failed)) 0 ((a, b) :: Array.get (s.(failed)) 0)); r "
        "with conv_head s a b := let (ha, xa) := spine a in let (hb, xb) := spine b in "
        f"if (if Constr.equal ha hb then if {same_shape} then all2 (conv s) xa xb 0 else false else false) "
        "then true else match step s a with | Some a' => conv s a' b | None => match step s b with "
        "| Some b' => conv s a b' | None => match eta a with | Some a' => conv s a' b | None => "
        f"match eta b with | Some b' => conv s a b' | None => match unfix s a with | Some a' => conv s a' b "
        f"| None => match unfix s b with | Some b' => conv s a b' | None => if {same_shape} then "
        "(if rigid s ha hb then all2 (conv s) xa xb 0 else false) else false end end end end end end "
        f"with rigid s a b := match {_U}.kind a with "
        f"| {_U}.Lambda x t => match {_U}.kind b with {_U}.Lambda y u => binders s x t y u | _ => false end "
        f"| {_U}.Prod x t => match {_U}.kind b with {_U}.Prod y u => binders s x t y u | _ => false end "
        f"| {_U}.Case _ p _ x bs => match {_U}.kind b with {_U}.Case _ q _ y cs => "
        "if Int.equal (Array.length bs) (Array.length cs) then if conv s p q then if conv s x y then "
        "all2 (conv s) bs cs 0 else false else false else false | _ => false end "
        f"| {_U}.Proj p x => match {_U}.kind b with {_U}.Proj _ y => "
        f"if Constr.equal b ({_U}.make ({_U}.Proj p y)) then conv s x y else false | _ => false end "
        "| _ => false end "
        "with binders s x t y u := if conv s (Constr.Binder.type x) (Constr.Binder.type y) then conv s t u "
        "else false.",
    ]


def unfolded_sentences() -> list[str]:
    """The Ltac2 tactic ``unfolded``: fails unless the goal is an equation whose two sides are convertible
    without ``fix``/``cofix`` and with the operators folded; if they are, it puts the goal in the normal
    form of what the comparison unfolded (both sides then identical)."""
    start = (
        f"let s := {{ ops := operators (); fuel := Array.make 1 {STEPS}; failed := Array.make 1 []; "
        "unfolded := Array.make 1 []; fixes := Array.make 1 false } in let nf := Std.eval_cbv (only []) in"
    )
    closed = (
        "Std.cbv (only (Array.get (s.(unfolded)) 0)) "
        "{ Std.on_hyps := Some []; Std.on_concl := Std.AllOccurrences }; "
        f"if Array.get (s.(fixes)) 0 then Control.plus (fun () => ltac1:({FIX_PROOF})) "
        "(fun _ => unproved (); Control.zero (Tactic_failure None)) else ()"
    )
    return [
        f"Require Ltac2.Ltac2 {FUNEXT}.",
        f"Module {MODULE}.",
        "Import Ltac2.Ltac2.",
        *_definitions(),
        *_comparison(),
        f"Ltac2 unfolded (unproved : unit -> unit) () := match {_U}.kind (Control.goal ()) with "
        f"| {_U}.App _ args => if Int.equal (Array.length args) 3 then {start} "
        "if conv s (nf (Array.get args 1)) (nf (Array.get args 2)) "
        f"then ({closed}) else {_FAIL} else {_FAIL} | _ => {_FAIL} end.",
        "Ltac2 Eval let _ := operators () in ().",
        f"End {MODULE}.",
    ]


UNPROVED = "-unproved-fix"
"""What the check prints after the file's marker where the sides are the same only by reading a fixpoint that
never recurses as its body and that reading could not be proved where the fixpoint stands (round 50)."""


def unfolded_tactic(marker: str) -> str:
    """The Ltac1 tactic: an equation's two sides (any other goal fails at once, before anything unfolds), the
    check, then the equation of sides identical up to eta closed (Coq's conversion has eta: one side a
    ``fun``, the other is expanded and the bodies are identical, so ``reflexivity`` evaluates nothing). The
    check runs on each goal in focus (``Control.enter``): after :func:`split_tactic`, one per case."""
    unproved = f'(fun () => ltac1:(idtac "{marker}{UNPROVED}"))'
    return (
        "(lazymatch goal with |- @Coq.Init.Logic.eq _ _ _ => idtac end; "
        f"ltac2:(Ltac2.Control.enter ({MODULE}.unfolded {unproved})); reflexivity)"
    )


def split_tactic(marker: str) -> str:
    """Round 49: the same check on each case of a function's first argument, where the whole sides differ. A
    copy of the question split by cases (``fun n => match n with 0 => 3 * 0 + 1 | S m => 3 * S m + 1 end`` for
    ``fun n => 3 * n + 1``, or inside a ``fix`` that never recurses) is no conversion of it, and passed G4; on
    each constructor its ``match`` reduces and the two sides are the same. Only a refusal can come of it
    (every case the same is a proof of the equation), and an argument of no inductive type (a real) is not
    split."""
    each = unfolded_tactic(marker)
    return f"(apply {FUNEXT}.functional_extensionality_dep; let x := fresh in intro x; destruct x; {each})"
