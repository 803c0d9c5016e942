"""The answer check's reading of an answer by computation: library definitions unfolded, known values used.

Red team 21. On the vacuous ``putnam_2013_b2`` (every answer has a sound proof) only the answer check's
``differs`` keeps a wrong answer from being ``accepted``. Its tactics read arithmetic: ``lra`` and ``nra``
take any other term as an opaque atom. So a wrong answer written through a definition of the library
that computes to a number, or through a transcendental function at a point where its value is known,
was ``unknown`` and the verdict ``accepted``: ``Rsqr 2``, ``R_dist 4 0``, ``powerRZ 2 2``,
``INR (fact 3) - 2``, ``sum_f_R0 (fun _ => 1) 3``, Coquelicot's ``sum_n (fun _ => 1) 3``, ``if Nat.eqb 2 2
then 4 else 3`` (all ``4``), ``cos 0 + 3``, ``sin PI + 4``, ``ln 1 + 4``, ``atan 0 + 4``, ``Rsqr (sqrt 4)``,
``4 * (PI / PI)``, a ``match`` on ``total_order_T``, each for ``3``.

The class is "a number the check's arithmetic does not evaluate", so the reading goes by what the terms
compute, not by their names: a fourth attempt first rewrites the library's equations for the values of
``sin``, ``cos``, ``tan``, ``atan``, ``exp``, ``ln`` and ``sqrt`` at ``0``, ``1``, ``PI/2``, ``PI`` and
``2 * PI`` (``sin`` and ``cos`` also at ``PI/3``, ``PI/4``, ``PI/6``; ``asin``, ``acos`` at ``0`` and ``1``: red team
23), ``ln (exp x) = x``, and ``exp (ln x) = x`` where ``lra`` shows ``0 < x`` (:data:`SPECIAL_VALUES`),
then lets ``cbv`` unfold every transparent constant but those ``lra`` reads or the reals' facts know
(:data:`KEPT`: the order relations, ``IZR``, powers, and the transcendental atoms), which computes
``Rsqr``, ``R_dist``, ``powerRZ``, ``INR``, ``fact``, sums over a fixed range and Boolean tests to
arithmetic; a ``match`` left on a term no computation decides (``total_order_T 0 1``) is split into its
cases (:data:`CASES`), and an inverse ``/ x`` of an atom the facts show nonzero gets ``x * / x = 1``
(:data:`INVERSES`). Then the reals' facts and ``lra``/``nra``, as in the third attempt.

Red team 22 widened the class: the library's values reached through an equation, not a computation,
were still ``unknown`` (``Rpower 2 2``, ``Rpower 16 (1/2)``, ``cos (PI + PI) + 3``, ``IZR (up (1/2)) + 3``).
So the attempt first rewrites the addition formulas of ``cos``, ``sin`` and ``exp`` (:data:`SUMS`), keeps
``up`` and ``Int_part`` folded and adds their bounds (:data:`ARCHIMEDEAN`), and reads ``Rpower`` at a
rational exponent, computed to ``exp (y * ln x)``, through lemmas the harness's file proves
(:data:`VALUE_LEMMAS`, :data:`POWERS`).

Nothing here can make a ``differs`` wrong: the attempt is a ``Qed`` of ``candidate <> official`` that the
kernel checks, in the harness's file, on the compiled candidate and reference. A computation too large
for the attempt's ``Timeout`` or the sandbox's memory leaves the answer ``unknown``, as before. Full names
throughout: the candidate's module, loaded before, cannot shadow one.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.answer_bounds import (
    BOUND_LEMMAS,
    EXP_NORMAL,
    INVERSE_ROOTS,
    LOGS,
    MORE_FACTS,
    ROOT_BOUNDS,
    SHIFTS,
)
from putnam_solver.core.provers.rocq.answer_exact import EXACT_LEMMAS, MULTIPLES, NATURALS
from putnam_solver.core.provers.rocq.answer_powers import EXPONENTS, INVERSE_TRIG, POSITIVE, POWER_LEMMAS, ROOTS

_R = "Coq.Reals.Rdefinitions"
_T = "Coq.Reals.Rtrigo_def"
_T1 = "Coq.Reals.Rtrigo1"

SPECIAL_VALUES = (
    f"{_T}.cos_0",
    f"{_T}.sin_0",
    f"{_T}.exp_0",
    f"{_T1}.sin_PI",
    f"{_T1}.cos_PI",
    f"{_T1}.sin_PI2",
    f"{_T1}.cos_PI2",
    f"{_T1}.sin_2PI",
    f"{_T1}.cos_2PI",
    f"{_T1}.tan_0",
    "Coq.Reals.Rtrigo_calc.cos_PI3",
    "Coq.Reals.Rtrigo_calc.sin_PI3",
    "Coq.Reals.Rtrigo_calc.cos_PI6",
    "Coq.Reals.Rtrigo_calc.sin_PI6",
    "Coq.Reals.Rtrigo_calc.cos_PI4",
    "Coq.Reals.Rtrigo_calc.sin_PI4",
    "Coq.Reals.Ratan.atan_0",
    "Coq.Reals.Ratan.atan_1",
    "Coq.Reals.Ratan.asin_0",
    "Coq.Reals.Ratan.asin_1",
    "Coq.Reals.Ratan.acos_0",
    "Coq.Reals.Ratan.acos_1",
    "Coq.Reals.Rpower.ln_1",
    "Coq.Reals.Rpower.ln_exp",
    "Coq.Reals.R_sqrt.sqrt_0",
    "Coq.Reals.R_sqrt.sqrt_1",
)
"""The library's equations for values of the transcendental functions (``f c = v``, and ``ln (exp x) = x``)."""

