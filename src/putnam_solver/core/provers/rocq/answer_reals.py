"""No-answer: a value answer may not compare reals of a mathcomp ``realType`` (a G4 check, red team 37).

Round 36 refused a value that branches on a classical decision of any proposition
(``policy.answer_decision_operators``) and left real comparisons, which decide only what they compare.
On a mathcomp-analysis ``realType`` they are booleans written like computable ones: ``find (fun n : nat =>
n%:R == (4 : R)) (iota 0 10)``, ``(x <= y)%R``, ``x \\in [:: a; b]``, ``x \\is Num.pos``. A search written
with them is the question's property tested over a bounded range ("the least ``n`` with ...", proved with a
witness under the bound, evaluated by no tactic): ``ex_minn`` written out, as round 36's attack was.

No classical constant shows it. For the statements' ``Variable R : realType`` the comparison is a field of
the assumed structure: mathcomp-analysis 0.6.0 ``reals.v`` ``Module Real`` packs ``eqType := @Equality.Pack
cT xclass`` and ``porderType := @Order.POrder.Pack ring_display cT xclass`` (lines 169-174) from the class
the variable carries; ``Rstruct.v``'s instance on Coq's reals is ``eqr`` (``Req_EM_T``, lines 36-53) and
``Rleb`` (``Rle_dec``, lines 158-161), which rest on ``total_order_T``, a ``Qed`` lemma over the axiom
``ClassicalDedekindReals.sig_forall_dec`` (Coq 8.16.1 ``theories/Reals/Rdefinitions.v`` lines 165-173).
Looking through definitions would find nothing under an assumed structure and would refuse every
division of Coq's reals (``Rinv`` matches on ``Req_appart_dec``, same file, lines 195-207).

So the print of the answer (``answer_env``, ``Set Printing All``) is read for the structure, in a value
answer over a realType: a name of ``Module Real`` other than the carrier and its algebraic structures (its
``eqType``, ``porderType``, ``choiceType``..., its class taken apart); a projection to an equality or order
structure (``GRing.Zmodule.eqType``, ``Num.NumDomain.porderType``) or an ssrnum qualifier (``Num.pos``...)
applied to a name of ``Module Real`` or of ``Rstruct``'s instances; a structure built or taken apart by hand
(``Equality.Pack``, ``Order.POrder.le``, ``Num.NumDomain.class``) anywhere in a print that names one; and
``Rstruct``'s own comparisons and instances. Every use of ``==``, ``<=``, ``<``, ``\\in`` on a list, ``max``
or a qualifier on a realType prints so (the operator takes the instance as an argument). The harness module
that shadows the choice operators' bare names also shadows these (``SHADOWED``), so a candidate's ``Import
Real`` cannot make them print unqualified.

The order instance of ``Num.max``/``Num.min`` is passed over: they return a real. A set or predicate
answer may compare reals (``[set x : R | x >= 0]`` is ``putnam_1979_a2``'s official
answer): there the compared condition is the condition. Honest values (``\\`|x|``, ``Num.sqrt``, ``+``,
``/``, a test on ``nat``) name only the algebraic structures and pass, as do Coq's ``Rle_dec`` family
(round 36: ``putnam_1996_a6``'s official answer). Red team 38: a realType's functions to a discrete value
(``floor``/``ceil``/``Rtoint``, ``reals.v`` 331-374, an ``int`` by ``xchoose``; ``Num.bound``, ``sgz``, ``root``,
a polynomial's ``size``) and equality or order instances built from its structures (``poly_eqType``) count
as comparisons (:data:`DISCRETE`); Coq's ``up`` and ``Rle_dec`` of a searched index are ``answer_tests``'.
"""

from __future__ import annotations

import re

