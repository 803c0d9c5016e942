"""The answer check's readings of ``PI`` to five places, of trigonometry at rational multiples of ``PI``, of
inverse trigonometry at roots and of logarithms of powers (red team 25; a part of ``answer_values``).

The computed reading still left ``unknown`` (so ``accepted`` on the vacuous ``putnam_2013_b2``, official ``3``)
wrong answers whose value needs a fact it lacked: ``PI - 1/8`` (it knew only ``3 < PI <= 4``), ``exp 1 + 1/4``,
``sin (5 * PI / 6) * 8`` and ``cos (2 * PI / 3) * (-8)`` (values were known at ``PI/6``... and at whole
multiples of ``PI`` only), ``asin (sqrt 2 / 2) * 16 / PI``, ``acos (sqrt 2 / 2)``, ``atan (sqrt 3) * 12 / PI``
(values known at ``0``, ``1``, ``+-1/2``), ``ln 8 / ln 2 + 1`` (a logarithm of a power of a numeral), ``Rpower
(exp 1) (ln 4)`` (``ln (exp 1)`` read as ``1`` only after the power lemmas had run). So the hypothesis now has:

* ``314159/100000 < PI < 314160/100000``, from the library's Machin-like series bounds ``PI_2_3_7_ineq``, and
  ``exp 1`` to four places (``exp_ineq1`` at ``+-1/1024``, squared ten times);
* each ``sin x`` and ``cos x`` whose argument ``lra`` shows equal to ``c + j * PI`` (``c`` one of ``0``,
  ``+-PI/6``, ``+-PI/4``, ``+-PI/3``, ``PI/2``; ``j`` a whole number from ``-3`` to ``3``) rewritten so, which
  the addition formulas and the known values then read;
* ``asin``, ``acos``, ``atan`` at an argument ``x >= 0`` with ``x * x`` equal to ``1/2``, ``3/4``, ``3``,
  ``1/3`` or ``1`` (shown by ``nra`` with each square root's square in hand) as multiples of ``PI``, and at a
  negative argument through ``asin (-x) = - asin x`` and its kin;
* ``ln (x * y)`` as ``ln x + ln y`` where both are positive (``ln (exp 1 * exp 2) + 1`` was ``unknown``);
* ``ln n`` at a numeral power ``n = b ^ k`` (``b`` from ``2`` to ``10``, ``k >= 2``) as ``k * ln b``, ``ln
  (x ^ k)`` as ``k * ln x``, and ``1/2 < ln 2`` (so ``ln 2 * / ln 2 = 1``);
* each ``sqrt n`` at a positive numeral between rationals six places apart (``sqrt 2 + sqrt 3``, ``sqrt
  (sqrt 2) + 2`` were ``unknown``: ``nra`` knew only ``sqrt 2 * sqrt 2 = 2``);
* the exponent and power readings run a second time after the known values are substituted.

Equations and bounds all, each a ``Qed`` the kernel checks in the harness's file: none can make a
``differs`` wrong. Each side condition (``x = c + j * PI``, ``x * x = 1/2``, ``n = b ^ k``) is proved
without the hypothesis, which a wrong answer makes false. Full names throughout: the candidate's module,
loaded before, cannot shadow one.
"""

from __future__ import annotations

import math
from fractions import Fraction

from putnam_solver.core.provers.rocq.answer_powers import POSITIVE

_HALVINGS = 10
_GRAIN = 10**9


def _q(x: Fraction) -> str:
    return f"({x.numerator}/{x.denominator})" if x.denominator != 1 else f"{x.numerator}"