KEPT = (
    f"{_R}.IZR",
    f"{_R}.up",
    "Coq.Reals.R_Ifp.Int_part",
    f"{_R}.Rle",
    f"{_R}.Rgt",
    f"{_R}.Rge",
    f"{_R}.Rminus",
    "Coq.Reals.Rpow_def.pow",
    "Coq.Reals.Rbasic_fun.Rabs",
    "Coq.Reals.Rbasic_fun.Rmax",
    "Coq.Reals.Rbasic_fun.Rmin",
    "Coq.Reals.R_sqrt.sqrt",
    f"{_T}.exp",
    f"{_T}.sin",
    f"{_T}.cos",
    f"{_T1}.PI",
    f"{_T1}.tan",
    "Coq.Reals.Ratan.atan",
    "Coq.Reals.Rpower.ln",
)
"""Constants ``cbv`` leaves folded: those ``lra`` reads (numerals, order relations, powers by a numeral), the
atoms whose facts the third attempt adds, and ``Rabs``/``Rmax``/``Rmin``, which ``REAL_FORMS`` splits. The
field's operations themselves are parameters of a sealed module: no reduction unfolds them."""

SUMS = (
    "Coq.Reals.Cos_plus.cos_plus",
    f"{_T1}.sin_plus",
    f"{_T1}.cos_minus",
    f"{_T1}.sin_minus",
    f"{_T1}.cos_neg",
    f"{_T1}.sin_neg",
    "Coq.Reals.Exp_prop.exp_plus",
)
"""The addition formulas of ``cos``, ``sin`` and ``exp``: ``cos (PI + PI)`` becomes values :data:`SPECIAL_VALUES`
knows, ``exp (ln 2 + ln 2)`` a product of ``exp (ln 2)``. Equations, so no reading they give is wrong."""
SUM_ROUNDS = 8
"""How many rounds of :data:`SUMS` (one rewrite of each a round): each doubles the atoms of one sum, so
``cos (1 + 1 + ... + 1)`` rewritten to the end would grow without bound and spend the attempt's time."""
EXPANDED = f"do {SUM_ROUNDS} ({' '.join(f'try rewrite {lemma} in __putnam_h;' for lemma in SUMS)[:-1]}); "
"""The hypothesis with the addition formulas applied, :data:`SUM_ROUNDS` rounds at most."""

