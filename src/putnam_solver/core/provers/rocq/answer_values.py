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
``2 * PI``, ``ln (exp x) = x``, and ``exp (ln x) = x`` where ``lra`` shows ``0 < x`` (:data:`SPECIAL_VALUES`),
then lets ``cbv`` unfold every transparent constant but those ``lra`` reads or the reals' facts know
(:data:`KEPT`: the order relations, ``IZR``, powers, and the transcendental atoms), which computes
``Rsqr``, ``R_dist``, ``powerRZ``, ``INR``, ``fact``, sums over a fixed range and Boolean tests to
arithmetic; a ``match`` left on a term no computation decides (``total_order_T 0 1``) is split into its
cases (:data:`CASES`), and an inverse ``/ x`` of an atom the facts show nonzero gets ``x * / x = 1``
(:data:`INVERSES`). Then the reals' facts and ``lra``/``nra``, as in the third attempt.

Nothing here can make a ``differs`` wrong: the attempt is a ``Qed`` of ``candidate <> official`` that the
kernel checks, in the harness's file, on the compiled candidate and reference. A computation too large
for the attempt's ``Timeout`` or the sandbox's memory leaves the answer ``unknown``, as before. Full names
throughout: the candidate's module, loaded before, cannot shadow one.
"""

from __future__ import annotations

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
    "Coq.Reals.Ratan.atan_0",
    "Coq.Reals.Rpower.ln_1",
    "Coq.Reals.Rpower.ln_exp",
    "Coq.Reals.R_sqrt.sqrt_0",
    "Coq.Reals.R_sqrt.sqrt_1",
)
"""The library's equations for values of the transcendental functions (``f c = v``, and ``ln (exp x) = x``)."""

KEPT = (
    f"{_R}.IZR",
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

COMPUTED = (
    f"rewrite ?{', ?'.join(SPECIAL_VALUES)} in __putnam_h; "
    "(rewrite ?Coq.Reals.Rpower.exp_ln in __putnam_h by lra); "
    f"cbv beta iota zeta delta -[{' '.join(KEPT)}] in __putnam_h; "
)
"""The hypothesis ``candidate = official`` with the known values rewritten and the rest computed."""

CASES = (
    "repeat match type of __putnam_h with context [match ?c with _ => _ end] => "
    "destruct c; cbv beta iota in __putnam_h end; "
)
"""Each ``match`` left on a term no computation decides split into its cases, each a goal of its own."""

INVERSES = (
    f"repeat match type of __putnam_h with context [{_R}.Rinv ?x] => assert_fails (idtac; match goal with "
    f"_ : Coq.Init.Logic.eq ({_R}.Rmult x ({_R}.Rinv x)) _ |- _ => idtac end); "
    f"assert (Coq.Init.Logic.eq ({_R}.Rmult x ({_R}.Rinv x)) ({_R}.IZR (Coq.Numbers.BinNums.Zpos "
    "Coq.Numbers.BinNums.xH))) by (apply Coq.Reals.RIneq.Rinv_r; intro; first [ lra | nra ]) end; "
)
"""``x * / x = 1`` for each inverse of the hypothesis whose argument the facts in hand show nonzero (``PI /
PI``), once each (the equation marks it)."""
