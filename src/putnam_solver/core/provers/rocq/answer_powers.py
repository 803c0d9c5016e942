"""The answer check's readings of inverse trigonometry at ``1/2``, of exponents and of square roots (red team 24).

A part of ``answer_values``. Its computed reading still left ``unknown`` (and so ``accepted`` on the vacuous
``putnam_2013_b2``, official ``3``) these wrong answers, each ``4``: ``asin (1/2) * 24 / PI``, ``acos (1/2) *
12 / PI`` (the library proves no value of ``asin``/``acos`` at ``1/2``); ``Rpower 2 (1 + 1)`` (the
rational-exponent lemmas read a numeral exponent only), ``exp (ln 2 * 2)``, ``exp (ln 4 / 2) + 2`` (the
logarithm on the left of the product); ``Rpower (sqrt 2) 4`` (``lra`` cannot show ``0 < sqrt 2``, the side
condition of the power lemma); ``sqrt (sqrt 16) + 2`` (the facts ``s * s = t`` and ``t * t = 16`` are out of
``nra``'s degree). So the hypothesis now has:

* ``asin x`` and ``acos x`` rewritten where ``lra`` shows ``x = 1/2`` or ``x = -(1/2)`` (from the library's
  ``asin_sin``/``acos_cos`` at ``PI/6``/``PI/3``, :data:`POWER_LEMMAS`);
* ``exp (ln x * y)`` as ``exp (y * ln x)``, and an exponent ``y`` that is no numeral put in the ring's normal
  form (``1 + 1`` is ``2``), before the power lemmas read it; their base shown positive also as a square
  root or an exponential (:data:`POSITIVE`);
* ``sqrt n`` at a numeral ``n = m * m`` as ``m`` (``m`` the integer square root, computed by ``vm_compute``;
  the equation ``n = m * m`` proved by ``lra``, so a non-square is left alone).

Equations all, each a ``Qed`` the kernel checks in the harness's file, used in a proof of ``candidate <>
official`` that is a ``Qed`` too: none can make a ``differs`` wrong. A side condition about the answer's own
value (``x = 1/2``, ``n = m * m``) is proved without the hypothesis, which a wrong answer makes false. Full
names throughout: the candidate's module, loaded before, cannot shadow one.
"""

from __future__ import annotations

POWERS_MODULE = "__PutnamPowers"
POWER_LEMMAS = (
    f"Module {POWERS_MODULE}.\nImport Coq.Reals.Reals.\nLocal Open Scope R_scope.\n"
    "Lemma asin_half : forall x, x = 1/2 -> asin x = PI/6.\n"
    "Proof. intros x h. rewrite h, <- sin_PI6. apply asin_sin. pose proof PI_RGT_0. lra. Qed.\n"
    "Lemma acos_half : forall x, x = 1/2 -> acos x = PI/3.\n"
    "Proof. intros x h. rewrite h, <- cos_PI3. apply acos_cos. pose proof PI_RGT_0. lra. Qed.\n"
    "Lemma asin_neg_half : forall x, x = -(1/2) -> asin x = -(PI/6).\n"
    "Proof. intros x h. rewrite h, asin_opp, (asin_half (1/2)) by reflexivity. reflexivity. Qed.\n"
    "Lemma acos_neg_half : forall x, x = -(1/2) -> acos x = 2 * PI / 3.\n"
    "Proof. intros x h. rewrite h, acos_opp, (acos_half (1/2)) by reflexivity. field. Qed.\n"
    "Lemma exp_comm : forall x y, exp (ln x * y) = exp (y * ln x).\n"
    "Proof. intros x y. rewrite Rmult_comm. reflexivity. Qed.\n"
    "Lemma sqrt_sq : forall x y, 0 <= y -> x = y * y -> sqrt x = y.\n"
    "Proof. intros x y hy hx. rewrite hx. apply sqrt_square. exact hy. Qed.\n"
    f"End {POWERS_MODULE}.\nImport Coq.Reals.RIneq.\n"
)
"""``asin``/``acos`` at ``+-1/2``, ``exp (ln x * y) = exp (y * ln x)`` and ``sqrt (m * m) = m`` for ``m >= 0``,
proved in the harness's file from the library's ``asin_sin``, ``acos_cos``, ``asin_opp``, ``acos_opp``,
``sqrt_square``. Then the library's ``RIneq`` imported, for its ``Add Field`` over the reals (with numerals
as constants), which ``ring_simplify`` needs and a ``Require`` alone does not declare. The file names every
constant in full after it (the claim, the reference's instance), so the import changes no name it reads;
and the file only ever proves ``candidate <> official``, a ``Qed`` the kernel checks."""

_R = "Coq.Reals.Rdefinitions"
_EXP = "Coq.Reals.Rtrigo_def.exp"
_LN = "Coq.Reals.Rpower.ln"
_SQRT = "Coq.Reals.R_sqrt.sqrt"
_P = POWERS_MODULE

INVERSE_TRIG = "".join(
    f"(repeat match type of __putnam_h with context [Coq.Reals.Ratan.{f} ?x] => first ["
    f"rewrite ({_P}.{f}_half x) in __putnam_h by (clear __putnam_h; lra) | "
    f"rewrite ({_P}.{f}_neg_half x) in __putnam_h by (clear __putnam_h; lra) ] end); "
    for f in ("asin", "acos")
)
"""``asin x`` and ``acos x`` at ``+-1/2`` as multiples of ``PI`` (before ``cbv`` unfolds them)."""

_NUMERAL = f"{_R}.IZR _"
EXPONENTS = (
    f"(repeat match type of __putnam_h with context [{_EXP} ({_R}.Rmult ({_LN} ?x) ?y)] => "
    f"lazymatch y with {_LN} _ => fail | _ => rewrite ({_P}.exp_comm x y) in __putnam_h end end); "
    f"(do 4 try match type of __putnam_h with context [{_EXP} ({_R}.Rmult ?y ({_LN} _))] => "
    f"lazymatch y with {_NUMERAL} => fail | {_R}.Rinv ({_NUMERAL}) => fail "
    f"| {_R}.Rmult ({_NUMERAL}) ({_R}.Rinv ({_NUMERAL})) => fail "
    "| _ => progress ring_simplify y in __putnam_h end end); "
)
"""``exp (ln x * y)`` as ``exp (y * ln x)`` (not where ``y`` is a logarithm too, which would turn forever), and
an exponent in none of the forms the power lemmas read put in the ring's normal form (``1 + 1`` is ``2``),
four rounds at most."""

POSITIVE = "first [ lra | (apply Coq.Reals.R_sqrt.sqrt_lt_R0; lra) | apply Coq.Reals.Exp_prop.exp_pos ]"
"""The base of a power shown positive: by ``lra``, or as the square root of a positive or an exponential."""

ROOTS = (
    f"(repeat match type of __putnam_h with context [{_SQRT} ({_R}.IZR (Coq.Numbers.BinNums.Zpos ?p))] => "
    "let m := eval vm_compute in (Coq.ZArith.BinIntDef.Z.sqrt (Coq.Numbers.BinNums.Zpos p)) in "
    f"rewrite ({_P}.sqrt_sq ({_R}.IZR (Coq.Numbers.BinNums.Zpos p)) ({_R}.IZR m)) in __putnam_h "
    "by (clear __putnam_h; lra) end); "
)
"""``sqrt n`` at a positive numeral that is a square, ``n = m * m``, as ``m`` (``sqrt (sqrt 16)`` is ``2``)."""
