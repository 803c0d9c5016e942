"""The standard library's computable decisions and their consumers, and how the answer's print spells them
(split from ``answer_tests``, round 44).

G4 reads a value answer's print for decisions that test a range no computation evaluates
(``answer_tests``). A decision whose proof is transparent evaluates, so a ``match`` on it is a computation:
each is named here by its full name, and the environment file ``Locate``s each before the print, so the
spelling the print uses is read in the same context (a lookalike never is that spelling). Round 48: the
classical decisions G4 refuses by name (boolp's reflections, Coquelicot's ``LPO`` decisions) moved here too.
"""

from __future__ import annotations

import re

COMPUTABLE_DECISIONS = (
    "Coq.Arith.PeanoNat.Nat.eq_dec",
    "Coq.Arith.Compare_dec.le_lt_dec",
    "Coq.Arith.Compare_dec.le_ge_dec",
    "Coq.Arith.Compare_dec.le_gt_dec",
    "Coq.Arith.Compare_dec.le_dec",
    "Coq.Arith.Compare_dec.lt_dec",
    "Coq.Arith.Compare_dec.gt_dec",
    "Coq.Arith.Compare_dec.ge_dec",
    "Coq.PArith.BinPos.Pos.eq_dec",
    "Coq.NArith.BinNat.N.eq_dec",
    "Coq.ZArith.BinInt.Z.eq_dec",
    "Coq.ZArith.ZArith_dec.Z_lt_dec",
    "Coq.ZArith.ZArith_dec.Z_le_dec",
    "Coq.ZArith.ZArith_dec.Z_gt_dec",
    "Coq.ZArith.ZArith_dec.Z_ge_dec",
    "Coq.ZArith.ZArith_dec.Z_lt_ge_dec",
    "Coq.ZArith.ZArith_dec.Z_lt_le_dec",
    "Coq.ZArith.ZArith_dec.Z_le_gt_dec",
    "Coq.Bool.Bool.bool_dec",
    "Coq.Arith.Compare_dec.lt_eq_lt_dec",
    "Coq.Arith.Compare_dec.gt_eq_gt_dec",
    "Coq.ZArith.ZArith_dec.Z_dec",
    "Coq.ZArith.ZArith_dec.Z_dec'",
    "Coq.ZArith.ZArith_dec.Z_gt_le_dec",
    "Coq.ZArith.ZArith_dec.Z_ge_lt_dec",
    "Coq.QArith.QArith_base.Qeq_dec",
    "Coq.QArith.QArith_base.Qlt_le_dec",
    "Coq.ZArith.Znumtheory.Zdivide_dec",
    "Coq.ZArith.Znumtheory.rel_prime_dec",
    "Coq.Arith.Compare_dec.zerop",
    "Coq.Arith.EqNat.eq_nat_decide",
    "Coq.Arith.PeanoNat.Nat.Even_Odd_dec",
    "Coq.QArith.QArith_base.Q_dec",
    "Coq.ZArith.ZArith_dec.Z_zerop",
    "Coq.ZArith.Zeven.Zeven_odd_dec",
    "Coq.ZArith.Zeven.Zeven_dec",
    "Coq.ZArith.Zeven.Zodd_dec",
    "Coq.ZArith.Zorder.Ztrichotomy_inf",
    "Coq.ZArith.Zbool.Zle_bool_total",
    "Coq.Bool.Sumbool.sumbool_of_bool",
)
"""Decisions of equality or order on ``nat``, ``positive``, ``N``, ``Z``, ``Q`` and ``bool`` whose proofs end in
``Defined`` (Coq 8.16.1 ``theories/``: ``Arith/PeanoNat.v`` 169-176; ``Arith/Compare_dec.v`` ``lt_eq_lt_dec``
23-31, ``gt_eq_gt_dec`` 33-36, ``le_lt_dec`` 38-47, ``le_ge_dec`` 54-58, ``le_gt_dec`` 60-63, ``le_dec`` 72-78,
``lt_dec`` 80-83, ``gt_dec`` 85-88, ``ge_dec`` 90-93; ``PArith/BinPos.v`` 71-74; ``NArith/BinNat.v`` 87-91;
``ZArith/BinInt.v`` 94-97; ``ZArith/ZArith_dec.v`` 43-90, ``Z_dec`` 158-179, ``Z_dec'`` 182-187;
``QArith/QArith_base.v`` ``Qeq_dec`` 172-175, ``Qlt_le_dec`` 1082-1086; ``Bool/Bool.v`` 34-37;
``ZArith/Znumtheory.v`` ``Zdivide_dec`` 112-121, ``rel_prime_dec`` 887-893), so a ``match`` on one of closed
numbers reduces by ``vm_compute`` (``test_rocq_redteam39_decisions`` asks coqc for each). Each takes two numbers
and no decision of its own, so what it is applied to is read as any other term; the three-way ones
(``lt_eq_lt_dec``, ``Z_dec``) are a ``sumor`` of a ``sumbool``, taken apart by a ``match`` on the pattern
variable of the outer one (``answer_tests._derived``).

Not listed: ``Znumtheory.prime_dec`` (923-934), ``Defined`` but built on ``Wf_Z.natlike_rec`` (74-83, a
``Qed``): ``vm_compute`` of ``if prime_dec 7 then true else false`` stops at ``natlike_rec``, so a ``match``
on it never reduces and stays a search (MathComp's ``prime`` is the Boolean test that computes).

Round 49: the rest of the library's ``Defined`` decisions of data (``zerop``, ``eq_nat_decide``,
``Nat.Even_Odd_dec``, ``Q_dec``, ``Z_zerop``, ``Zeven_odd_dec``, ``Zeven_dec``, ``Zodd_dec``,
``Ztrichotomy_inf``, ``Zle_bool_total``, ``Sumbool.sumbool_of_bool`` of a Boolean), found by reading
``theories/`` for every ``{_} + {_}`` closed by ``Defined``; ``test_rocq_round49`` asks coqc that each is
transparent (``About``) and that a ``match`` on it of closed numbers reduces (``vm_compute``). Those left out
take a proof (``le_lt_eq_dec``, ``Z_le_lt_eq_dec``, ``not_Zeq_inf``) or a decision (:data:`TRANSFORMERS`,
``in_dec``'s kin), or are ``prime_dec``."""
ELEMENT_DECISIONS = ("Coq.Lists.List.list_eq_dec", "Coq.Lists.List.in_dec")
"""Decisions on lists from a decision of their elements' equality (``Lists/List.v`` ``in_dec`` 329-338,
``list_eq_dec`` 1020-1021, both ``Defined``): ``in_dec Nat.eq_dec 3 l`` reduces by ``vm_compute`` when
its element decision does. That decision is an argument, read as any other term: a real one handed over
unapplied (``in_dec Req_EM_T``) is a decision applied to fewer arguments than it compares, a search
(``answer_tests.ARITY``), and one applied to the answer's bound variables is one as ever."""
CONSUMERS = {
    "Coq.Init.Specif.sumbool_rec": 6,
    "Coq.Init.Specif.sumbool_rect": 6,
    "Coq.Init.Specif.sumor_rec": 6,
    "Coq.Init.Specif.sumor_rect": 6,
    "Coq.ssr.ssrbool.is_left": 3,
    "Coq.ssr.ssrbool.is_inleft": 3,
    "Coq.Bool.Sumbool.bool_of_sumbool": 3,
}
"""The library's consumers of a decision, by full name, with how many arguments ``Printing All`` shows them
applied to, the decision last (``Specif.v``'s recursors ``@sumbool_rec A B P f g s``, generated by
``Inductive sumbool``; ``ssrbool.v`` 590-592 ``Coercion is_left A B (u : {A} + {B}) := if u is left _ then
true else false``, ``is_inleft`` likewise; ``Sumbool.v`` 69-73 ``bool_of_sumbool``, ``Defined``): each
transparent, so applied to a computable decision it computes as a ``match`` on it does. Located as the
decisions are; a consumer of anything else stays a consumer of ``answer_tests.REAL_DECISIONS``."""
MAPS = ("Coq.Lists.List.map", "mathcomp.ssreflect.seq.map")
"""The library's ``map`` on lists (``Lists/List.v``, MathComp's ``seq.v``; each ``@map A B f s``, a
``Fixpoint``): mapping a consumer over a written list of computable decisions (``map is_left [:: Nat.eq_dec
3 4]``) applies it to each, as writing it out does."""
TRANSFORMERS = {
    "Coq.Bool.Sumbool.sumbool_not": (3, 1),
    "Coq.Bool.Sumbool.sumbool_and": (6, 2),
    "Coq.Bool.Sumbool.sumbool_or": (6, 2),
}
"""Combinators of decisions (``Sumbool.v`` 47-57, each ``Defined``: ``@sumbool_not A B H1``, ``@sumbool_and A
B C D H1 H2``), with how many arguments ``Printing All`` shows them applied to and how many of the last are
decisions: a ``match`` on one computes when each decision it takes does (``decision_lists.computes``), and a
``Qed`` decision under it (``sumbool_not _ _ (Z_noteq_dec 0 1)``) is the test it was. Round 48 refused them
all, honest ones included."""
LIST, ELEMENT, DATA = "list", "element", "data"
"""The roles of a list builder's arguments: a list whose elements must be decisions, one element, anything else."""
LIST_BUILDERS = {
    "Coq.Lists.List.repeat": (DATA, ELEMENT, DATA),
    "Coq.Init.Datatypes.app": (DATA, LIST, LIST),
    "Coq.Lists.List.rev": (DATA, LIST),
    "mathcomp.ssreflect.seq.nseq": (DATA, DATA, ELEMENT),
    "mathcomp.ssreflect.seq.cat": (DATA, LIST, LIST),
    "mathcomp.ssreflect.seq.rev": (DATA, LIST),
}
"""The library's functions that build a list out of given elements and lists only (``@repeat A x n``, ``@app A
l m``, ``@rev A l``; MathComp's ``@nseq T n x``, ``@cat T s t``, ``@rev T s``; the type first, as ``Printing All``
shows it): every element of theirs is one they were given, so a list so built of computable decisions is one
(``decision_lists.decision_list``, round 49: ``map is_left (repeat (Nat.eq_dec 3 3) 2)`` was refused)."""
LOCATED = (*COMPUTABLE_DECISIONS, *ELEMENT_DECISIONS, *TRANSFORMERS, *CONSUMERS, *MAPS, *LIST_BUILDERS)
"""Every name the environment file ``Locate``s before the answer's print."""
RECURSOR = 6
"""How many arguments a recursor of :data:`CONSUMERS` is applied to (``@sumbool_rec A B P f g s``)."""
DECISIONS = "-decisions"
"""What the environment file prints before it ``Locate``s :data:`LOCATED`."""
_LOCATED = re.compile(r"^Constant (\S+)(?:\s+\(shorter name to refer to it in current context is (\S+)\))?$")


