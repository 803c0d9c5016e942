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
consumed as written out (:func:`_mapped`). Round 47: or to a list a located ``map`` makes by a computable
decision of each element (:func:`_decisions_mapped`), or a ``let`` binds to one of these
(:func:`_decision_list`). Any other list stays a consumer's business.

Round 48: a decision neither computable nor a real comparison is a test even of closed numbers (a ``Qed``
one never reduces: :func:`_match_test`), and a set or predicate answer is read for proofs taken apart
(:func:`proofs_taken_apart`). The proof constructors and opaque steps moved to ``answer_opaque``, the
classical decisions named for G4 to ``decision_names``.

Left: a search unrolled over closed numbers (``if Rle_dec 4 (INR 0) then 0 else if ...``), which names no
bound variable; the answer check splits such cases and decides those that arithmetic decides.
"""

from __future__ import annotations

import re
from collections import Counter

from putnam_solver.core.provers.rocq.answer_opaque import takes_proof_apart
from putnam_solver.core.provers.rocq.decision_names import (
    RECURSOR,
    computable_spellings,
    consumer_spellings,
    map_spellings,
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
KEYWORDS = frozenset({"in", "then", "else", "with", "end", "return", "as", "let", "fun", "match", "if", "forall"})
_TOKEN = re.compile(r"=>|:=|[()|,:]|[^\W\d][\w']*(?:\.[^\W\d][\w']*)*")


def searched_tests(output: str, marker: str) -> list[str] | None:
    """The decisions in the answer's print (after ``marker``) that test a variable the answer binds inside
    itself, or take a proof apart, as printed (None if the marker never appeared)."""
    lines = output.splitlines()
    tokens = _body_tokens(lines, marker)
    if tokens is None:
        return None
    inner = _inner_binders(tokens)
    computable = computable_spellings(lines, marker) - inner  # a bound variable under its spelling is no constant
    consumers = {k: v for k, v in consumer_spellings(lines, marker).items() if k not in inner}
    derived = _derived(tokens, computable, consumers)
    maps = map_spellings(lines, marker) - inner
    written = computable if not {"cons", "nil"} & inner else set()  # a bound `cons` is no list
    found: set[str] = set()
    for at, token in enumerate(tokens):
        last = token.split(".")[-1]
        if last in REAL_DECISIONS and (inner & set(args := _arguments(tokens, at)) or _unsaturated(last, args)):
            arity = consumers.get(token)
            if not _consumes(token, args, arity, computable, derived) and not _mapped(
                tokens, at, arity, maps, written, derived
            ):
                found.add(token)
        elif token == "match":
            found.update(_match_test(tokens, at, inner, computable, derived))
    return sorted(found)


def proofs_taken_apart(output: str, marker: str) -> list[str] | None:
    """The scrutinees' heads of the ``match``es in the answer's print (after ``marker``) that take a proof
    apart (``answer_opaque.takes_proof_apart``; None if the marker never appeared). Round 48: read of a set
    or predicate answer too, whose condition behind one (``fun n => match Z.lt_0_1 with eq_refl => n = 4
    end``) neither the logic step nor the answer check opens; the search rules above stay a value's."""
    tokens = _body_tokens(output.splitlines(), marker)
    if tokens is None:
        return None
    found = set()
    for at, token in enumerate(tokens):
        if token == "match":
            scrutinee, end = _scrutinee(tokens, at)
            if takes_proof_apart(_in_clause(tokens, end), _patterns(tokens, end)):
                found.add(next((t for t in scrutinee if t not in "()"), "match"))
    return sorted(found)


def _body_tokens(lines: list[str], marker: str) -> list[str] | None:
    """The words of the answer's body as printed after ``marker`` (None if it never appeared)."""
    if marker not in lines:
        return None
    printed = []
    for line in lines[lines.index(marker) + 1 :]:
        if line.startswith(("Arguments ", marker)) or line.lstrip().startswith(": "):
            break  # the body ends at its type (whose binders are no range); the environment's own print follows
        printed.append(line)
    text = "\n".join(printed)
    return _TOKEN.findall(text.split(" = ", 1)[1] if " = " in text else text)


def _in_clause(tokens: list[str], end: int) -> list[str]:
    """The first word of the ``in`` clause of a ``match`` whose scrutinee ends at ``end`` (none without one)."""
    if end < len(tokens) and tokens[end] == "in":
        return [t for t in tokens[end + 1 : end + 4] if t not in "()"][:1]
    return []


def _computes(scrutinee: list[str], computable: set[str], derived: set[str]) -> bool:
    """Whether a decision (a ``match``'s scrutinee, a consumer's last argument) is a computable one applied
    (``Nat.eq_dec n 4``, its arguments read apart) or a variable :func:`_derived` says holds part of one."""
    words = [t for t in scrutinee if t not in "()"]
    return bool(words) and (words[0] in computable or (len(words) == 1 and words[0] in derived))


