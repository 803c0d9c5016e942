"""The answer check's exact readings of naturals and of multiples of ``PI`` (a part of ``answer_values``).

Red team 22 (values). The computed reading (``answer_values``) still left ``unknown`` (and so ``accepted``
on the vacuous ``putnam_2013_b2``) a wrong answer whose value needs an equation it lacked or a computation
too large for unary arithmetic: ``cos (4 * PI) + 3``, ``sin (3 * PI) + 4`` (only ``PI`` and ``2 * PI`` were
known values), ``Rpower 2 (INR 2)`` (``INR 2`` computed to the sum ``1 + 1``, which the rational-exponent
lemmas do not read), ``INR (fact 12)`` (a stack overflow in unary). So, before anything is computed, the
hypothesis has:

* ``INR (fact n)`` as ``IZR (zfact n)``, the factorial in binary integers (:data:`EXACT_LEMMAS`), then the
  library's ``mult_INR``, ``plus_INR``, ``pow_INR`` and ``INR_IZR_INZ``: a natural's value is a binary
  integer, never a unary number, and ``INR 2`` is the numeral ``2`` that ``Rpower``'s lemmas read;
* ``cos (k * PI)`` and ``sin (k * PI)`` (or ``PI * k``) at a whole numeral ``k`` (also negative) as ``+-1`` and ``0``,
  from lemmas the harness's file proves from the library's ``cos_period``/``sin_period``.

Equations all (``Qed``s the kernel checks in the harness's file): none can make a ``differs`` wrong. Full
names throughout: the candidate's module, loaded before, cannot shadow one.
"""

from __future__ import annotations

EXACT = "__PutnamExact"
EXACT_LEMMAS = (
    f"Module {EXACT}.\nImport Coq.Reals.Reals.\nLocal Open Scope R_scope.\n"
    "Definition sign (p : positive) : R := match p with xO _ => 1 | _ => -1 end.\n"
    "Lemma even_pi : forall q, IZR (Zpos (xO q)) * PI = 0 + 2 * INR (Pos.to_nat q) * PI.\n"
    "Proof. intro q. rewrite INR_IZR_INZ, positive_nat_Z, Pos2Z.inj_xO, mult_IZR. ring. Qed.\n"
    "Lemma odd_pi : forall q, IZR (Zpos (xI q)) * PI = PI + 2 * INR (Pos.to_nat q) * PI.\n"
    "Proof. intro q. rewrite INR_IZR_INZ, positive_nat_Z, Pos2Z.inj_xI, plus_IZR, mult_IZR. ring. Qed.\n"
    "Lemma cos_pos : forall p, cos (IZR (Zpos p) * PI) = sign p.\n"
    "Proof. intros [q|q|]; cbn [sign].\n"
    "- rewrite odd_pi, cos_period. apply cos_PI.\n- rewrite even_pi, cos_period. apply cos_0.\n"
    "- rewrite Rmult_1_l. apply cos_PI. Qed.\n"
    "Lemma sin_pos : forall p, sin (IZR (Zpos p) * PI) = 0.\n"
    "Proof. intros [q|q|].\n"
    "- rewrite odd_pi, sin_period. apply sin_PI.\n- rewrite even_pi, sin_period. apply sin_0.\n"
    "- rewrite Rmult_1_l. apply sin_PI. Qed.\n"
    "Lemma cos_neg_pos : forall p, cos (IZR (Zneg p) * PI) = sign p.\n"
    "Proof. intro p. rewrite <- Pos2Z.opp_pos, opp_IZR, Ropp_mult_distr_l_reverse, cos_neg. apply cos_pos. Qed.\n"
    "Lemma sin_neg_pos : forall p, sin (IZR (Zneg p) * PI) = 0.\n"
    "Proof. intro p. rewrite <- Pos2Z.opp_pos, opp_IZR, Ropp_mult_distr_l_reverse, sin_neg, sin_pos. "
    "apply Ropp_0. Qed.\n"
    "Lemma cos_pos_r : forall p, cos (PI * IZR (Zpos p)) = sign p.\n"
    "Proof. intro p. rewrite Rmult_comm. apply cos_pos. Qed.\n"
    "Lemma sin_pos_r : forall p, sin (PI * IZR (Zpos p)) = 0.\n"
    "Proof. intro p. rewrite Rmult_comm. apply sin_pos. Qed.\n"
    "Lemma cos_neg_r : forall p, cos (PI * IZR (Zneg p)) = sign p.\n"
    "Proof. intro p. rewrite Rmult_comm. apply cos_neg_pos. Qed.\n"
    "Lemma sin_neg_r : forall p, sin (PI * IZR (Zneg p)) = 0.\n"
    "Proof. intro p. rewrite Rmult_comm. apply sin_neg_pos. Qed.\n"
    "Fixpoint zfact (n : nat) : Z := match n with O => 1%Z | S m => (Z.of_nat n * zfact m)%Z end.\n"
    "Lemma INR_fact : forall n, INR (fact n) = IZR (zfact n).\n"
    "Proof. induction n as [|n IH]. reflexivity. change (fact (S n)) with (S n * fact n)%nat. "
    "rewrite mult_INR, IH, INR_IZR_INZ, <- mult_IZR. reflexivity. Qed.\n"
    f"End {EXACT}.\n"
)
"""``cos (k * PI) = +-1`` and ``sin (k * PI) = 0`` for a whole ``k`` (its sign by the last binary digit,
from ``cos_period``/``sin_period`` at ``k = 2q`` or ``2q + 1``), and ``INR (fact n) = IZR (zfact n)``,
the factorial in binary integers (by induction, ``mult_INR``): ``Qed``s in the harness's file."""

_RI = "Coq.Reals.RIneq"
NATURALS = (
    f"rewrite ?{EXACT}.INR_fact in __putnam_h; "
    f"rewrite ?{_RI}.mult_INR, ?{_RI}.plus_INR, ?{_RI}.pow_INR, ?{_RI}.INR_IZR_INZ in __putnam_h; "
    "cbn [Coq.ZArith.BinIntDef.Z.of_nat Coq.PArith.BinPosDef.Pos.of_succ_nat Coq.PArith.BinPosDef.Pos.succ] "
    "in __putnam_h; "
)
"""A natural's value as a binary integer: the factorial as ``zfact``, products, sums and powers of
naturals as those of reals, and each ``INR n`` as ``IZR (Z.of_nat n)``, a numeral where ``n`` is one."""

_MULTIPLE_LEMMAS = (
    "cos_pos",
    "sin_pos",
    "cos_neg_pos",
    "sin_neg_pos",
    "cos_pos_r",
    "sin_pos_r",
    "cos_neg_r",
    "sin_neg_r",
)
MULTIPLES = f"rewrite ?{', ?'.join(f'{EXACT}.{n}' for n in _MULTIPLE_LEMMAS)} in __putnam_h; "
"""``cos`` and ``sin`` at a whole multiple of ``PI`` as their values (``sign`` computed by the ``cbv`` after)."""
