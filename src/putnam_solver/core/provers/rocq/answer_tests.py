"""No-answer: a value answer may not test a property over a range by a decision no computation evaluates
(a G4 check, red team 38).

Round 36 refused classical decisions of any proposition, round 37 every comparison of a mathcomp
``realType``. What remained were decisions that compare Coq's reals (``Rle_dec``, kept as honest: ``if
Rle_dec 0 1 then 2 else 3`` is a closed form the answer check splits into its cases, ``answers.CASES``,
and decides by ``lra``) and branches on a proof: ``find (fun n => if Rlt_dec (INR n) 4 then false else
true) (seq 0 10)`` is "the least ``n`` with ..." written out, as round 36's ``excluded_middle_informative``
search was, and no tactic evaluates it (``Rlt_dec`` is a ``Qed`` lemma, ``RIneq.v`` line 337, so a ``match``
on it never reduces). The same with ``up``/``Int_part`` of a bound ``n`` (an integer that decides a real
inequality: ``Rdefinitions.v``, ``R_Ifp.v``), ``Rcompare`` (``ROrderedType.v`` 53-58: a ``match`` on
``total_order_T``), and with mathcomp's reflection lemmas: ``match asboolP (P n) with ReflectT _ => ...``
(``boolp.v`` 297) branches on a classical decision that ``asbool``'s name never shows.

What separates the search from the closed form is the kernel term's shape, read from the answer's print
(``Set Printing All``, as G4 prints it): the decision's arguments name a variable the answer binds
inside itself (a ``fun`` passed to ``find``, a ``let``, a ``match`` pattern), whose range the search walks;
an answer's own parameters (``fun x : R => if Rle_dec x 0 then 0 else x``, a piecewise function) and
closed numbers are no range. So a value answer is refused when:

* a library decision of a real comparison (:data:`REAL_DECISIONS`) or a consumer of a decision
  (``sumbool_rec``, ``is_left``...) is applied to a term naming such a variable;
* a ``match`` on a ``sumbool``/``sumor`` (``left``/``right``, ``inleft``/``inright`` patterns: how ``if``
  on a decision prints) has a scrutinee naming one;
* a ``match`` branches on a reflection or specification proof at all (``Bool.reflect``, mathcomp's
  ``*_xor_*`` variants, ``CompareSpec``): an honest value never takes one apart, and on ``asboolP`` it is a
  classical decision of its proposition.

Red team 39: a decision of the standard library whose proof is transparent
(``decision_names.COMPUTABLE_DECISIONS``: ``Nat.eq_dec``, ``le_lt_dec``, ``Z.eq_dec``, ``bool_dec``...)
evaluates, so a ``match`` on it is a computation, not a search: ``if Nat.eq_dec n 4`` passes as ``n =? 4`` does.
The print names it by the shortest name that reaches it, which the environment file reads in the same context by
``Locate`` of each full name, before the print (``decision_names.locate_sentences``): a scrutinee headed by
exactly that spelling is that constant (unless the answer binds a variable of that name), and a lookalike (a
candidate's ``Nat.eq_dec``, another library's ``eq_dec``) never is. Anything else stays a search.

Round 43: a located consumer (``decision_names.CONSUMERS``: ``is_left``, ``sumbool_rec``...) applied to exactly
its arguments, the last a computable decision, is that decision's ``match``; and a variable bound by a branch of
a ``match`` on a computable decision (``inleft s``, how Coq prints ``lt_eq_lt_dec``'s nested pattern ``inleft
(left _)``), or by a branch ``fun`` of a recursor consuming one, holds part of its value, so a ``match`` or
consumer on it computes too, unless another binder binds that name (:func:`_derived`).

Round 44: the lists moved to ``decision_names`` with the decisions on lists from a decision of their
elements (``in_dec``, ``list_eq_dec``: their element decision is read as any other argument) and
``Znumtheory``'s ``Zdivide_dec``/``rel_prime_dec``; and a consumer applied to all but its decision is the
function a located ``map`` applies to a written list (``cons``/``nil``) of computable decisions, each one
consumed as written out (:func:`consumer_mapped`). Round 47: or to a list a located ``map`` makes by a computable
decision of each element (:func:`decisions_mapped`), or a ``let`` binds to one of these
(:func:`decision_list`). Any other list stays a consumer's business.

Round 48: a decision neither computable nor a real comparison is a test even of closed numbers (a ``Qed``
one never reduces: :func:`_match_test`), and a set or predicate answer is read for proofs taken apart
(:func:`proofs_taken_apart`). The proof constructors and opaque steps moved to ``answer_opaque``, the
classical decisions named for G4 to ``decision_names``.

Left: a search unrolled over closed numbers (``if Rle_dec 4 (INR 0) then 0 else if ...``), which names no
bound variable; the answer check splits such cases and decides those that arithmetic decides.
"""