def _e_bounds() -> str:
    """``exp 1`` between rationals to four places: ``1 + h < exp h < 1 / (1 - h)`` at ``h = 1/1024`` (the
    library's ``exp_ineq1`` at ``h`` and ``-h``), then squared ten times (``sq_step``), each bound rounded
    outwards to a grain of ``10^-9`` so that the numerals stay small; every step a ``lra``/``nra`` step."""
    h = Fraction(1, 2**_HALVINGS)
    lo = Fraction(math.floor((1 + h) * _GRAIN), _GRAIN)
    hi = Fraction(math.ceil(_GRAIN / (1 - h)), _GRAIN)
    first, steps, x = f"{_q(lo)} < exp {_q(h)} < {_q(hi)}", [], h
    for _ in range(_HALVINGS):
        y, lo2, hi2 = (
            2 * x,
            Fraction(math.floor(lo * lo * _GRAIN), _GRAIN),
            Fraction(math.ceil(hi * hi * _GRAIN), _GRAIN),
        )
        steps.append(
            f"  apply sq_step in b; [ | lra ]. replace (2 * {_q(x)}) with {_q(y)} in b by field. "
            f"assert (c : {_q(lo2)} < exp {_q(y)} < {_q(hi2)}) by (destruct b; split; lra). clear b; rename c into b.\n"
        )
        x, lo, hi = y, lo2, hi2
    low, high = Fraction(math.floor(lo * 10**5), 10**5), Fraction(math.ceil(hi * 10**5), 10**5)
    return (
        "Lemma sq_step : forall a b x, 0 < a -> a < exp x < b -> a * a < exp (2 * x) < b * b.\n"
        "Proof. intros a b x ha [l u]. replace (2 * x) with (x + x) by ring. rewrite exp_plus. split; nra. Qed.\n"
        f"Lemma e_bounds : {_q(low)} < exp 1 < {_q(high)}.\nProof.\n"
        f"  pose proof (exp_ineq1 {_q(h)} ltac:(lra)). pose proof (exp_ineq1 (-{_q(h)}) ltac:(lra)).\n"
        f"  assert (exp {_q(h)} * exp (-{_q(h)}) = 1) by (rewrite <- exp_plus, <- exp_0; f_equal; ring).\n"
        f"  pose proof (exp_pos {_q(h)}). pose proof (exp_pos (-{_q(h)})).\n"
        f"  assert (b : {first}) by (split; nra). "
        "clear - b.\n" + "".join(steps) + "  destruct b; split; lra.\nQed.\n"
    )