def _consumes(token: str, arguments: list[str], arity: int | None, computable: set[str], derived: set[str]) -> bool:
    """Whether ``token``, a located consumer of ``decision_names.CONSUMERS`` (``arity`` given), is applied to exactly
    its arguments, the last a computable decision: ``is_left (Nat.eq_dec n 4)`` computes as ``if`` does."""
    if arity is None:
        return False
    groups = _groups(token, arguments)
    return len(groups) == arity and _computes(groups[-1], computable, derived)


def _mapped(
    tokens: list[str], at: int, arity: int | None, maps: set[str], computable: set[str], derived: set[str]
) -> bool:
    """Whether the consumer at ``at`` (``arity`` given), applied to all but its decision (``@is_left A B``),
    is the function a located ``map`` applies to a written list of computable decisions (``@map _ _ (@is_left
    A B) (@cons _ (Nat.eq_dec n 4) (@nil _))``): each element consumed, as writing it out does."""
    if arity is None or at < 2 or tokens[at - 1] != "(":
        return False
    depth, start = 0, at - 2
    while start >= 0 and not (tokens[start] == "(" and depth == 0):
        depth += (tokens[start] == ")") - (tokens[start] == "(")
        start -= 1
    if start < 0 or tokens[start + 1] not in maps:
        return False
    groups = _groups(tokens[start + 1], _arguments(tokens, start + 1))
    function = _groups(token := tokens[at], _arguments(tokens, at))
    if len(groups) != 4 or groups[2] != tokens[at - 1 : at - 1 + len(groups[2])] or len(function) != arity - 1:
        return False
    return token in groups[2] and _decision_list(tokens, groups[3], maps, computable, derived)


def _decision_list(
    tokens: list[str], words: list[str], maps: set[str], computable: set[str], derived: set[str], depth: int = 0
) -> bool:
    """Whether every element of the list ``words`` is a computable decision: a written list (``cons``/``nil``)
    of them, a located ``map`` of a function that makes one of each element (:func:`_decisions_mapped`), or
    (round 47) a variable a ``let`` of the answer binds, once, to such a list (its definition read the same
    way, a few levels deep). Anything else (a list variable bound otherwise, a library function's list) stays
    a consumer's business."""
    if depth > LIST_DEPTH:
        return False
    while words[:2] == ["(", "cons"]:
        parts = _groups("cons", words[1:-1])
        if len(parts) != 3 or not _computes(parts[1], computable, derived):
            return False
        words = parts[2]
    if words[:2] == ["(", "nil"] or _decisions_mapped(words, maps, computable, derived):
        return True
    definition = _let_definition(tokens, words)
    return definition is not None and _decision_list(tokens, definition, maps, computable, derived, depth + 1)


LIST_DEPTH = 4
"""How many ``let``-bound lists :func:`_decision_list` reads through (``let l := .. in let m := l in ..``)."""


def _let_definition(tokens: list[str], words: list[str]) -> list[str] | None:
    """The definition of ``words`` when it is one variable that the answer binds once, by a ``let`` (``let l :=
    def in``, or ``let l : T := def in``); None otherwise."""
    if len(words) != 1 or Counter(_inner_binder_list(tokens))[words[0]] != 1:
        return None
    for at in range(len(tokens) - 1):
        if tokens[at] == "let" and tokens[at + 1] == words[0]:
            start = next((i for i in range(at + 2, len(tokens)) if tokens[i] == ":="), None)
            if start is None:
                return None
            depth, nested = 0, 0
            for end in range(start + 1, len(tokens)):
                depth += (tokens[end] == "(") - (tokens[end] == ")")
                nested += tokens[end] == "let"
                if depth == 0 and tokens[end] == "in":
                    if nested == 0:  # an application, grouped as an argument is (``( cons ... )``)
                        definition = tokens[start + 1 : end]
                        return definition if len(definition) == 1 else ["(", *definition, ")"]
                    nested -= 1
            return None
    return None


def _decisions_mapped(words: list[str], maps: set[str], computable: set[str], derived: set[str]) -> bool:
    """Whether the list ``words`` is a located ``map`` of a function that makes a computable decision of each
    element (``@map nat _ (Nat.eq_dec n) xs``, ``@map nat _ (fun k : nat => Nat.eq_dec k n) (seq 0 n)``), so
    each element consumed is one (round 47: such a list is not written out, and an honest search by a
    computable decision was refused). The list mapped over is data: its own decisions are read where they
    stand."""
    if len(words) < 3 or words[0] != "(" or words[1] not in maps:
        return False
    groups = _groups(words[1], words[1:-1])
    if len(groups) != 4:
        return False
    function = groups[2]
    if function[:2] == ["(", "fun"]:
        depth, arrow = 0, None
        for index, word in enumerate(function):
            depth += (word == "(") - (word == ")")
            if word == "=>" and depth == 1:
                arrow = index
                break
        function = function[arrow + 1 : -1] if arrow is not None else []
    return _computes(function, computable, derived)