REAL = "Real"
"""mathcomp-analysis's ``reals.Real``: the realType structure's module, in every print of one of its names."""
ALGEBRA = frozenset(
    {
        "sort",
        "zmodType",
        "ringType",
        "comRingType",
        "unitRingType",
        "comUnitRingType",
        "idomainType",
        "numDomainType",
        "normedZmodType",
        "fieldType",
        "realDomainType",
        "numFieldType",
        "realFieldType",
        "archimedeanFieldType",
        "rcfType",
        "join_rcfType",
    }
)
"""``Module Real``'s carrier and structures through which an honest value computes (``reals.v`` 175-189):
``+``, ``*``, ``/``, ``\\`|x|``, ``Num.sqrt`` take them. Its other names (lines 116-189: ``eqType``,
``choiceType``, ``porderType``, ``latticeType``, ``distrLatticeType``, ``orderType``, ``class``, ``Pack``...) are
the reals' equality, order or choice, or their class taken apart."""
REAL_NAMES = (
    *sorted(ALGEBRA),
    *("eqType", "choiceType", "porderType", "latticeType", "distrLatticeType", "orderType"),
    *("mixin_of", "Mixin", "EtaMixin", "class_of", "Class", "base", "mixin_rcf", "mixin", "base_rcf"),
    *("type", "Pack", "class", "clone", "rcf_axiom", "pack"),
)
"""Every name of ``Module Real`` (``Print Module mathcomp.analysis.reals.Real`` on mathcomp-analysis 0.6.0)."""
ORDER_PROJECTIONS = frozenset(
    {"eqType", "porderType", "latticeType", "distrLatticeType", "orderType"}
    | {f"{b}{k}" for b in ("b", "t", "tb", "cb", "ctb", "fin") for k in ("POrderType", "LatticeType")}
    | {f"{b}DistrLatticeType" for b in ("b", "t", "tb", "cb", "ctb", "fin")}
    | {"finOrderType", "finLatticeType", "finDistrLatticeType"}
)
"""A structure's equality or order, by the projection's last name (``GRing.Zmodule.eqType``,
``Num.NumDomain.porderType``: mathcomp 1.15 ``order.v``, ``ssrnum.v``)."""
ORDER_MODULES = frozenset(
    {"Equality", "POrder", "Lattice", "DistrLattice", "Total", "BPOrder", "TPOrder", "TBPOrder"}
    | {"BLattice", "TLattice", "TBLattice", "BDistrLattice", "TBDistrLattice", "CBDistrLattice", "CTBDistrLattice"}
)
"""Modules whose names build or read an equality or order structure (``Equality.Pack``, ``Order.POrder.le``)."""
CLASS_PARTS = frozenset({"class", "Class", "Pack", "pack", "clone", "base", "mixin", "Mixin", "order_mixin"})
"""A structure's class or mixin taken apart (``Num.NumDomain.class``, ``order_mixin``): the order is a field."""
NUM_TESTS = frozenset({"Rpos", "Rneg", "Rnneg", "Rreal"})
"""ssrnum's qualifiers ``Num.pos``, ``neg``, ``nneg``, ``real`` (``ssrnum.v`` 388-392: ``0 < x``...)."""
RSTRUCT_TESTS = frozenset(
    {"eqr", "Rleb", "Rltb", "Rgeb", "Rgtb", "R_eqMixin", "R_eqType", "R_numMixin", "R_porderType", "R_latticeType"}
    | {"R_distrLatticeType", "R_orderType"}
)
"""``Rstruct``'s boolean comparisons of Coq's reals and its equality and order instances on them
(``Rstruct.v`` 44-53, 158-161, 225-257)."""
SHADOWED = frozenset({*REAL_NAMES, *CLASS_PARTS, "op", "le", "lt"})
"""Bare names ``answer_env``'s harness module declares before the print, so that ``Module Real``'s names, the
class parts and the equality and order mixins' fields (``Equality.op``, ``Order.POrder.le``) print with
their module whatever the candidate imported (the other names are read by their last component)."""
_TOKEN = re.compile(r"[()]|[^\W\d][\w']*(?:\.[^\W\d][\w']*)*")


def real_comparisons(output: str, marker: str) -> list[str] | None:
    """The names in the answer's print (after ``marker``) that compare reals of a realType, as printed (None
    if the marker never appeared)."""
    lines = output.splitlines()
    if marker not in lines:
        return None
    tokens = _TOKEN.findall("\n".join(lines[lines.index(marker) + 1 :]))
    ends = _group_ends(tokens)
    real = any(_real_marker(t) for t in tokens)
    found: set[str] = set()
    for at, token in enumerate(tokens):
        if token in "()" or _extremum_instance(tokens, at):
            continue
        parts = token.split(".")
        if (_is_real(parts) and parts[-1] not in ALGEBRA) or parts[-1] in RSTRUCT_TESTS:
            found.add(token)
        elif _structural(parts) and real:
            found.add(token)  # a structure built or taken apart by hand: no honest value does that
        elif _compares(tokens, at, parts, ends):
            found.add(token)
    return sorted(found)


EXTREMA = frozenset({"max", "min"})
"""``Order.max``/``Order.min`` (ssrnum's ``Num.max``/``Num.min``): a real, never a boolean, whatever order
decides it, so their own instance argument is no comparison; testing their value needs an equality or
order elsewhere in the print, which is read as any other."""


def _extremum_instance(tokens: list[str], at: int) -> bool:
    """Whether the name at ``at`` is the order instance of an ``Order.max``/``Order.min`` application
    (``@Order.max ring_display (Real.porderType R) x y``): the argument after the display."""
    start = at - 1 if at and tokens[at - 1] == "(" else at
    if start < 2:
        return False
    head = tokens[start - 2].split(".")
    return head[-1] in EXTREMA and head[:-1] == ["Order"] and tokens[start - 1] not in "()"


KEYWORDS = frozenset({"in", "then", "else", "with", "end", "return", "as", "let", "fun", "match", "if", "forall"})
"""Words at which an unparenthesised projection's arguments end (``let E := X.eqType (...) in``)."""