from __future__ import annotations

from collections import Counter

from putnam_solver.core.provers.rocq.answer_opaque import takes_proof_apart
from putnam_solver.core.provers.rocq.closed_decisions import (
    ARITY,
    closed_comparison,
    closed_comparison_names,
    let_body,
)
from putnam_solver.core.provers.rocq.decision_lists import Computable, ListNames, computes, consumer_mapped
from putnam_solver.core.provers.rocq.decision_names import (
    RECURSOR,
    builder_spellings,
    computable_spellings,
    consumer_spellings,
    map_spellings,
)
from putnam_solver.core.provers.rocq.print_words import (
    applied_to,
    argument_groups,
    binder_names,
    body_tokens,
    inner_binder_list,
    match_branches,
    match_scrutinee,
    pattern_words,
    variable_names,
)

REAL_DECISIONS = frozenset(
    {"Rlt_dec", "Rle_dec", "Rgt_dec", "Rge_dec", "Rlt_le_dec", "Rgt_ge_dec", "Rle_lt_dec", "Rge_gt_dec"}
    | {"Rle_lt_or_eq_dec", "Req_EM_T", "Req_appart_dec", "total_order_T", "Rcase_abs", "in_int", "Req_dec"}
    | {"Rcompare", "up", "Int_part", "sign", "Rbar_lt_dec", "Rbar_le_dec", "Rbar_total_order", "Rbar_eq_dec"}
    | {"sumbool_rec", "sumbool_rect", "sumor_rec", "sumor_rect", "is_left", "is_right", "is_inleft", "bool_of_sumbool"}
    | {"reflect_rect", "reflect_rec", "decP", "sumboolP", "Reqb", "cond_positivity", "Ceq_dec", "ball_norm_dec"}
    | {"Rbar_lt_le_dec", "Rbar_le_lt_dec", "Rbar_le_lt_or_eq_dec"}
)
"""Decisions of Coq's real comparisons (``RIneq.v`` 337-388, ``Req_EM_T`` 2319; ``Rdefinitions.v``
``total_order_T`` 165, ``Req_appart_dec`` 175, ``up``; ``Rbasic_fun.v`` ``Rcase_abs`` 288; ``R_Ifp.v``
``Int_part``; ``ROrderedType.v`` ``Req_dec`` 17, ``Reqb`` 23, ``Rcompare`` 53; ``Rsqrt_def.v``
``cond_positivity`` 384 (``match Rle_dec 0 x``); ``Ratan.v`` ``in_int`` 948; Coquelicot's
``Rbar.v`` 336-398, ``Rcomplements.v`` ``sign`` 1174, ``Complex.v`` ``Ceq_dec`` 44, ``Hierarchy.v``
``ball_norm_dec`` 3298) and the library's
consumers of a decision (``Specif.v``'s recursors, ``Sumbool.bool_of_sumbool``, ssrbool's ``is_left``, ``is_inleft``,
``decP``), by last name: each turns a comparison no computation decides into a discrete value."""
DECISION_PATTERNS = frozenset({"left", "right", "inleft", "inright"})
"""The constructors of ``sumbool`` and ``sumor`` (``Specif.v``): how a ``match`` (or ``if``) on a decision prints."""