BOUNDS = "__PutnamBounds"
BOUND_LEMMAS = (
    f"Module {BOUNDS}.\nImport Coq.Reals.Reals.\nLocal Open Scope R_scope.\n"
    "Lemma pi_bounds : 314159/100000 < PI < 314160/100000.\n"
    "Proof. pose proof (PI_2_3_7_ineq 2) as [l u]. cbv [sum_f_R0 tg_alt PI_2_3_7_tg Ratan_seq] in l, u. "
    "simpl in l, u. split; lra. Qed.\n"
    "Lemma sq_eq : forall x y, 0 <= x -> 0 <= y -> x * x = y * y -> x = y.\n"
    "Proof. intros x y hx hy h. rewrite <- (sqrt_square x hx), <- (sqrt_square y hy), h. reflexivity. Qed.\n"
    "Lemma sqrt3 : sqrt 3 * sqrt 3 = 3.\nProof. apply sqrt_sqrt. lra. Qed.\n"
    "Lemma sqrt2 : sqrt 2 * sqrt 2 = 2.\nProof. apply sqrt_sqrt. lra. Qed.\n"
    "Lemma sqrt3_pos : 0 < sqrt 3.\nProof. apply sqrt_lt_R0. lra. Qed.\n"
    "Lemma sqrt2_pos : 0 < sqrt 2.\nProof. apply sqrt_lt_R0. lra. Qed.\n"
    "Lemma inv_sqrt : forall x, 0 < x -> / sqrt x * / sqrt x = / x.\n"
    "Proof. intros x h. rewrite <- Rinv_mult, sqrt_sqrt by lra. reflexivity. Qed.\n"
    "Lemma asin_quarter : forall x, 0 <= x -> x * x = 1/2 -> asin x = PI/4.\n"
    "Proof. intros x hx h. rewrite <- asin_inv_sqrt2. f_equal. apply sq_eq. exact hx.\n"
    "  left. apply Rinv_0_lt_compat, sqrt2_pos. rewrite h, <- Rinv_mult, sqrt2. lra. Qed.\n"
    "Lemma asin_third : forall x, 0 <= x -> x * x = 3/4 -> asin x = PI/3.\n"
    "Proof. intros x hx h. rewrite <- (asin_sin (PI/3)) by (pose proof PI_RGT_0; lra). f_equal.\n"
    "  rewrite sin_PI3. pose proof sqrt3; pose proof sqrt3_pos. apply sq_eq; nra. Qed.\n"
    "Lemma asin_whole : forall x, x = 1 -> asin x = PI/2.\nProof. intros x h. rewrite h. apply asin_1. Qed.\n"
    "Lemma acos_quarter : forall x, 0 <= x -> x * x = 1/2 -> acos x = PI/4.\n"
    "Proof. intros x hx h. rewrite <- acos_inv_sqrt2. f_equal. apply sq_eq. exact hx.\n"
    "  left. apply Rinv_0_lt_compat, sqrt2_pos. rewrite h, <- Rinv_mult, sqrt2. lra. Qed.\n"
    "Lemma acos_sixth : forall x, 0 <= x -> x * x = 3/4 -> acos x = PI/6.\n"
    "Proof. intros x hx h. rewrite <- (acos_cos (PI/6)) by (pose proof PI_RGT_0; lra). f_equal.\n"
    "  rewrite cos_PI6. pose proof sqrt3; pose proof sqrt3_pos. apply sq_eq; nra. Qed.\n"
    "Lemma acos_whole : forall x, x = 1 -> acos x = 0.\nProof. intros x h. rewrite h. apply acos_1. Qed.\n"
    "Lemma atan_third : forall x, 0 <= x -> x * x = 3 -> atan x = PI/3.\n"
    "Proof. intros x hx h. rewrite <- (atan_tan (PI/3)) by (pose proof PI_RGT_0; lra). f_equal.\n"
    "  rewrite tan_PI3. pose proof sqrt3; pose proof sqrt3_pos. apply sq_eq; nra. Qed.\n"
    "Lemma atan_sixth : forall x, 0 <= x -> x * x = 1/3 -> atan x = PI/6.\n"
    "Proof. intros x hx h. rewrite <- (atan_tan (PI/6)) by (pose proof PI_RGT_0; lra). f_equal.\n"
    "  rewrite tan_PI6. pose proof sqrt3; pose proof sqrt3_pos. apply sq_eq. exact hx.\n"
    "  left. apply Rdiv_lt_0_compat; lra. rewrite h. unfold Rdiv. rewrite !Rmult_1_l, inv_sqrt by lra. "
    "reflexivity. Qed.\n"
    "Lemma atan_quarter : forall x, 0 <= x -> x * x = 1 -> atan x = PI/4.\n"
    "Proof. intros x hx h. rewrite <- atan_1. f_equal. apply sq_eq; lra. Qed.\n"
    "Lemma asin_neg : forall x, x < 0 -> asin x = - asin (- x).\n"
    "Proof. intros x _. rewrite asin_opp. ring. Qed.\n"
    "Lemma acos_neg : forall x, x < 0 -> acos x = PI - acos (- x).\n"
    "Proof. intros x _. rewrite acos_opp. ring. Qed.\n"
    "Lemma atan_neg : forall x, x < 0 -> atan x = - atan (- x).\n"
    "Proof. intros x _. rewrite atan_opp. ring. Qed.\n"
    "Lemma shift : forall (f : R -> R) x c j, x = c + IZR j * PI -> f x = f (c + IZR j * PI).\n"
    "Proof. intros f x c j h. rewrite h. reflexivity. Qed.\n"
    "Lemma same : forall (f : R -> R) x c, x = c -> f x = f c.\n"
    "Proof. intros f x c h. rewrite h. reflexivity. Qed.\n"
    "Lemma ln_pow_pos : forall x b q, 0 < b -> x = b ^ Pos.to_nat q -> ln x = IZR (Zpos q) * ln b.\n"
    "Proof. intros x b q hb h. rewrite h, ln_pow by exact hb. rewrite INR_IZR_INZ, positive_nat_Z. "
    "reflexivity. Qed.\n"
    "Fixpoint times (b p : Z) (fuel : nat) : positive := match fuel with O => xH | S f => "
    "if Z.eqb (Z.modulo p b) 0 then (if Z.eqb (Z.div p b) 1 then xH else Pos.succ (times b (Z.div p b) f)) "
    "else xH end.\n"
    "Lemma between : forall x a b, 0 <= a -> 0 <= b -> a * a <= x -> x < b * b -> a <= sqrt x < b.\n"
    "Proof. intros x a b ha hb h1 h2. pose proof (sqrt_pos x). assert (hx : 0 <= x) by nra.\n"
    "  assert (e : sqrt x * sqrt x = x) by (apply sqrt_sqrt; exact hx). split.\n"
    "  - destruct (Rle_or_lt a (sqrt x)) as [l|l]; [exact l | nra].\n"
    "  - destruct (Rlt_or_le (sqrt x) b) as [l|l]; [exact l | nra]. Qed.\n" + _e_bounds() + f"End {BOUNDS}.\n"
)
"""The bounds of ``PI`` (``PI_2_3_7_ineq`` at ``N = 2``), ``asin``/``acos``/``atan`` where the argument's square
is known (from the library's ``asin_inv_sqrt2``, ``asin_sin``, ``acos_cos``, ``atan_tan``, ``tan_PI3``...),
the odd/shift equations, ``ln (b ^ k) = k * ln b`` (``ln_pow``); ``times b p`` counts how often ``b`` divides
``p`` (a guess only: ``p = b ^ k`` is then proved by ``lra``)."""

