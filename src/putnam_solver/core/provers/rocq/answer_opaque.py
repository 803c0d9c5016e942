"""No-answer: an answer may not reach its value (or condition) through a proof no computation opens (G4,
split from ``answer_tests`` in round 48).

A ``match`` on a ``Qed`` proof never reduces, nor does a transport along one or a recursor over a witness
that a ``Qed`` lemma returns: the term behind it is one no tactic of the answer check computes, so a wrong
value there stays ``unknown`` and its verdict ``accepted`` on a statement every answer satisfies (a vacuous
one, as PutnamBench's ``putnam_2013_b2``). The constants are named here; ``answer_tests`` reads the
``match``es of an answer's print, ``compile.ANSWER_OPERATORS`` the names.
"""

from __future__ import annotations

import re

PROOF_PATTERNS = frozenset({"ReflectT", "ReflectF", "CompEq", "CompLt", "CompGt", "eq_refl", "conj", "I"})
"""Constructors of ``Bool.reflect`` and ``CompareSpec`` (``Bool.v``, ``Datatypes.v``): a proof taken apart.
Round 47: and of the propositions a value may be computed from by a ``match`` at all (``eq``, ``and``, so
``iff``, ``True``: ``Logic.v``). A ``match`` on a ``Qed`` proof of one never reduces, so the value behind it
(``match Z.lt_0_1 in _ = c return Z with eq_refl => 4 end``, ``match Z.lt_succ_r 0 0 with conj _ _ => 4
end``) is one no tactic of the answer check computes: a wrong ``4`` for ``3``, proved on a vacuous statement,
stayed ``unknown`` and its verdict ``accepted``. An honest value never takes a proof apart."""
PROOF_TYPES = re.compile(r"(?:^|_)xor(?:_|$)|^reflect$|Spec$|_spec$|^compare_nat$|^comparer?$|^incompare|^eq$")
"""The ``in`` clause of a ``match`` on a proof: ``Bool.reflect``, mathcomp's ``leq_xor_gtn``,
``Order.lel_xor_gt``, ``ler_xor_gt``, ``CompareSpec``, ``compare_nat``, ``comparer`` (ssrnat.v, order.v,
ssrnum.v: each indexed by the booleans of a comparison); an equation (round 47)."""
OPAQUE_STEPS = (
    "Coq.Init.Logic.eq_rect",
    "Coq.Init.Logic.eq_rec",
    "Coq.Init.Logic.eq_rect_r",
    "Coq.Init.Logic.eq_rec_r",
    "Coq.Init.Logic.False_rect",
    "Coq.Init.Logic.False_rec",
    "Coq.ssr.ssreflect.locked",
    "Coq.ssr.ssreflect.locked_with",
    "Coq.ssr.ssreflect.master_key",
    "Coq.Reals.Ranalysis_reg.AppVar",
)
"""Library constants through which a value is computed from a proof, or behind an opaque key (round 47): a
transport along an equation (``Logic.v``'s ``eq_rect`` and kin, a ``match`` on the proof), which stops on a
``Qed`` proof (``eq_rect _ _ 4 _ Z.lt_0_1``), absurdity, and ssreflect's ``locked`` (``ssreflect.v``: a
``match`` on ``master_key``, a ``Qed``), so ``locked 4`` never reduces. No tactic of the answer check
computes through them, so a wrong value behind one was ``unknown`` and its verdict ``accepted``; G4 refuses
them by full name, as it does the choice operators (``compile.ANSWER_OPERATORS``). Round 49: a library
constant of a data type closed by ``Qed``, whose value no computation or tactic of the check reaches: reading
``theories/`` and MathComp for a ``Definition`` or ``Lemma`` of type ``Z``, ``nat``, ``R``, ``N``, ``Q``, a list
or a Boolean closed by ``Qed`` found one, ``Ranalysis_reg.v``'s ``AppVar : R`` (32-35, ``exact R0``), which
an answer named bare (``AppVar + 1`` for ``1``, or for a wrong ``2``) was ``unknown`` and accepted."""


def takes_proof_apart(clause: list[str], patterns: set[str]) -> bool:
    """Whether a ``match`` whose ``in`` clause heads with ``clause`` (its first word, if any) and whose
    branches head with ``patterns`` (last names) takes one of the proofs above apart."""
    return any(PROOF_TYPES.search(c.split(".")[-1]) for c in clause) or bool(PROOF_PATTERNS & patterns)