VALUES = "__PutnamValues"
_V = f"Module {VALUES}.\nImport Coq.Reals.Reals.\nLocal Open Scope R_scope.\n"
VALUE_LEMMAS = (
    _V + "Lemma exp_int : forall x p, 0 < x -> exp (IZR (Zpos p) * ln x) = x ^ Pos.to_nat p.\n"
    "Proof. intros x p hx. rewrite <- (Rpower_pow _ _ hx). unfold Rpower. "
    "rewrite INR_IZR_INZ, positive_nat_Z. reflexivity. Qed.\n"
    "Lemma exp_neg : forall x p, 0 < x -> exp (IZR (Zneg p) * ln x) * x ^ Pos.to_nat p = 1.\n"
    "Proof. intros x p hx. rewrite <- (exp_int x p hx), <- exp_plus, <- exp_0. f_equal. "
    "rewrite <- Pos2Z.opp_pos, opp_IZR. ring. Qed.\n"
    "Lemma exp_frac : forall x a b, 0 < x -> exp (IZR (Zpos a) * / IZR (Zpos b) * ln x) ^ Pos.to_nat b = "
    "x ^ Pos.to_nat a.\n"
    "Proof. intros x a b hx. rewrite <- Rpower_pow by apply exp_pos. "
    "change (exp (IZR (Zpos a) * / IZR (Zpos b) * ln x)) with (Rpower x (IZR (Zpos a) * / IZR (Zpos b))). "
    "rewrite Rpower_mult, <- Rpower_pow by exact hx. f_equal. rewrite !INR_IZR_INZ, !positive_nat_Z. field. "
    "apply not_0_IZR; discriminate. Qed.\n"
    "Lemma exp_inv : forall x b, 0 < x -> exp (/ IZR (Zpos b) * ln x) ^ Pos.to_nat b = x.\n"
    "Proof. intros x b hx. pose proof (exp_frac x 1 b hx) as e. rewrite Rmult_1_l, pow_1 in e. exact e. Qed.\n"
    "Lemma inv_zero : forall x, x = 0 -> / x = 0.\nProof. intros x h. rewrite h. exact Rinv_0. Qed.\n"
    "Lemma ln_nonpos : forall x, x <= 0 -> ln x = 0.\n"
    "Proof. intros x h. unfold ln. destruct (Rlt_dec 0 x) as [l|l]. exfalso; lra. reflexivity. Qed.\n"
    f"End {VALUES}.\n" + EXACT_LEMMAS + POWER_LEMMAS + BOUND_LEMMAS
)
"""The values of ``Rpower`` (``exp (y * ln x)`` once computed) at a rational exponent, proved in the harness's
file from the library's ``Rpower_pow`` and ``Rpower_mult``: ``x ^ n`` for a whole ``n``, ``1 / x ^ n`` for a
negative one, and for ``a / b`` (also ``/ b``, and a decimal such as ``0.5``) the equation ``r ^ b = x ^ a``
that, with ``r > 0``, pins the value (``Rpower 16 (1/2)`` is the ``r > 0`` with ``r ^ 2 = 16``)."""

_EXP = f"{_T}.exp"
_LN = "Coq.Reals.Rpower.ln"
_NAT = "Coq.PArith.BinPosDef.Pos.to_nat Coq.PArith.BinPosDef.Pos.iter_op Coq.Init.Nat.add"


def _once(pattern: str, fact: str, proof: str) -> str:
    """For each ``pattern`` in the hypothesis, ``fact`` proved by ``proof`` (once: the fact marks it)."""
    return (
        f"repeat match type of __putnam_h with context [{pattern}] => assert_fails (idtac; match goal with "
        f"_ : {fact} |- _ => idtac end); assert ({fact}) by ({proof}) end; "
    )


