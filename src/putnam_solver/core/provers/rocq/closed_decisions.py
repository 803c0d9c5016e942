"""Variables that hold a real comparison of closed numbers (a G4 reader for ``answer_tests``, round 52).

``answer_tests`` lets a ``match`` on a library decision of a real comparison pass when the comparison names
no variable the answer binds inside itself: ``if Rlt_dec 1 0 then 5 else 1`` is a case of a closed form,
which the answer check splits (``answer_values.CASES``) and decides by ``lra``. The same comparison bound
by a ``let`` first (``let b := Rlt_dec 1 0 in if b then 5 else 1``) was refused as a search: the ``match``
is on ``b``, a variable the answer binds. So was Coq's print of a nested pattern (``match total_order_T 1 0
with inleft (left _) => ..`` prints a ``match s`` inside the branch ``inleft s``). Neither walks a range:
the variable holds the closed comparison (or part of its value) and nothing else, and the answer check
sees through both (``cbv`` substitutes the ``let``, ``CASES`` splits the outer ``match`` first where the
inner one's scrutinee is a bound variable).

So a variable is read as its comparison when it is bound exactly once in the answer (a name bound twice may
be the other binder's: shadowing fails closed), and either a ``let`` binds it to a decision of
:data:`ARITY` applied to exactly its arguments, none naming a variable bound inside the answer (or to
another such variable), or a branch of a ``match`` on such a decision or variable binds it. Anything else
stays a search's test.
"""

from __future__ import annotations

from collections import Counter

from putnam_solver.core.provers.rocq.print_words import (
    argument_groups,
    inner_binder_list,
    match_branches,
    match_scrutinee,
    pattern_words,
)

ARITY = {
    **dict.fromkeys(("Rlt_dec", "Rle_dec", "Rgt_dec", "Rge_dec", "Rlt_le_dec", "Rgt_ge_dec", "Rle_lt_dec"), 2),
    **dict.fromkeys(("Rge_gt_dec", "Req_EM_T", "Req_appart_dec", "total_order_T", "Req_dec", "Rcompare", "Reqb"), 2),
    **dict.fromkeys(("Rbar_lt_dec", "Rbar_le_dec", "Rbar_total_order", "Rbar_eq_dec", "Ceq_dec"), 2),
    **dict.fromkeys(("Rbar_lt_le_dec", "Rbar_le_lt_dec", "Rbar_le_lt_or_eq_dec"), 2),
    **dict.fromkeys(("up", "Int_part", "Rcase_abs", "in_int", "sign", "cond_positivity"), 1),
}
"""How many reals each of ``answer_tests.REAL_DECISIONS`` compares (their statements in the files cited
there): one applied to fewer (``find (fun b => is_left b) (map (Rle_dec 4) xs)``, ``map up xs``) is a test
handed to whatever walks a range, with no bound variable in sight (``answer_tests``); one applied to exactly
these, none naming a variable bound inside the answer, is a comparison of closed numbers, which a variable
may hold (here)."""


def closed_comparison_names(tokens: list[str], inner: set[str]) -> set[str]:
    """The variables of the answer's print (``tokens``) that hold a real comparison of closed numbers
    (``inner``: the variables the answer binds inside itself, its leading parameters aside)."""
    once = {name for name, count in Counter(inner_binder_list(tokens)).items() if count == 1}
    names: set[str] = set()
    while True:
        grown = {name for name in _holders(tokens, inner, names) if name in once}
        if grown <= names:
            return names
        names |= grown


def closed_comparison(words: list[str], inner: set[str], names: set[str]) -> bool:
    """Whether ``words`` (a scrutinee, a ``let``'s body) is one of ``names`` or a decision of
    :data:`ARITY` applied to exactly its arguments, none naming a variable of ``inner``."""
    plain = [w for w in words if w not in "()"]
    if len(plain) == 1 and plain[0] in names:
        return True
    if not plain or plain[0].split(".")[-1] not in ARITY or inner & set(plain):
        return False
    grouped = words[1:-1] if words[:1] == ["("] and words[-1:] == [")"] else words
    return len(argument_groups(plain[0], grouped)) == ARITY[plain[0].split(".")[-1]]


def _holders(tokens: list[str], inner: set[str], names: set[str]) -> set[str]:
    """The variables a ``let`` binds to a closed comparison, or a branch of a ``match`` on one binds."""
    found: set[str] = set()
    for at, token in enumerate(tokens):
        if token == "match":
            scrutinee, end = match_scrutinee(tokens, at)
            if closed_comparison(scrutinee, inner, names):
                found.update(word for bar in match_branches(tokens, end) for word in pattern_words(tokens, bar))
        elif token == "let" and at + 1 < len(tokens):
            body = let_body(tokens, at)
            if body is not None and closed_comparison(body, inner, names):
                found.add(tokens[at + 1])
    return found


def let_body(tokens: list[str], at: int) -> list[str] | None:
    """The body of the ``let`` at ``at`` (between its ``:=`` and its ``in``), None where it holds a binder or
    its shape is any other (a ``let`` of a pattern, an unclosed one)."""
    depth, start = 0, None
    for end in range(at + 2, len(tokens)):
        token = tokens[end]
        depth += (token == "(") - (token == ")")
        if depth == 0 and token == ":=" and start is None:
            start = end + 1
        elif depth == 0 and start is not None and token == "in":
            body = tokens[start:end]
            return None if {"let", "fun", "match", "fix", "forall"} & set(body) else body
        elif depth < 0:
            return None
    return None