def _group_ends(tokens: list[str]) -> dict[int, int]:
    """For each ``(`` the index after its ``)`` (an unclosed one runs to the end)."""
    ends: dict[int, int] = {}
    opened: list[int] = []
    for at, token in enumerate(tokens):
        if token == "(":
            opened.append(at)
        elif token == ")" and opened:
            ends[opened.pop()] = at + 1
    return ends


def _scope(tokens: list[str], at: int, ends: dict[int, int]) -> list[str]:
    """What a projection at ``at`` applies to: its parenthesised application (``(X.eqType (Real.zmodType
    R))``), else the words after it up to a keyword or the end of its group (an unapplied instance,
    ``Order.NatOrder.porderType``, reaches none of its neighbours' arguments)."""
    if at and tokens[at - 1] == "(":
        return tokens[at : ends.get(at - 1, len(tokens))]
    scope, depth = [], 0
    for token in tokens[at:]:
        depth += (token == "(") - (token == ")")
        if depth < 0 or (depth == 0 and token in KEYWORDS):
            break
        scope.append(token)
    return scope


def _is_real(parts: list[str]) -> bool:
    return len(parts) >= 2 and parts[-2] == REAL


def _real_marker(token: str) -> bool:
    """A name of ``Module Real`` or one of ``Rstruct``'s instances on Coq's reals (``R_eqType``...)."""
    parts = token.split(".")
    return _is_real(parts) or parts[-1].startswith("R_") or "Rstruct" in parts[:-1]


def _projection(parts: list[str]) -> bool:
    """A structure's equality or order, or a qualifier deciding an order (``Num.NumDomain.porderType``)."""
    return parts[-1] in ORDER_PROJECTIONS or parts[-1] in NUM_TESTS


DISCRETE = frozenset(
    {"floor", "ceil", "Rtoint", "archi_bound", "sgz", "root", "unit", "dvdp", "rdvdp", "eqp", "coprimep", "monic"}
    | {"edivp", "redivp", "rscalp", "polyOver", "mxrank", "row_free", "row_full", "unitmx"}
)
"""Library functions from a realType to a discrete value, each deciding comparisons of its argument (red
team 38): ``reals.v``'s ``Rtoint`` (``xchoose`` of an integer equal to it, 331), ``floor``/``ceil`` (368,
374), ssrnum's ``Num.bound`` (``archi_bound``, ``sval (sigW ...)``, 1355), ssrint's ``sgz`` (``if x == 0 ...``)
and poly's ``root`` (``p.[x] == 0``): ``floor (n%:R / 4) == 1`` over ``int`` is a real comparison. So are
a field's ``GRing.unit`` (``x != 0``: ssralg's field unit ring), poly's divisibility, ``%=``, ``coprimep``, ``monic``,
``polyOver`` and its divisions' scaling counts (``dvdp p q := modp q p == 0``, poly.v, polydiv.v), and a
matrix's rank and invertibility (``mxrank``, ``row_free``, ``row_full``, ``unitmx``: Gaussian elimination
tests entries by ``==``, mxalgebra.v, matrix.v)."""
INSTANCE_SUFFIXES = ("_eqType", "_porderType", "_latticeType", "_distrLatticeType", "_orderType")
"""Instances built from a structure's (``poly_eqType (Real.ringType R)``, ``ereal_porderType
(Real.numDomainType R)``): an equality or order on polynomials or extended reals over a realType compares
its reals (``polyC`` normalises its coefficient by ``==``: ``poly.v``)."""


def _compares(tokens: list[str], at: int, parts: list[str], ends: dict[int, int]) -> bool:
    """A projection to an equality or order, or a discrete function of reals, applied to a realType's reals."""
    name = parts[-1]
    if not (_projection(parts) or name in DISCRETE or name == "size" or name.endswith(INSTANCE_SUFFIXES)):
        return False  # the scope is read only for names that can compare
    scope = _scope(tokens, at, ends)
    return (_projection(parts) or _discrete(tokens, at, parts, scope)) and any(map(_real_marker, scope))


def _discrete(tokens: list[str], at: int, parts: list[str], scope: list[str]) -> bool:
    """A function to a discrete value of reals (:data:`DISCRETE`), an instance of an equality or order built
    from a structure (applied: ``(poly_eqType ...)``), or the ``size`` of a polynomial's coefficients (its
    degree, which decides which coefficients are zero)."""
    if parts[-1] in DISCRETE:
        return True
    if parts[-1].endswith(INSTANCE_SUFFIXES):
        return at > 0 and tokens[at - 1] == "("
    return parts[-1] == "size" and "polyseq" in {t.split(".")[-1] for t in scope}


def _structural(parts: list[str]) -> bool:
    """A name that builds or reads an equality or order structure, or a class taken apart (the carrier
    ``sort`` aside): ``Equality.Pack``, ``Order.POrder.le``, ``Num.NumDomain.class``."""
    if parts[-1] == "sort" or len(parts) < 2:
        return False
    return parts[-1] in CLASS_PARTS or bool(ORDER_MODULES & set(parts[:-1]))