_R = "Coq.Reals.Rdefinitions"
_PI = "Coq.Reals.Rtrigo1.PI"
_B = BOUNDS

ROOT_SIDE = (
    "(clear __putnam_h; unfold Coq.Reals.Rdefinitions.Rdiv; rewrite <- ?Coq.Reals.R_sqrt.sqrt_inv; "
    "repeat match goal with |- context [Coq.Reals.R_sqrt.sqrt ?y] => assert_fails (idtac; match goal with "
    f"_ : {_R}.Rle _ (Coq.Reals.R_sqrt.sqrt y) |- _ => idtac end); pose proof (Coq.Reals.R_sqrt.sqrt_pos y); "
    f"try (assert (Coq.Init.Logic.eq ({_R}.Rmult (Coq.Reals.R_sqrt.sqrt y) (Coq.Reals.R_sqrt.sqrt y)) y) "
    "by (apply Coq.Reals.R_sqrt.sqrt_sqrt; lra)) end; first [ lra | nra ])"
)
"""A side condition about an argument (``0 <= x``, ``x * x = 1/2``), without the hypothesis: each square root
``sqrt y`` of it with ``0 <= sqrt y`` and ``sqrt y * sqrt y = y``, an inverse ``/ sqrt y`` read as ``sqrt (/ y)``."""

_ARC = {
    "asin": ("asin_whole", "asin_quarter", "asin_third", "asin_neg"),
    "acos": ("acos_whole", "acos_quarter", "acos_sixth", "acos_neg"),
    "atan": ("atan_quarter", "atan_third", "atan_sixth", "atan_neg"),
}
INVERSE_ROOTS = "".join(
    f"(repeat match type of __putnam_h with context [Coq.Reals.Ratan.{f} ?x] => first ["
    + " | ".join(f"rewrite ({_B}.{lemma} x) in __putnam_h by {ROOT_SIDE}" for lemma in lemmas)
    + "] end); "
    for f, lemmas in _ARC.items()
)
"""``asin``, ``acos``, ``atan`` at a root value as a multiple of ``PI``; a negative argument first made positive."""

