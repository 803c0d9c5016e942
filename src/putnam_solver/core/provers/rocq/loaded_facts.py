"""MathComp's facts for the restatement check's ``FACT_TACTIC``, by what the check's file has loaded (round 44).

``restated.FACT_TACTIC`` decides each atom of a set or predicate answer (``0 <= a * a`` reads ``True``), so a
copy padded with a fact about the answer's variables is seen as the copy. Over MathComp's ordered rings,
where ``lra`` does not apply, it used MathComp's own lemmas (``sqr_ge0``, ``ltxx``...), and those were loaded
(``Require mathcomp.algebra.ssrnum``) only where the statement's *text* said ``mathcomp``: what the file has
loaded is not what the statement spells. ``putnam_2019_a1`` loads MathComp's ``ssreflect`` through
Coquelicot without the word, and a candidate may ``Require`` MathComp's numbers itself (a permitted addition,
replayed in the check's file, ``answer_env``): its copy of the question beside ``0 <= (Posz (Z.to_nat n) +
Negz 0) ^+ 2`` passed G4, the fact never decided. A statement that names MathComp only in a comment had it
loaded into the check's file for nothing (and on a toolchain without MathComp, an error).

Now each lemma is looked up when the tactic runs, in the file's own context, by Ltac2's ``Env.get``
(``loaded_unfold``): loaded, the tactic uses it; not loaded, the tactic fails, as any other branch of
``FACT_TACTIC`` that does not apply (which only ever adds to what the check knows). The lemmas are those of
``ssrnum`` and of the libraries it loads (``order``, ``ssralg``), so they are found together; the proof
steps are Ltac1's, the lemmas handed to them as values (``ltac1:(x |- ..)``), each applied by ``apply`` (a
value is the bare constant, with no implicit argument to insert).
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.loaded_unfold import ltac2_path

_NUM, _ORDER, _RING = (
    "mathcomp.algebra.ssrnum.Num.Theory",
    "mathcomp.ssreflect.order.Order.POrderTheory",
    "mathcomp.algebra.ssralg.GRing",
)
LEMMAS = {
    **{name: f"{_ORDER}.{name}" for name in ("lexx", "ltW", "ltxx", "le_gtF")},
    **{name: f"{_NUM}.{name}" for name in ("ler01", "ltr01", "sqr_ge0", "normr_ge0", "addr_ge0", "mulr_ge0")},
    **{name: f"{_RING}.{name}" for name in ("mulrC", "addrC", "mulrA", "addrA", "subrr", "mulr1", "mul1r")},
}
"""Each lemma the facts use, by the Ltac1 variable that holds it (its last name), with its full name."""
IDENTITIES = ("mulrC", "addrC", "mulrA", "addrA", "subrr", "mulr1", "mul1r")
"""The ring's basic identities (``a * b = b * a``...)."""
NONNEG = (
    "let rec nonneg u := first [ apply lexx | apply ler01 | apply sqr_ge0 | apply normr_ge0 "
    "| (apply addr_ge0; nonneg ()) | (apply mulr_ge0; nonneg ()) | (apply ltW; apply ltr01) ] in "
)
"""A sum or product of squares, norms, ``1`` and reflexive comparisons is ``>= 0`` (``0 <= a ^+ 2 * `|b| +
1``), or a positive ``1``."""
FACT = (
    f"{NONNEG}first [ nonneg () "
    "| match goal with H : is_true _ |- Coq.Init.Logic.False => first [ (rewrite ltxx in H; discriminate H) "
    "| (erewrite le_gtF in H; [ discriminate H | nonneg () ]) ] end "
    + "".join(f"| apply {name} " for name in IDENTITIES)
    + "]"
)
"""The Ltac1 proof of one fact over MathComp's numbers: :data:`NONNEG`, an atom that says such a term is ``<
0`` (or ``e < e``) refuted, or an identity of the ring."""
MODULE = "Putnam_facts"


def fact_sentences(name: str) -> list[str]:
    """The Ltac ``name``: :data:`FACT` with the lemmas of :data:`LEMMAS` the file has loaded, failing where
    one is not (after ``loaded_unfold.loaded_sentences``, which loads Ltac2)."""
    variables = " ".join(LEMMAS)
    found = " ".join(f"(lemma {ltac2_path(full)})" for full in LEMMAS.values())
    return [
        f"Module {MODULE}.",
        "Import Ltac2.Ltac2.",
        "Ltac2 lemma p := match Env.get p with Some r => Ltac1.of_constr (Env.instantiate r) "
        "| None => Control.zero (Tactic_failure None) end.",
        f"Ltac2 mathcomp_fact () := ltac1:({variables} |- {FACT}) {found}.",
        f"End {MODULE}.",
        f"Ltac {name} := ltac2:({MODULE}.mathcomp_fact ()).",
    ]