def locate_sentences(marker: str) -> list[str]:
    """The environment file's sentences, before the answer's print and in its context, that say how the
    print spells each computable decision (``Locate`` never fails: an unloaded one is "No object")."""
    return [f'Goal Coq.Init.Logic.True. idtac "{marker}{DECISIONS}". Abort.'] + [f"Locate {name}." for name in LOCATED]


def computable_spellings(lines: list[str], marker: str) -> dict[str, tuple[int, int]]:
    """The names the print gives :data:`COMPUTABLE_DECISIONS`, :data:`ELEMENT_DECISIONS` (each ``(0, 0)``: it
    takes no decision) and :data:`TRANSFORMERS` (their arity and decisions taken), as ``Locate`` said."""
    located = _located(lines, marker)
    shapes = {name: (0, 0) for name in (*COMPUTABLE_DECISIONS, *ELEMENT_DECISIONS)} | TRANSFORMERS
    return {located[name]: shape for name, shape in shapes.items() if name in located}


def consumer_spellings(lines: list[str], marker: str) -> dict[str, int]:
    """The names the print gives :data:`CONSUMERS`, as ``Locate`` said, with their arities."""
    located = _located(lines, marker)
    return {located[name]: arity for name, arity in CONSUMERS.items() if name in located}


def map_spellings(lines: list[str], marker: str) -> set[str]:
    """The names the print gives :data:`MAPS`, as ``Locate`` said."""
    located = _located(lines, marker)
    return {located[name] for name in MAPS if name in located}