_POS = "Coq.Numbers.BinNums.Zpos"
_POWER = f"{_EXP} ({_R}.Rmult ({_R}.IZR ({_POS} ?p)) ({_LN} ?x))"
POWERS = (
    f"(repeat match type of __putnam_h with context [{_POWER}] => "
    f"rewrite ({VALUES}.exp_int x p) in __putnam_h by ({POSITIVE}) end); "
    + _once(
        f"{_EXP} ({_R}.Rmult ({_R}.IZR (Coq.Numbers.BinNums.Zneg ?p)) ({_LN} ?x))",
        f"Coq.Init.Logic.eq ({_R}.Rmult ({_EXP} ({_R}.Rmult ({_R}.IZR (Coq.Numbers.BinNums.Zneg p)) ({_LN} x))) "
        f"(Coq.Reals.Rpow_def.pow x (Coq.PArith.BinPosDef.Pos.to_nat p))) ({_R}.IZR ({_POS} Coq.Numbers.BinNums.xH))",
        f"apply {VALUES}.exp_neg; lra",
    )
    + _once(
        f"{_EXP} ({_R}.Rmult ({_R}.Rmult ({_R}.IZR ({_POS} ?a)) ({_R}.Rinv ({_R}.IZR ({_POS} ?b)))) ({_LN} ?x))",
        f"Coq.Init.Logic.eq (Coq.Reals.Rpow_def.pow ({_EXP} ({_R}.Rmult ({_R}.Rmult ({_R}.IZR ({_POS} a)) "
        f"({_R}.Rinv ({_R}.IZR ({_POS} b)))) ({_LN} x))) (Coq.PArith.BinPosDef.Pos.to_nat b)) "
        f"(Coq.Reals.Rpow_def.pow x (Coq.PArith.BinPosDef.Pos.to_nat a))",
        f"apply {VALUES}.exp_frac; {POSITIVE}",
    )
    + _once(
        f"{_EXP} ({_R}.Rmult ({_R}.Rinv ({_R}.IZR ({_POS} ?b))) ({_LN} ?x))",
        f"Coq.Init.Logic.eq (Coq.Reals.Rpow_def.pow ({_EXP} ({_R}.Rmult ({_R}.Rinv ({_R}.IZR ({_POS} b))) "
        f"({_LN} x))) (Coq.PArith.BinPosDef.Pos.to_nat b)) x",
        f"apply {VALUES}.exp_inv; {POSITIVE}",
    )
    + f"cbv beta iota delta [{_NAT}] in *; "
)
"""``Rpower`` at a rational exponent (:data:`VALUE_LEMMAS`), where ``lra`` shows the base positive; the
exponents ``Pos.to_nat p`` then computed to numerals, which ``lra`` and ``nra`` read."""

ARCHIMEDEAN = _once(
    f"{_R}.up ?r",
    f"Coq.Init.Logic.and ({_R}.Rgt ({_R}.IZR ({_R}.up r)) r) ({_R}.Rle ({_R}.Rminus "
    f"({_R}.IZR ({_R}.up r)) r) ({_R}.IZR ({_POS} Coq.Numbers.BinNums.xH)))",
    "apply Coq.Reals.Raxioms.archimed",
) + _once(
    "Coq.Reals.R_Ifp.Int_part ?r",
    f"Coq.Init.Logic.and ({_R}.Rle ({_R}.IZR (Coq.Reals.R_Ifp.Int_part r)) r) ({_R}.Rgt ({_R}.Rminus "
    f"({_R}.IZR (Coq.Reals.R_Ifp.Int_part r)) r) ({_R}.Ropp ({_R}.IZR ({_POS} Coq.Numbers.BinNums.xH))))",
    "apply Coq.Reals.R_Ifp.base_Int_part",
)
"""``up r`` and ``Int_part r`` bounded by ``r`` (the library's ``archimed``, ``base_Int_part``): ``IZR (up
(1/2))`` lies in ``(1/2, 3/2]``, which is enough to tell it from a number outside."""