def searched_tests(output: str, marker: str) -> list[str] | None:
    """The decisions in the answer's print (after ``marker``) that test a variable the answer binds inside
    itself, or take a proof apart, as printed (None if the marker never appeared)."""
    lines = output.splitlines()
    tokens = body_tokens(lines, marker)
    if tokens is None:
        return None
    inner = _inner_binders(tokens)
    spelled = computable_spellings(lines, marker)
    computable = {k: v for k, v in spelled.items() if k not in inner}  # a bound variable so spelled is no constant
    consumers = {k: v for k, v in consumer_spellings(lines, marker).items() if k not in inner}
    derived = _derived(tokens, computable, consumers)
    builders = {k: v for k, v in builder_spellings(lines, marker).items() if k not in inner}
    lists = ListNames(map_spellings(lines, marker) - inner, builders)
    written = computable if not {"cons", "nil"} & inner else {}  # a bound `cons` is no list
    closed = closed_comparison_names(tokens, inner)  # round 52: `let b := Rlt_dec 1 0 in if b ..`
    found: set[str] = set()
    for at, token in enumerate(tokens):
        last = token.split(".")[-1]
        if last not in REAL_DECISIONS:
            if token == "match":
                found.update(_match_test(tokens, at, (inner, closed), computable, derived))
            continue
        args, arity = applied_to(tokens, at), consumers.get(token)
        opened = (inner - closed) & set(args) or _unsaturated(last, args)
        opened = opened or _consumes_opaque(token, args, arity, computable, closed)
        computed = _consumes(token, args, arity, computable, derived)
        if opened and not computed and not consumer_mapped(tokens, at, arity, lists, written, derived):
            found.add(token)
    return sorted(found)


def proofs_taken_apart(output: str, marker: str) -> list[str] | None:
    """The scrutinees' heads of the ``match``es in the answer's print (after ``marker``) that take a proof
    apart (``answer_opaque.takes_proof_apart``; None if the marker never appeared). Round 48: read of a set
    or predicate answer too, whose condition behind one (``fun n => match Z.lt_0_1 with eq_refl => n = 4
    end``) neither the logic step nor the answer check opens; the search rules above stay a value's."""
    tokens = body_tokens(output.splitlines(), marker)
    if tokens is None:
        return None
    found = set()
    for at, token in enumerate(tokens):
        if token == "match":
            scrutinee, end = match_scrutinee(tokens, at)
            if takes_proof_apart(_in_clause(tokens, end), _patterns(tokens, end)):
                found.add(next((t for t in scrutinee if t not in "()"), "match"))
    return sorted(found)


def _in_clause(tokens: list[str], end: int) -> list[str]:
    """The first word of the ``in`` clause of a ``match`` whose scrutinee ends at ``end`` (none without one)."""
    if end < len(tokens) and tokens[end] == "in":
        return [t for t in tokens[end + 1 : end + 4] if t not in "()"][:1]
    return []


def _consumes(token: str, arguments: list[str], arity: int | None, computable: Computable, derived: set[str]) -> bool:
    """Whether ``token``, a located consumer of ``decision_names.CONSUMERS`` (``arity`` given), is applied to exactly
    its arguments, the last a computable decision: ``is_left (Nat.eq_dec n 4)`` computes as ``if`` does."""
    if arity is None:
        return False
    groups = argument_groups(token, arguments)
    return len(groups) == arity and computes(groups[-1], computable, derived)


def _consumes_opaque(
    token: str, arguments: list[str], arity: int | None, computable: Computable, closed: set[str]
) -> bool:
    """Whether ``token``, a located consumer (``arity`` given), consumes what may be a decision no computation
    evaluates, even of closed numbers (round 49, as :func:`_match_test` reads a ``match``): applied to fewer
    arguments than its arity (handed to whatever applies it: only a located ``map`` over a list of computable
    decisions is read as computing), or to a decision that is neither computable nor a real comparison
    (``is_left (Z_noteq_dec 0 1)``, ``Qed``: a wrong value behind it was accepted). A variable holding part of
    a computable decision is read by :func:`_consumes`, one holding a real comparison of closed numbers
    (``closed_decisions``) as that comparison."""
    if arity is None:
        return False
    groups = argument_groups(token, arguments)
    if len(groups) < arity:
        return True
    head = next((t for t in groups[-1] if t not in "()"), "")
    held = closed_comparison(groups[-1], set(), closed)
    return head.split(".")[-1] not in REAL_DECISIONS and not held and not computes(groups[-1], computable, set())


