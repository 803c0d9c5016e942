"""Library definitions that are a choice, limit, integral, derivative or bound operator under another name.

G4 reads a no-answer answer's kernel term, printed raw, for the operators of ``policy`` (a value picked
by choice, a limit or integral copied from the question): it sees the constants the answer names, not
what they unfold to. Red team 41 found library definitions that apply a listed operator to an argument
the caller gives, so the question's own integral, supremum, derivative or count passed under their names
(accepted on the full profile, the answer check ``unknown``): Coquelicot's ``AutoDerive.interp`` of
``Int e a b`` is ``RInt (fun x => interp (x :: l) e) ...`` by computation (``putnam_1984_a5``'s triple
integral copied is ``eq_refl``), ``Sup_fct f a b`` is a ``Lub_Rbar``, MathComp's ``derive1n 1 f`` is
``derive1 f``, whose body is ``lim``, and ``#|` fset_set A|`` counts a classical set by choice. The names
below are those of every definition of the installed libraries (Coq 8.16's Reals, Coquelicot 3.2,
mathcomp-analysis 0.6) whose body applies such an operator to its own function, set or sequence
parameter, found by reading each source file (file and line of each definition below) and each name
confirmed by coqc's ``Locate``. Functions of a number defined by a limit or choice (``exp``, ``sin``,
``ln``, ``pi``, ``Rfloor``) are values, and are not listed.
"""

from __future__ import annotations

CHOICE_ALIASES = (
    # cardinality.v 709: `fset_set A := if pselect (finite_set A) is left Afin then projT1 (cid ...) else fset0`
    "mathcomp.classical.cardinality.fset_set",
    # fsbigop.v 36: the support of `\sum_(i \in A) F i` over a classical set, `fset_set` of it
    "mathcomp.classical.fsbigop.finite_support",
    # measure.v 1788: `counting X := if `[< finite_set X >] then #|` fset_set X|%:R%:E else +oo`
    "mathcomp.analysis.measure.counting",
    # classical_sets.v 2208-2209: `unsquash s := projT1 (cid ...)`, a witness out of a proof
    "mathcomp.classical.classical_sets.unsquash",
    # eqtype.v 729: `val` on `{x | P x}` is `proj1_sig` through this structure, which the print names instead
    "mathcomp.ssreflect.eqtype.sig_subType",
)
"""A finite set (or its size) picked by choice from a classical set (``#|` fset_set [set n | P n]|`` is the
count a counting question asks for), and a witness or a package's value by another name."""

LIMIT_ALIASES = (
    # Coquelicot AutoDerive.v 125-136: `interp l (Int e a b) := RInt (fun x => interp (x :: l) e) ...`, and
    # `AppExtD` is `Derive_Rn`
    "Coquelicot.AutoDerive.interp",
    # Coquelicot SF_seq.v 2362-2371: `Lub_Rbar`/`Glb_Rbar` of a function's values on an interval
    "Coquelicot.SF_seq.Sup_fct",
    "Coquelicot.SF_seq.Inf_fct",
    # Coquelicot Derive_2d.v 495: a sum of `partial_derive`
    "Coquelicot.Derive_2d.differential",
    # Coq Reals RiemannInt.v 1804: `RiemannInt` from `a` to `x`; NewtonInt.v 25: an antiderivative's
    # difference, the antiderivative taken from the integrability proof
    "Coq.Reals.RiemannInt.primitive",
    "Coq.Reals.NewtonInt.NewtonInt",
    # mathcomp-analysis derive.v 48, 153, 337, 353: the differential (by `get`), the Jacobian, `f^`()`
    # (`lim` of the difference quotient) and its iterate `f^`(n)`
    "mathcomp.analysis.derive.diff",
    "mathcomp.analysis.derive.jacobian",
    "mathcomp.analysis.derive.derive1",
    "mathcomp.analysis.derive.derive1n",
    # sequences.v 2012-2014, 2305-2307, 2379-2380: suprema and infima of tails, and their limits
    "mathcomp.analysis.sequences.sups",
    "mathcomp.analysis.sequences.infs",
    "mathcomp.analysis.sequences.esups",
    "mathcomp.analysis.sequences.einfs",
    "mathcomp.analysis.sequences.LimSup.lim_esup",
    "mathcomp.analysis.sequences.LimSup.lim_einf",
    # summability.v 42: `sum x := lim (partial_sum x)`
    "mathcomp.analysis.summability.sum",
    # measure.v 1721, 3044, 3420: a series of measures, the outer measure (`ereal_inf`) and its extension
    "mathcomp.analysis.measure.mseries",
    "mathcomp.analysis.measure.mu_ext",
    "mathcomp.analysis.measure.Hahn_ext",
    # normedtype.v 4390: the interval between `inf X` and `sup X`; lebesgue_measure.v 61, 394, 734: its
    # length and the Lebesgue measure built on it
    "mathcomp.analysis.normedtype.Rhull",
    "mathcomp.analysis.lebesgue_measure.hlength",
    "mathcomp.analysis.lebesgue_measure.lebesgue_measure",
    "mathcomp.analysis.lebesgue_measure.elebesgue_measure",
    # lebesgue_integral.v 2803, 4462, 4579, 4658-4659: integrals under other names, product measures
    "mathcomp.analysis.lebesgue_integral.Rintegral",
    "mathcomp.analysis.lebesgue_integral.product_measure1",
    "mathcomp.analysis.lebesgue_integral.product_measure2",
    "mathcomp.analysis.lebesgue_integral.fubini_F",
    "mathcomp.analysis.lebesgue_integral.fubini_G",
    # altreals realsum.v 128-133 (`psum` a `sup`), realseq.v 428 (`nlim`, by `xchoose`), distr.v 121-124,
    # 358, 542, 573: probabilities, expectations and limits of distributions
    "mathcomp.analysis.altreals.realsum.psum",
    "mathcomp.analysis.altreals.realsum.sum",
    "mathcomp.analysis.altreals.realseq.nlim",
    "mathcomp.analysis.altreals.distr.pr",
    "mathcomp.analysis.altreals.distr.esp",
    "mathcomp.analysis.altreals.distr.espc",
    "mathcomp.analysis.altreals.distr.mlet",
    "mathcomp.analysis.altreals.distr.mlim",
    "mathcomp.analysis.altreals.distr.dlim",
)
"""A limit, integral, series, derivative or bound of a function, set or sequence the caller gives."""