OUTSIDE = "".join(
    f"(repeat match type of __putnam_h with context [{atom} ?x] => "
    f"rewrite ({lemma} x) in __putnam_h by (clear __putnam_h; lra) end); "
    for atom, lemma in (
        (f"{_R}.Rinv", f"{VALUES}.inv_zero"),
        (_LN, f"{VALUES}.ln_nonpos"),
        ("Coq.Reals.R_sqrt.sqrt", "Coq.Reals.R_sqrt.sqrt_neg_0"),
    )
)
"""Red team 23: the values Coq's reals give outside a function's domain, ``/ 0 = 0`` (``Rinv_0``), ``ln x = 0``
and ``sqrt x = 0`` for ``x <= 0``, rewritten wherever ``lra`` shows the argument there (``1/0 + 4``, ``ln (1 -
1) + 4``, ``4 - sqrt (-16)`` are ``4``); ``lra`` took each as an unknown atom. Equations proved in the
harness's file (:data:`VALUE_LEMMAS`) or the library's. The side condition is proved without the hypothesis:
the hypothesis of a wrong answer is false, so ``lra`` proves anything from it (``1073741824 = 0`` from
``2 ^ 30 / 1073741824 + 3 = 3``), and the rewrite would replace that false hypothesis with a true one."""

_SPECIAL = f"rewrite ?{', ?'.join(SPECIAL_VALUES)} in __putnam_h; "
COMPUTED = (
    f"{NATURALS}{EXPANDED}{MULTIPLES}"
    f"(try unfold {_T1}.tan in __putnam_h); {INVERSE_TRIG}{INVERSE_ROOTS}{SHIFTS}{EXPANDED}{MULTIPLES}{_SPECIAL}"
    "(rewrite ?Coq.Reals.Rpower.exp_ln in __putnam_h by lra); "
    f"cbv beta iota zeta delta -[{' '.join(KEPT)}] in __putnam_h; "
    f"{OUTSIDE}{ROOTS}{LOGS}{EXPONENTS}{_SPECIAL}{POWERS}{EXPONENTS}{EXP_NORMAL}{_SPECIAL}{POWERS}{ARCHIMEDEAN}{MORE_FACTS}{ROOT_BOUNDS}"
)
"""The hypothesis ``candidate = official`` with the addition formulas and known values rewritten (``tan`` as
``sin / cos``, so ``tan (PI / 2)`` is ``1 / 0``), the rest computed, then the values outside the domains (and
the known values again, at the points they give: ``cos (ln 0)`` is ``cos 0``), of ``Rpower``, ``up`` and
``Int_part`` in hand."""

CASES = (
    "repeat match type of __putnam_h with context [match ?c with _ => _ end] => "
    "lazymatch c with context [match _ with _ => _ end] => fail | _ => idtac end; "
    "destruct c; cbv beta iota in __putnam_h end; "
)
"""Each ``match`` left on a term no computation decides split into its cases, each a goal of its own, the
innermost first. Round 50: ``if is_left (Rlt_dec 0 1) then 5 else 1`` unfolds to a ``match`` on a ``match``
on ``Rlt_dec 0 1``; splitting the outer one first generalised the inner ``match`` to a bare Boolean, losing the
comparison it stands for, so its ``false`` case (``1 = 1``) was no contradiction and the wrong ``5`` was
``unknown`` (accepted). A scrutinee holding a ``match`` is skipped (``fail`` backtracks to the next
occurrence), so the comparison itself is split and ``lra`` refutes the impossible case."""

INVERSES = (
    f"repeat match type of __putnam_h with context [{_R}.Rinv ?x] => assert_fails (idtac; match goal with "
    f"_ : Coq.Init.Logic.eq ({_R}.Rmult x ({_R}.Rinv x)) _ |- _ => idtac end); "
    f"assert (Coq.Init.Logic.eq ({_R}.Rmult x ({_R}.Rinv x)) ({_R}.IZR (Coq.Numbers.BinNums.Zpos "
    "Coq.Numbers.BinNums.xH))) by (apply Coq.Reals.RIneq.Rinv_r; intro; first [ lra | nra ]) end; "
)
"""``x * / x = 1`` for each inverse of the hypothesis whose argument the facts in hand show nonzero (``PI /
PI``), once each (the equation marks it)."""