_N = "Coq.Numbers.BinNums"


def positive_term(n: int) -> str:
    """``n > 0`` as the constructors of ``positive`` (no numeral notation, whose scope may be unloaded)."""
    return f"{_N}.xH" if n == 1 else f"({_N}.{'xI' if n % 2 else 'xO'} {positive_term(n // 2)})"


def z_term(n: int) -> str:
    """``n`` as the constructors of ``Z`` (as :func:`positive_term`)."""
    return f"{_N}.Z0" if n == 0 else f"({_N}.{'Zpos' if n > 0 else 'Zneg'} {positive_term(abs(n))})"


def _part(k: int) -> str:
    return f"({_R}.Rdiv {_PI} ({_R}.IZR ({_N}.Zpos {positive_term(k)})))"


_TARGETS = (
    f"({_R}.IZR {_N}.Z0)",
    *(_part(k) for k in (6, 4, 3, 2)),
    *(f"({_R}.Ropp {_part(k)})" for k in (6, 4, 3)),
)
"""The points where ``SPECIAL_VALUES`` knows ``sin`` and ``cos`` (``0``, ``+-PI/6``... ``PI/2``), in full."""
_WHOLE = tuple(f"({_N}.{'Zpos' if j > 0 else 'Zneg'} {positive_term(abs(j))})" for j in (1, -1, 2, -2, 3, -3))
_SKIP = (
    f"{_R}.IZR _",
    f"{_R}.Rmult ({_R}.IZR _) {_PI}",
    f"{_R}.Rmult {_PI} ({_R}.IZR _)",
    f"{_R}.Rplus _ ({_R}.Rmult ({_R}.IZR _) {_PI})",
    f"{_R}.Ropp _",
    f"{_R}.Rdiv {_PI} ({_R}.IZR _)",
    _PI,
)
SHIFTS = "".join(
    f"(repeat match type of __putnam_h with context [Coq.Reals.Rtrigo_def.{f} ?x] => "
    f"lazymatch x with context [{_PI}] => idtac end; "
    "lazymatch x with "
    + " | ".join(f"{s} => fail" for s in _SKIP)
    + " | _ => idtac end; first ["
    + " | ".join(
        f"rewrite ({_B}.same Coq.Reals.Rtrigo_def.{f} x {c}) in __putnam_h by (clear __putnam_h; lra)" for c in _TARGETS
    )
    + " | "
    + " | ".join(
        f"rewrite ({_B}.shift Coq.Reals.Rtrigo_def.{f} x {c} {j}) in __putnam_h by (clear __putnam_h; lra)"
        for j in _WHOLE
        for c in _TARGETS
    )
    + "] end); "
    for f in ("sin", "cos")
)
"""``sin x`` and ``cos x`` at an argument ``lra`` shows equal to a known point ``c`` or to ``c + j * PI``
rewritten so (not an argument already of such a form), for the addition formulas and known values after."""

_LN = "Coq.Reals.Rpower.ln"
LOGS = (
    f"(repeat match type of __putnam_h with context [{_LN} ({_R}.Rmult ?x ?y)] => "
    f"rewrite (Coq.Reals.Rpower.ln_mult x y) in __putnam_h by (clear __putnam_h; {POSITIVE}) end); "
    f"(repeat match type of __putnam_h with context [{_LN} (Coq.Reals.Rpow_def.pow ?x ?n)] => "
    f"rewrite (Coq.Reals.Rpower.ln_pow x) in __putnam_h by (clear __putnam_h; lra) end); "
    f"(repeat match type of __putnam_h with context [{_LN} ({_R}.IZR (Coq.Numbers.BinNums.Zpos ?p))] => "
    "first ["
    + " | ".join(
        f"(let q := eval vm_compute in ({_B}.times ({_N}.Zpos {positive_term(b)}) ({_N}.Zpos p) 64) in "
        "lazymatch q with Coq.Numbers.BinNums.xH => fail | _ => idtac end; "
        f"rewrite ({_B}.ln_pow_pos ({_R}.IZR ({_N}.Zpos p)) ({_R}.IZR ({_N}.Zpos {positive_term(b)})) q) in __putnam_h "
        "by (clear __putnam_h; cbv [Coq.PArith.BinPosDef.Pos.to_nat Coq.PArith.BinPosDef.Pos.iter_op "
        "Coq.Init.Nat.add]; lra))"
        for b in (2, 3, 5, 6, 7, 10)
    )
    + "] end); "
)
"""``ln (x * y)`` as ``ln x + ln y`` (``ln_mult``, where both are shown positive), ``ln (x ^ k)`` as ``k * ln x``
(``ln_pow``, where ``0 < x``) and ``ln n`` at a numeral ``n = b ^ k`` (``k >= 2``)
as ``k * ln b``."""