def _groups(token: str, arguments: list[str]) -> list[list[str]]:
    """The arguments ``token`` is applied to (:func:`_arguments`), one list per argument (a word or a group)."""
    groups: list[list[str]] = []
    depth = 0
    for word in arguments[1:] if arguments[:1] == [token] else arguments:
        if depth == 0:
            groups.append([])
        groups[-1].append(word)
        depth += (word == "(") - (word == ")")
    return groups


def _derived(tokens: list[str], computable: set[str], consumers: dict[str, int]) -> set[str]:
    """The variables that hold part of a computable decision's value: bound by a branch of a ``match`` on
    one (``inleft s`` of ``lt_eq_lt_dec n 4``, which Coq prints for the nested pattern ``inleft (left _)``
    as a ``match s`` inside that branch) or by a branch ``fun`` of a recursor consuming one (``sumor_rec P
    (fun s => ..) g (lt_eq_lt_dec n 4)``), or of such a variable, and bound nowhere else (a name some
    other binder also binds may be that binder's: shadowing fails closed)."""
    bound = Counter(_inner_binder_list(tokens))
    names: set[str] = set()
    while True:
        held: Counter[str] = Counter()
        for at, token in enumerate(tokens):
            if token == "match":
                scrutinee, end = _scrutinee(tokens, at)
                if _computes(scrutinee, computable, names):
                    held.update(_branch_variables(tokens, end))
            elif consumers.get(token) == RECURSOR:
                groups = _groups(token, _arguments(tokens, at))
                if len(groups) == RECURSOR and _computes(groups[-1], computable, names):
                    for branch in (g for g in groups[3:5] if g[:2] == ["(", "fun"]):
                        held.update(_names(_binder_names(branch, 2)[0]))
        grown = {name for name, count in held.items() if count == bound[name]}
        if grown <= names:
            return names
        names |= grown


def _scrutinee(tokens: list[str], at: int) -> tuple[list[str], int]:
    """The scrutinee of the ``match`` at ``at`` and the index of the word that ends it (``with``, ``return``,
    ``as``, ``in``)."""
    scrutinee, end, depth = [], at + 1, 0
    while end < len(tokens):
        token = tokens[end]
        depth += (token == "(") - (token == ")")
        if depth == 0 and token in ("with", "return", "as", "in"):
            break
        scrutinee.append(token)
        end += 1
    return scrutinee, end


def _branch_variables(tokens: list[str], start: int) -> list[str]:
    """The variables the branches bind of the ``match`` whose header ends at ``start`` (as
    :func:`_inner_binder_list` counts them)."""
    return [word for bar in _branches(tokens, start) for word in _pattern_words(tokens, bar)]


def _branches(tokens: list[str], start: int) -> list[int]:
    """Where the branches (their ``|``) of the ``match`` whose header ends at ``start`` begin."""
    found, depth = [], 0
    for at in range(start, len(tokens)):
        token = tokens[at]
        if token == "match":
            depth += 1
        elif token == "end":
            if depth == 0:
                break
            depth -= 1
        elif token == "|" and depth == 0:
            found.append(at)
    return found


ARITY = {
    **dict.fromkeys(("Rlt_dec", "Rle_dec", "Rgt_dec", "Rge_dec", "Rlt_le_dec", "Rgt_ge_dec", "Rle_lt_dec"), 2),
    **dict.fromkeys(("Rge_gt_dec", "Req_EM_T", "Req_appart_dec", "total_order_T", "Req_dec", "Rcompare", "Reqb"), 2),
    **dict.fromkeys(("Rbar_lt_dec", "Rbar_le_dec", "Rbar_total_order", "Rbar_eq_dec", "Ceq_dec"), 2),
    **dict.fromkeys(("Rbar_lt_le_dec", "Rbar_le_lt_dec", "Rbar_le_lt_or_eq_dec"), 2),
    **dict.fromkeys(("up", "Int_part", "Rcase_abs", "in_int", "sign", "cond_positivity"), 1),
}
"""How many arguments each decision of :data:`REAL_DECISIONS` compares (their statements in the files cited
there): one applied to fewer (``find (fun b => is_left b) (map (Rle_dec 4) xs)``, ``map up xs``) is a test
handed to whatever walks a range, with no bound variable in sight."""


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


