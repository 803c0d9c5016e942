"""G2 and G3, Aesop's phase word ``unsafe`` in a rule clause of the ``aesop`` tactic (false rejections, round 28).

Lean's ``unsafe`` is a declaration modifier (``unsafe def``: no kernel check) and a term (``unsafe e``,
src/Lean/Parser/Term.lean): G3 refuses the word and G2 reads it, wherever it stands, as the start of a new
command (Lean's parser resumes at a modifier after a tactic block it cannot extend). Aesop reuses the
token as one of its three phases (leanprover-community/aesop Aesop/Frontend/RuleExpr.lean: ``syntax "unsafe"
: Aesop.phase``, beside ``"safe"`` and ``"norm"``; ``syntax Aesop.phase : Aesop.feature``; a rule expression
is a run of features, ``syntax Aesop.feature ppSpace Aesop.rule_expr``, or a feature and a bracketed list of
rule expressions, ``syntax Aesop.feature " [" Aesop.rule_expr,+,? "]"``) and the tactic takes rule
expressions in its clauses (Aesop/Frontend/Tactic.lean: ``syntax " (" &"add " Aesop.rule_expr,+,? ")"`` and
``&"erase "`` likewise; ``syntax "aesop" Aesop.tactic_clause* : tactic``). So ``aesop (add unsafe 50% apply
foo)``, the form Aesop's documentation teaches, was refused twice. There ``unsafe`` only picks the phase
the rule ``foo`` runs in (with a success probability): the proof Aesop builds is checked by the kernel
like any tactic's.

What is free: an ``unsafe`` token that stands directly in such a clause of a tactic word of
:data:`AESOP_TACTICS` (a chain of parenthesised clauses right after it), at the clause's own level or
inside ``[...]`` lists of rule expressions only. Inside a nested ``( )`` (Aesop's ``"(" term ")"``
feature, a builder option) a term is read, where ``unsafe e`` is Lean's unsafe term: refused as before;
so is ``unsafe`` anywhere else, after the clause on the same line included, and in a clause that holds
a token at column 0 or a command word (no rule expression does: Lean would report an error and resume
there). A rule naming Aesop's own
namespace (``Aesop.*``: a ``RuleTac`` runs code) stays refused by G3's namespace rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise
from typing import Final

from putnam_solver.core.provers.lean._attribute_items import each_attribute_list
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, NUMBER, Token

AESOP_TACTICS: Final = frozenset(
    {"aesop", "aesop?", "aesop_cat", "aesop_cat?", "aesop_graph", "aesop_graph?", "aesop_graph_nonterminal",
     "aesop_mat"}
)  # fmt: skip
"""Aesop's tactic and Mathlib's macros that pass their clauses on to it, each declared ``macro (name := X) "X"
c:Aesop.tactic_clause* : tactic => `(tactic| aesop $c* ...)``: ``aesop_cat`` (CategoryTheory/Category/Basic.lean),
``aesop_graph``, ``aesop_graph?``, ``aesop_graph_nonterminal`` (Combinatorics/SimpleGraph/Basic.lean) and
``aesop_mat`` (Data/Matroid/Basic.lean; round 29), with the ``?`` forms Aesop and Mathlib declare."""
RULE_CLAUSES: Final = frozenset({"add", "erase"})
"""The clauses whose items are rule expressions (``Aesop.rule_expr,+,?``)."""
PHASE: Final = "unsafe"


def aesop_phase_words(tokens: Sequence[Token]) -> frozenset[int]:
    """The offsets of every ``unsafe`` token that is Aesop's phase word (see the module's text). Linear:
    each clause is walked once, and only when the file names an Aesop tactic and the word."""
    texts = {t.text for t in tokens}
    if PHASE not in texts or texts.isdisjoint(AESOP_TACTICS):
        return frozenset()
    code = [t for t in tokens if t.kind != DOC]
    free: set[int] = set()
    i = 0
    while i < len(code):
        if code[i].text not in AESOP_TACTICS:
            i += 1
            continue
        i += 1
        while i + 1 < len(code) and code[i].text == "(":  # the clauses, one after another
            end = _clause(code, i, free)
            if end is None:
                break
            i = end + 1
    return frozenset(free)


def _clause(code: Sequence[Token], start: int, free: set[int]) -> int | None:
    """The index of the ``)`` closing the clause opened at ``code[start]`` (None if unclosed or if the
    brackets inside do not match); for a rule clause, the offsets of its phase words go into ``free``."""
    rules = code[start + 1].text in RULE_CLAUSES
    stack: list[str] = ["("]
    found: list[int] = []
    for j in range(start + 1, len(code)):
        text = code[j].text
        if code[j].col == 0 or text in _COMMAND_WORDS:
            rules, found = False, []  # no rule clause Lean reads: a command would begin here (recovery after an error)
        if text in ("(", "[", "{", "⟨"):
            stack.append(text)
        elif text in (")", "]", "}", "⟩"):
            if _OPENER[text] != stack.pop():
                return None
            if not stack:
                free.update(found)
                return j
        elif rules and text == PHASE and all(b == "[" for b in stack[1:]):
            found.append(code[j].offset)
    return None


_COMMAND_WORDS: Final = frozenset(
    {"def", "theorem", "lemma", "abbrev", "example", "instance", "axiom", "opaque", "structure", "class",
     "inductive", "coinductive", "irreducible_def", "mutual", "private", "protected", "public", "noncomputable",
     "partial", "nonrec", "meta", "end", "namespace", "section"}
)  # fmt: skip
"""Words no rule expression holds (command keywords and modifiers): a clause holding one frees nothing."""
_OPENER: Final = {")": "(", "]": "[", "}": "{", "⟩": "⟨"}


ATTRIBUTE: Final = "aesop"
"""Aesop's attribute (Aesop/Frontend/Attribute.lean: ``syntax (name := aesop) "aesop" Aesop.attr_rules : attr``,
``Aesop.attr_rules`` a rule expression or a bracketed list of them; round 29)."""
_RULE_WORDS: Final = frozenset(
    {"safe", "norm", PHASE, "apply", "simp", "unfold", "constructors", "forward", "destruct", "cases", "default"}
)
"""Aesop's phases and builder names (Aesop/Frontend/RuleExpr.lean, ``Aesop.phase``, ``Aesop.builder_name``)
but ``tactic``: that builder runs the declaration, a ``TacticM``/``RuleTac`` value, as code in the
interpreter; ``default`` picks it only for a declaration of such a type (the ``Lean``/``Aesop`` namespaces G3
refuses). The others make rules that build proofs the kernel checks: ``apply``/``forward``/``destruct`` use
the helper as a lemma, ``cases``/``constructors`` an inductive type's cases, ``simp``/``unfold`` rewrite."""
_RULE_SYMBOLS: Final = frozenset({"%", "-", "[", "]", ","})
"""A priority (``syntax num "%"``, ``syntax "-"? num``) and the list forms (``"[" Aesop.rule_expr,+,? "]"``)."""


def aesop_rule_arguments(arguments: Sequence[Token]) -> bool:
    """Whether the arguments of an ``@[aesop ...]`` item (doc comments left out) are rule expressions that
    name no code to run: phases, priorities, builders but ``tactic``, brackets that match, and the rule-set
    option ``(rule_sets := [Name, ...])`` (old syntax without ``:=`` too); any term, builder option or
    other name is refused."""
    depth, i = 0, 0
    while i < len(arguments):
        text = arguments[i].text
        if text == "(":
            after = _rule_sets(arguments, i)
            if after is None:
                return False
            i = after
            continue
        depth += 1 if text == "[" else -1 if text == "]" else 0
        if depth < 0 or not (arguments[i].kind == NUMBER or text in _RULE_WORDS or text in _RULE_SYMBOLS):
            return False
        i += 1
    return depth == 0


def _rule_sets(arguments: Sequence[Token], start: int) -> int | None:
    """The index after ``(rule_sets := [A, B])`` opened at ``arguments[start]``, or None if it is not that."""
    i = start + 1
    if i >= len(arguments) or arguments[i].text != "rule_sets":
        return None
    i += 2 if i + 1 < len(arguments) and arguments[i + 1].text == ":=" else 1
    if i >= len(arguments) or arguments[i].text != "[":
        return None
    i += 1
    while i < len(arguments) and (arguments[i].kind == IDENT or arguments[i].text == ","):
        i += 1
    ok = i + 1 < len(arguments) and arguments[i].text == "]" and arguments[i + 1].text == ")"
    return i + 2 if ok else None


def aesop_attributes(tokens: Sequence[Token]) -> tuple[frozenset[int], frozenset[int]]:
    """The offsets of the phase words ``unsafe`` in ``@[aesop ...]`` items whose arguments are rule
    expressions (:func:`aesop_rule_arguments`), and the indices of the ``@[`` lists whose every ``aesop`` item
    is such. A list inside another is not read on its own (its ``@[`` is not among the indices, so G3 refuses
    an ``aesop`` in it); each token is read once."""
    free: set[int] = set()
    good: set[int] = set()
    for i, items, _ in each_attribute_list(tokens):
        rules = [rest[1:] for rest in map(unscoped, items) if rest[:1] and rest[0].text == ATTRIBUTE]
        if all(map(aesop_rule_arguments, rules)):
            good.add(i)
            free.update(t.offset for rule in rules for t in rule if t.text == PHASE)
    return frozenset(free), frozenset(good)


def unscoped(item: Sequence[Token]) -> Sequence[Token]:
    """An attribute item without its ``local``/``scoped``."""
    return item[1:] if item and item[0].text in ("local", "scoped") else item


RULE_COMMANDS: Final = frozenset({"add_aesop_rules", "attribute"})
"""Commands that add rules to Aesop outside an ``@[...]`` list (Aesop/Frontend/Command.lean's
``add_aesop_rules``; ``attribute [aesop ...] x``)."""


def registers_rules(tokens: Sequence[Token], lists: Iterable[Sequence[str]]) -> bool:
    """Whether the file may hand Aesop a rule of its own: an ``(add ...)`` clause (of any tactic), an
    ``aesop`` attribute in one of the ``@[...]`` ``lists`` (their names), or a command that adds rules.

    Round 30. G3 refuses names of the ``Aesop`` namespace because Aesop runs a rule whose declaration has one
    of its rule types (``RuleTac``, ``SingleRuleTac``, ``TacGen``: red team 28), and only a rule reaches that:
    nothing else runs such a value by its name (the interpreter's other doors, configuration values, ``#eval``,
    ``run_tac``, are refused on their own). So ``apply Aesop.BuiltinRules.not_intro``, a lemma DSP+'s
    published miniF2F proofs use, is refused only in a file that adds rules (where a helper of those types
    would run); the namespace itself (``open Aesop``) stays refused everywhere."""
    texts = [t.text for t in tokens if t.kind != DOC]
    if not RULE_COMMANDS.isdisjoint(texts) or any(ATTRIBUTE in names for names in lists):
        return True
    return any(a == "(" and b == "add" for a, b in pairwise(texts))