MORE_FACTS = f"pose proof Coq.Reals.Rpower.ln_lt_2; pose proof {_B}.pi_bounds; pose proof {_B}.e_bounds; "
"""``1/2 < ln 2`` (so ``ln 2 * / ln 2 = 1`` can be shown), ``PI`` to five places and ``exp 1`` to four."""

_EXP = "Coq.Reals.Rtrigo_def.exp"
_IZR = f"{_R}.IZR _"
EXP_NORMAL = (
    f"(do 4 try match type of __putnam_h with context [{_EXP} ?e] => lazymatch e with context [{_LN} _] => idtac end; "
    f"lazymatch e with {_R}.Rmult ({_IZR}) ({_LN} _) => fail | {_R}.Rmult ({_R}.Rinv ({_IZR})) ({_LN} _) => fail "
    f"| {_R}.Rmult ({_R}.Rmult ({_IZR}) ({_R}.Rinv ({_IZR}))) ({_LN} _) => fail | {_LN} _ => fail "
    "| _ => progress ring_simplify e in __putnam_h end end); "
)
"""An exponent with a logarithm in none of the forms the power lemmas read put in the ring's normal form
(``2 * ln 2 * 1``, left by ``ln 4`` read as ``2 * ln 2``, is ``2 * ln 2``), four rounds at most."""

_SCALE = f"({_R}.Rinv ({_R}.IZR ({_N}.Zpos {positive_term(10**6)})))"
_ROOT = f"Coq.Reals.R_sqrt.sqrt ({_R}.IZR ({_N}.Zpos p))"
ROOT_BOUNDS = (
    f"repeat match type of __putnam_h with context [Coq.Reals.R_sqrt.sqrt ({_R}.IZR ({_N}.Zpos ?p))] => "
    f"assert_fails (idtac; match goal with _ : Coq.Init.Logic.and ({_R}.Rle _ ({_ROOT})) _ |- _ => idtac end); "
    f"let m := eval vm_compute in (Coq.ZArith.BinIntDef.Z.sqrt (Coq.ZArith.BinIntDef.Z.mul ({_N}.Zpos p) "
    f"({_N}.Zpos {positive_term(10**12)}))) in "
    "let n := eval vm_compute in (Coq.ZArith.BinIntDef.Z.succ m) in "
    f"assert (Coq.Init.Logic.and ({_R}.Rle ({_R}.Rmult ({_R}.IZR m) {_SCALE}) ({_ROOT})) "
    f"({_R}.Rlt ({_ROOT}) ({_R}.Rmult ({_R}.IZR n) {_SCALE}))) "
    f"by (apply {_B}.between; clear __putnam_h; lra) end; "
)
"""Each ``sqrt n`` at a positive numeral between rationals six places apart (``m / 10^6 <= sqrt n < (m + 1) /
10^6``, ``m`` the integer square root of ``n * 10^12`` computed, the bounds proved by ``lra`` through the lemma
``between``): ``sqrt 2 + sqrt 3`` is then ``3.146...``, never ``3``. Once per root (the bounds mark it)."""