def builder_spellings(lines: list[str], marker: str) -> dict[str, tuple[str, ...]]:
    """The names the print gives :data:`LIST_BUILDERS`, as ``Locate`` said, with their arguments' roles."""
    located = _located(lines, marker)
    return {located[name]: roles for name, roles in LIST_BUILDERS.items() if name in located}


def _located(lines: list[str], marker: str) -> dict[str, str]:
    """The spelling the print gives each located full name (after the decisions marker, up to the next line
    of the harness's): ``Constant <full name>``, then its shorter name if any (on the same line at the
    file's print width, else indented on the next)."""
    start = f"{marker}{DECISIONS}"
    if start not in lines:
        return {}
    section: list[str] = []
    for line in lines[lines.index(start) + 1 :]:
        if line.startswith(marker):
            break
        if line.startswith(" ") and section:
            section[-1] += line  # the shorter name, where the printer broke the line
        else:
            section.append(line)
    spellings: dict[str, str] = {}
    for line in section:
        located = _LOCATED.match(" ".join(line.split()))
        if located and located.group(1) in LOCATED:
            spellings[located.group(1)] = located.group(2) or located.group(1)
    return spellings


REFLECTIONS = (
    "mathcomp.classical.boolp.asboolP",
    "mathcomp.classical.boolp.asboolPn",
    "mathcomp.classical.boolp.and_asboolP",
    "mathcomp.classical.boolp.and3_asboolP",
    "mathcomp.classical.boolp.or_asboolP",
    "mathcomp.classical.boolp.or3_asboolP",
    "mathcomp.classical.boolp.imply_asboolP",
    "mathcomp.classical.boolp.imply_asboolPn",
    "mathcomp.classical.boolp.forall_asboolP",
    "mathcomp.classical.boolp.exists_asboolP",
    "mathcomp.classical.boolp.pred0pP",
    "mathcomp.classical.boolp.forallp_asboolPn",
    "mathcomp.classical.boolp.existsp_asboolPn",
)
"""boolp's reflections of ``asbool`` (``boolp.v`` 297-453, 551-563): a classical decision of a proposition
as a ``reflect`` proof, whose name shows no ``asbool`` (``decP (asboolP P)`` is ``pselect``). Read as the
decision operators are (``policy.answer_decision_operators``), however a value uses them."""
CLASSICAL_DECISIONS = (
    "Coquelicot.Lim_seq.ex_lim_seq_dec",
    "Coquelicot.Lim_seq.ex_finite_lim_seq_dec",
    "Coquelicot.Series.ex_series_dec",
    "Coquelicot.PSeries.ex_pseries_dec",
    "Coquelicot.Lub.is_ub_Rbar_dec",
    "Coquelicot.Lub.is_lb_Rbar_dec",
    "Coquelicot.Lub.Rbar_ub_dec",
    "Coquelicot.Lub.Rbar_lb_dec",
    "Coquelicot.Lub.Empty_dec",
    "Coquelicot.Lub.not_Empty_dec",
    "Coquelicot.Lub.uniqueness_dec",
    "Coquelicot.Hierarchy.locally_ex_dec",
    "Coquelicot.Hierarchy.locally_2d_ex_dec",
    "Coquelicot.Hierarchy.eq_dec",
)
"""Coquelicot's informative decisions of propositions no comparison of two numbers states, proved from
``LPO`` (``Lim_seq.v`` 1452-1460: does a sequence converge; ``Series.v`` 53, ``PSeries.v`` 48: a series;
``Lub.v`` 62-92, 434-446: is a set bounded, 745-767: is it empty, the unique ``x`` with ``P x``;
``Hierarchy.v`` 1799, 5267: a neighbourhood's witness, 3176: equality in any normed module): round 36's
``LPO``/``EM_dec`` by other names, so decision operators in every value answer."""