def _match_test(tokens: list[str], at: int, inner: set[str], computable: set[str], derived: set[str]) -> list[str]:
    """What a ``match`` at ``at`` decides, if it is a test: its scrutinee's head (none where the scrutinee
    is a computable decision applied, ``Nat.eq_dec n 4``, whose arguments' own tests are read apart, or a
    variable holding part of one: :func:`_computes`). Round 48: a decision neither computable nor one of
    Coq's real comparisons (which the answer check splits into cases and decides by ``lra``) is a test even
    of closed numbers: ``if Z_noteq_dec 0 1 then 4 else 3`` (``ZArith_dec.v``, a ``Qed``) never reduces, so a
    wrong ``4`` for ``3`` was accepted with the check ``unknown``."""
    scrutinee, end = _scrutinee(tokens, at)
    patterns = _patterns(tokens, end)
    head = next((t for t in scrutinee if t not in "()"), "match")
    if takes_proof_apart(_in_clause(tokens, end), patterns):
        return [head]
    opened = inner & set(scrutinee) or head.split(".")[-1] not in REAL_DECISIONS  # a real one of closed numbers splits
    if DECISION_PATTERNS & patterns and opened and not _computes(scrutinee, computable, derived):
        return [head]
    return []


def _patterns(tokens: list[str], start: int) -> set[str]:
    """The last names of the constructors heading the branches of the ``match`` whose header ends at ``start``."""
    return {tokens[bar + 1].split(".")[-1] for bar in _branches(tokens, start) if bar + 1 < len(tokens)}


def _arguments(tokens: list[str], at: int) -> list[str]:
    """The words a name at ``at`` is applied to: its parenthesised application, else the words after it up
    to a keyword, a ``|`` or the end of its group; none where it is itself an argument (after a word of the
    same application: ``Printing All`` parenthesises every applied argument)."""
    if at and tokens[at - 1] not in KEYWORDS and tokens[at - 1] not in ("(", "|", "=>", ":=", ","):
        return []
    if at and tokens[at - 1] == "(":
        depth = 0
        for end in range(at - 1, len(tokens)):
            depth += (tokens[end] == "(") - (tokens[end] == ")")
            if depth == 0:
                return tokens[at:end]
        return tokens[at:]
    scope, depth = [], 0
    for token in tokens[at + 1 :]:
        depth += (token == "(") - (token == ")")
        if depth < 0 or (depth == 0 and (token in KEYWORDS or token in ("|", "=>", ":=", ","))):
            break
        scope.append(token)
    return scope


def _inner_binders(tokens: list[str]) -> set[str]:
    """The variables the answer binds inside itself: every ``fun``, ``let``, ``fix``, ``forall`` binder and
    ``match`` pattern or ``as`` name, but the answer's own leading parameters (``fun x : R => ...`` at the
    start), unless a name is also bound inside (a shadowing binder counts as inside)."""
    leading: list[str] = []
    at = 0
    while at < len(tokens) and tokens[at] == "fun":
        names, at = _binder_names(tokens, at + 1)
        leading.extend(names)
    return set(_inner_binder_list(tokens[at:]))


def _inner_binder_list(tokens: list[str]) -> list[str]:
    """Every name ``tokens`` bind, once per binder: ``fun``, ``let``, ``fix``, ``forall``, ``as``, patterns."""
    inner: list[str] = []
    for i in range(len(tokens)):
        token = tokens[i]
        if token in ("fun", "forall"):
            inner.extend(_binder_names(tokens, i + 1)[0])
        elif token in ("let", "fix", "as") and i + 1 < len(tokens):
            inner.append(tokens[i + 1])
        elif token == "|":
            inner.extend(_pattern_words(tokens, i))
    return _names(inner)


def _pattern_words(tokens: list[str], bar: int) -> list[str]:
    """The words the pattern after the ``|`` at ``bar`` binds (all but its head constructors)."""
    words = []
    for before, word in zip(tokens[bar + 1 :], tokens[bar + 2 :], strict=False):
        if word == "=>":
            break
        if before != "(":  # a nested pattern's constructor
            words.append(word)
    return _names(words)


def _names(words: list[str]) -> list[str]:
    """The variable names among the words a binder reads (no punctuation, ``_`` or qualified name)."""
    return [n for n in words if n not in ("(", ")", ",", "_", ":") and "." not in n]


def _binder_names(tokens: list[str], at: int) -> tuple[list[str], int]:
    """The names a ``fun``/``forall`` at ``at - 1`` binds (``fun n : nat =>``, ``fun (x : R) (y : R * R) =>``),
    and the index after its ``=>`` or ``,``."""
    names: list[str] = []
    typing, depth = False, 0
    while at < len(tokens) and not (depth == 0 and tokens[at] in ("=>", ",")):
        token = tokens[at]
        if token == "(":
            depth += 1
        elif token == ")":
            depth -= 1
            typing = typing and depth > 0
        elif token == ":" and depth <= 1:
            typing = True
        elif not typing and token not in KEYWORDS:
            names.append(token)
        at += 1
    return names, at + 1
