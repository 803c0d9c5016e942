"""No-answer: a number answer may not be the question unfolded (a G4 check, beside ``restated``'s).

``restated`` compares a number answer with the expression the question asks to evaluate by syntax alone:
conversion on numbers can evaluate the statement's arithmetic (``putnam_1986_a2``'s ``10 ^ 20000``), so an
honest answer would time the check out. A copy written through a library function's definition then
passed: ``putnam_2020_a2``'s ``sum_n (fun j => ..) k`` answered with ``sum_n_m (fun j => ..) 0 k``
(Coquelicot's ``Hierarchy.v`` 844: ``Definition sum_n (a : nat -> G) n := sum_n_m a O n``), Coq's
``Binomial.C`` written out as its ``INR (fact n) / ..``, MathComp's ``x ^+ n`` as ``iterop n *%R x 1``,
``Rsqr x`` as ``x * x``, or a let-bound function of the theorem's inlined. Each makes the theorem true by
conversion, so a proof of it found nothing, and it was accepted with the answer check ``unknown``.

Coq decides it by meaning: both sides of the equation are normalised by ``cbv`` with every reduction but
``fix`` and ``cofix`` (``beta``, ``delta``, ``match``, ``zeta``: each definition unfolded, local ones too,
each ``match`` on a constructor taken) and compared syntactically. Without ``fix`` nothing recursive runs,
so no arithmetic is evaluated (``Nat.pow`` unfolds to a ``fix`` that is never applied): the work is
bounded by the sizes of the definitions, not by the values of the numbers. The
operators G4 lists (``policy.answer_*_operators``, ``answer_tests``' decisions) are left folded: an answer
may not name one, and unfolding the question's (MathComp's Lebesgue integral) did not end in 20 s, where
folded it takes milliseconds. Each is looked up by its full name (Ltac2's ``Env.get``, ``Env.v`` 13; the
flags' ``rDelta`` is "delta all but ``rConst``", ``Std.v`` 52), so an operator of a library the statement
does not load is skipped, not an error, and a name that is no constant (the lists hold the record
constructor ``CompleteSpace.Mixin``) is skipped, as ``cbv`` cannot take it. The flags are used once when
the file defines them: an error there stops the file (an ``error``), where inside the step's ``first`` it
would read as no copy.

It runs only where the statement loads no MathComp analysis or classical library (:data:`MATHCOMP_CORE`):
two normal forms there can be too large to reach in time, and a lazy comparison (unfolding only where the
sides differ) would be needed.

The check only ever refuses: two sides with the same normal form make the theorem hold by ``eq_refl``, so
no honest answer (a value the question had to be worked out to find) is refused by it; every official
answer passes (``tests/adversarial/test_rocq_restated.py -k official``). It runs inside the restatement
step, under its command ``Timeout``, so an exhausted time or stack stops the file and is an ``error``,
never a pass. Ltac2 is loaded, never imported (its ``Init.v`` sets the proof mode ``#[export]``), and the
tactic is defined in a module of its own that imports it, so the file's other steps stay in Ltac1.
"""

from __future__ import annotations

import re

from putnam_solver.core.provers.rocq.answer_tests import CLASSICAL_DECISIONS, REFLECTIONS
from putnam_solver.core.provers.rocq.policy import POLICY
from putnam_solver.core.provers.rocq.statement_shape import Statement

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
_FAIL = "Control.zero (Tactic_failure None)"


MATHCOMP_CORE = frozenset(
    {"all_ssreflect", "all_algebra", "all_fingroup", "ssreflect", "ssrfun", "ssrbool", "eqtype", "ssrnat"}
    | {"seq", "path", "choice", "div", "fintype", "tuple", "finfun", "bigop", "prime", "finset", "binomial"}
    | {"order", "fingroup", "perm", "ssralg", "ssrnum", "ssrint", "rat", "poly", "polydiv", "matrix", "zmodp"}
    | {"interval", "algebra", "From", "Require", "Import", "Export", "mathcomp"}
)
"""The MathComp libraries (``ssreflect``, ``algebra``, ``fingroup``) under which the check runs. Where a
statement loads MathComp's analysis or classical libraries (``reals``, ``exp``, ``trigo``, ``sequences``...)
it does not: their functions are defined by limits through long chains of transparent definitions, and
``putnam_1980_a3``'s honest ``pi / 4`` against its integrand (``expR``, ``ln``, ``tan``) normalised did not
end in the step's 20 s, an ``error`` where the answer is honest. There a number answer meets syntactic
identity alone, as before."""
_MATHCOMP_REQUIRE = re.compile(r"(?:From\s+mathcomp\s+)?Require[^.]*?mathcomp[^.]*\.|From\s+mathcomp\s+Require[^.]*\.")


def applies(statement: Statement) -> bool:
    """Whether the check runs: the statement loads no MathComp library outside :data:`MATHCOMP_CORE`."""
    for sentence in _MATHCOMP_REQUIRE.findall(statement.text):
        words = re.split(r"[\s.]+", sentence)
        if any(w and w not in MATHCOMP_CORE for w in words):
            return False
    return True


def _path(name: str) -> str:
    return "[" + "; ".join(f"@{part}" for part in name.split(".")) + "]"


def unfolded_sentences() -> list[str]:
    """The Ltac2 tactic ``unfolded``: fails unless the goal is an equation whose two sides have the same
    normal form under ``cbv`` without ``fix``/``cofix`` and with the operators folded; if they do, it puts the
    goal in that form (both sides then identical)."""
    paths = "; ".join(_path(name) for name in OPERATORS)
    flags = (
        "{ Std.rBeta := true; Std.rMatch := true; Std.rFix := false; Std.rCofix := false; Std.rZeta := true; "
        "Std.rDelta := true; Std.rConst := List.fold_right (fun p acc => match Env.get p with "
        "| Some r => match r with Std.ConstRef _ => r :: acc | _ => acc end | None => acc end) "
        f"[] [{paths}] }}"
    )
    return [
        "Require Ltac2.Ltac2.",
        f"Module {MODULE}.",
        "Import Ltac2.Ltac2.",
        f"Ltac2 flags () := {flags}.",
        "Ltac2 unfolded () := match Constr.Unsafe.kind (Control.goal ()) with "
        "| Constr.Unsafe.App _ args => if Int.equal (Array.length args) 3 then let fl := flags () in "
        "if Constr.equal (Std.eval_cbv fl (Array.get args 1)) (Std.eval_cbv fl (Array.get args 2)) "
        "then Std.cbv fl { Std.on_hyps := Some []; Std.on_concl := Std.AllOccurrences } "
        f"else {_FAIL} else {_FAIL} | _ => {_FAIL} end.",
        "Ltac2 Eval let _ := Std.eval_cbv (flags ()) constr:(Coq.Init.Logic.I) in ().",
        f"End {MODULE}.",
    ]


UNFOLDED = (
    "(lazymatch goal with |- @Coq.Init.Logic.eq _ _ _ => idtac end; "
    f"ltac2:({MODULE}.unfolded ()); lazymatch goal with |- @Coq.Init.Logic.eq _ ?a ?b => constr_eq a b; "
    "reflexivity end)"
)
"""The Ltac1 tactic: an equation's two sides (any other goal fails at once, before anything unfolds: the
three arguments of ``putnam_1970_b1``'s ``cvg_to`` normalised did not end in 20 s), the check, then the
equation of identical sides closed."""