def _derived(tokens: list[str], computable: Computable, consumers: dict[str, int]) -> set[str]:
    """The variables that hold part of a computable decision's value: bound by a branch of a ``match`` on
    one (``inleft s`` of ``lt_eq_lt_dec n 4``, which Coq prints for the nested pattern ``inleft (left _)``
    as a ``match s`` inside that branch) or by a branch ``fun`` of a recursor consuming one (``sumor_rec P
    (fun s => ..) g (lt_eq_lt_dec n 4)``), or by a ``let`` to one (round 52: ``let b := Z.eq_dec 3 3 in if
    b ..``), or of such a variable, and bound nowhere else (a name some
    other binder also binds may be that binder's: shadowing fails closed)."""
    bound = Counter(inner_binder_list(tokens))
    names: set[str] = set()
    while True:
        held: Counter[str] = Counter()
        for at, token in enumerate(tokens):
            if token == "match":
                scrutinee, end = match_scrutinee(tokens, at)
                if computes(scrutinee, computable, names):
                    held.update(_branch_variables(tokens, end))
            elif token == "let" and (body := let_body(tokens, at)) is not None and computes(body, computable, names):
                held.update(tokens[at + 1 : at + 2])  # round 52: `let b := Z.eq_dec 3 3 in if b ..`
            elif consumers.get(token) == RECURSOR:
                groups = argument_groups(token, applied_to(tokens, at))
                if len(groups) == RECURSOR and computes(groups[-1], computable, names):
                    for branch in (g for g in groups[3:5] if g[:2] == ["(", "fun"]):
                        held.update(variable_names(binder_names(branch, 2)[0]))
        grown = {name for name, count in held.items() if count == bound[name]}
        if grown <= names:
            return names
        names |= grown


def _branch_variables(tokens: list[str], start: int) -> list[str]:
    """The variables the branches bind of the ``match`` whose header ends at ``start`` (as
    :func:`inner_binder_list` counts them)."""
    return [word for bar in match_branches(tokens, start) for word in pattern_words(tokens, bar)]


def _unsaturated(name: str, arguments: list[str]) -> bool:
    """Whether a decision is applied to fewer arguments than it compares (an argument: a word or a group)."""
    count, depth = 0, 0
    for token in arguments:
        if depth == 0 and token != ")":
            count += 1
        depth += (token == "(") - (token == ")")
    if arguments and arguments[0].split(".")[-1] == name:
        count -= 1  # a parenthesised application starts with the name itself
    return count < ARITY.get(name, 0)


def _match_test(
    tokens: list[str], at: int, binders: tuple[set[str], set[str]], computable: Computable, derived: set[str]
) -> list[str]:
    """What a ``match`` at ``at`` decides, if it is a test: its scrutinee's head (none where the scrutinee
    is a computable decision applied, ``Nat.eq_dec n 4``, whose arguments' own tests are read apart, or a
    variable holding part of one: :func:`computes`). Round 48: a decision neither computable nor one of
    Coq's real comparisons (which the answer check splits into cases and decides by ``lra``) is a test even
    of closed numbers: ``if Z_noteq_dec 0 1 then 4 else 3`` (``ZArith_dec.v``, a ``Qed``) never reduces, so a
    wrong ``4`` for ``3`` was accepted with the check ``unknown``. ``binders``: the variables the answer
    binds inside itself, and those of them holding a real comparison of closed numbers (round 52: read as it).
    """
    inner, closed = binders
    scrutinee, end = match_scrutinee(tokens, at)
    patterns = _patterns(tokens, end)
    head = next((t for t in scrutinee if t not in "()"), "match")
    if takes_proof_apart(_in_clause(tokens, end), patterns):
        return [head]
    opened = inner & set(scrutinee) or head.split(".")[-1] not in REAL_DECISIONS  # a real one of closed numbers splits
    opened = opened and not closed_comparison(scrutinee, inner, closed)
    if DECISION_PATTERNS & patterns and opened and not computes(scrutinee, computable, derived):
        return [head]
    return []


def _patterns(tokens: list[str], start: int) -> set[str]:
    """The last names of the constructors heading the branches of the ``match`` whose header ends at ``start``."""
    return {tokens[bar + 1].split(".")[-1] for bar in match_branches(tokens, start) if bar + 1 < len(tokens)}


def _inner_binders(tokens: list[str]) -> set[str]:
    """The variables the answer binds inside itself: every ``fun``, ``let``, ``fix``, ``forall`` binder and
    ``match`` pattern or ``as`` name, but the answer's own leading parameters (``fun x : R => ...`` at the
    start), unless a name is also bound inside (a shadowing binder counts as inside)."""
    leading: list[str] = []
    at = 0
    while at < len(tokens) and tokens[at] == "fun":
        names, at = binder_names(tokens, at + 1)
        leading.extend(names)
    return set(inner_binder_list(tokens[at:]))
