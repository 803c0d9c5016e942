"""G3, declarations of the candidate's own that Aesop runs as code (red team 31).

Aesop turns a rule declaration into a tactic when its builder is ``tactic``, and its ``default`` builder
(the one a rule gets when it names none) tries ``tactic`` before ``apply`` (leanprover-community/aesop
Aesop/Builder/Default.lean: ``constructorsDef input <|> tacticDef input <|> applyDef input``). The
``tactic`` builder (Aesop/Builder/Tactic.lean) accepts any global constant whose type is *definitionally*
``TacticM Unit``, ``SingleRuleTac`` or ``RuleTac`` and runs it in the interpreter whenever the rule fires.
G3 refused the ``Lean`` and ``Aesop`` namespaces on the premise that such a declaration must name them; it
need not: Lean infers a definition's type (``def zz := do try Mathlib.Meta.NormNum.elabNormNum default
default default catch _ => pure (); ...``), and the body reaches ``Lean.MVarId.assign`` and ``Lean.Expr``'s
constructors by dot notation and leading-dot names (``g.assign (.const (.str .anonymous "sorryAx") ..)``),
none of which spells a refused word. So ``@[aesop safe] def zz := ...`` and ``aesop (add safe zz)`` (or
``(add safe tactic zz)``, which G3 read as harmless in a clause) ran a helper's meta code while the proof
elaborated, and the text profile accepted it.

The rule by meaning: a ``theorem`` or ``lemma`` is never compiled and its type is a proposition, and an
``inductive`` or ``structure`` is a type, so neither can be run; any other declaration of the candidate's
(``def``, ``abbrev``, a ``where`` or ``let rec`` one) handed to Aesop must carry a builder that uses it as a
lemma or definition (``apply``, ``forward``, ``destruct``, ``simp``, ``unfold``, ``constructors``,
``cases``, ``cases_patterns``), never ``tactic`` or none. A library constant run as a tactic rule runs the
library's code only; the ``tactic`` builder is refused in a clause whatever it names, as it is in an
attribute, since a library tactic is called as a tactic directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from putnam_solver.core.provers.lean._aesop_clauses import ATTRIBUTE, unscoped
from putnam_solver.core.provers.lean._attribute_items import each_attribute_list
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, Token
from putnam_solver.core.provers.lean.syntax import name_parts

CONSTRUCT: Final = "aesop rule run as code"
REASON: Final = (
    "Aesop runs a rule declaration as a tactic (in Lean's interpreter) when its builder is `tactic`, or none "
    "and its type is `TacticM Unit`, which Lean infers without the word being written: give a `def` or "
    "`abbrev` of your own to Aesop only with a builder that uses it as a lemma or definition (`apply`, "
    "`forward`, `destruct`, `simp`, `unfold`, `cases`, `constructors`), or make the rule a `theorem`"
)
SAFE_BUILDERS: Final = frozenset(
    {"apply", "forward", "destruct", "simp", "unfold", "constructors", "cases", "cases_patterns"}
)
"""Aesop's builders (Aesop/Frontend/RuleExpr.lean, ``Aesop.builder_name``) that never run their rule."""
NEVER_RUN: Final = frozenset({"theorem", "lemma", "inductive", "structure", "class", "coinductive"})
"""Declarations whose constant is a proof or a type: no builder can run it."""
_CODE_KEYWORDS: Final = frozenset({"def", "abbrev", "instance", "opaque", "rec"})
_MODIFIERS: Final = frozenset({"private", "protected", "public", "noncomputable", "nonrec", "partial", "unsafe"})
COMMAND: Final = "add_aesop_rules"
"""Aesop's command (Aesop/Frontend/Command.lean: ``"add_aesop_rules " attrKind Aesop.rule_expr``), which G2
refuses today; read like a clause so that a rule it is given stays judged wherever it is permitted."""
_OPENERS: Final = frozenset({"(", "{", "⟨"})
_CLOSERS: Final = frozenset({")", "}", "⟩"})


def aesop_code_rules(tokens: Sequence[Token]) -> list[Token]:
    """The tokens of every Aesop rule that may run the candidate's code: an ``@[aesop ...]`` item with no
    builder of :data:`SAFE_BUILDERS` on a declaration that is not a proof or a type, and in an ``(add ...)``
    clause the builder ``tactic`` and each name of a code declaration of the file given no such builder."""
    texts = {t.text for t in tokens}
    if ATTRIBUTE not in texts and "add" not in texts and COMMAND not in texts:
        return []  # the usual case
    code = [t for t in tokens if t.kind != DOC]
    found = _attribute_rules(code) if ATTRIBUTE in texts else []
    if "add" in texts or COMMAND in texts:
        names = _code_names(code)
        i = 0
        while i < len(code) - 1:  # a clause's tokens are read once: the scan resumes where its clause ended
            if code[i].text == "(" and code[i + 1].text == "add":
                i = _clause_rules(code, i + 2, names, found)
            elif code[i].text == COMMAND:  # `add_aesop_rules safe zz`: a rule expression up to the next command
                i = _clause_rules(code, i + 1, names, found, command=True)
            else:
                i += 1
    return found


def _attribute_rules(code: Sequence[Token]) -> list[Token]:
    """``aesop`` items without a safe builder whose declaration (after the list, further lists and
    modifiers) is not of :data:`NEVER_RUN`: a ``def``, an ``abbrev``, a ``where`` declaration. The lists
    of one declaration are judged together, once its keyword is reached (linear in the file)."""
    found: list[Token] = []
    pending: list[Token] = []
    for _, items, after in each_attribute_list(code):
        pending += [it[0] for it in map(unscoped, items) if it[:1] and it[0].text == ATTRIBUTE and not _builder(it)]
        if after < len(code) and code[after].text == "@[":
            continue  # the next list belongs to the same declaration
        if pending and _declared_by(code, after) not in NEVER_RUN:
            found += pending
        pending = []
    return found


def _builder(item: Sequence[Token]) -> bool:
    return any(t.text in SAFE_BUILDERS for t in item)


def _declared_by(code: Sequence[Token], j: int) -> str:
    """The keyword of the declaration whose attribute lists end before ``code[j]``, after its modifiers
    (``""`` at the end of the file; a ``where``/``let rec`` declaration gives its name)."""
    while j < len(code) and code[j].text in _MODIFIERS:
        j += 1
    return code[j].text if j < len(code) else ""


def _code_names(code: Sequence[Token]) -> frozenset[str]:
    """The last name parts of the file's declarations that may be code: after ``def``, ``abbrev``,
    ``instance``, ``opaque``, ``let rec``, and in a ``where`` block (to the next column-0 token) each name
    that begins a line or follows ``where``, ``;`` or an attribute list (over-approximated: a structure's
    fields are read too)."""
    names: set[str] = set()
    where = False
    for j, token in enumerate(code):
        if token.col == 0:
            where = False
        if token.text == "where":
            where = True
        if token.kind != IDENT or j == 0:
            continue
        before = code[j - 1]
        heads = before.text in _CODE_KEYWORDS
        if heads or (where and (before.text in ("where", ";", "]") or before.line != token.line)):
            names.update(name_parts(token.text)[-1:])
    return frozenset(names)


def _clause_rules(
    code: Sequence[Token], start: int, names: frozenset[str], found: list[Token], command: bool = False
) -> int:
    """Adds to ``found``, in the ``(add ...)`` clause whose items begin at ``code[start]``, the builder
    ``tactic`` and each name of ``names`` in a rule expression whose features (before it in its item, or
    before the ``[`` of the list holding it) name no safe builder; returns the index where the clause ends:
    its closing ``)``, or a column-0 token (where a command begins: no clause reaches past it)."""
    depth = 0  # brackets of terms and builder options inside the clause
    inherited: list[bool] = []  # for each open `[...]` list, whether its features name a safe builder
    safe = False
    j = start
    for j in range(start, len(code)):
        token = code[j]
        text = token.text
        if token.col == 0 and (command or j > start):
            break
        if text in _OPENERS:
            depth += 1
        elif text in _CLOSERS:
            if depth == 0:
                break  # the clause's own `)`
            depth -= 1
        elif depth == 0 and text == "[":
            inherited.append(safe)
        elif depth == 0 and text == "]" and inherited:
            safe = inherited.pop()
        elif depth == 0 and text == ",":
            safe = inherited[-1] if inherited else False
        elif depth == 0 and text in SAFE_BUILDERS:
            safe = True
        elif (depth == 0 and text == "tactic") or _runs(token, safe, names):
            found.append(token)
    else:
        return len(code)
    return max(j, start)


def _runs(token: Token, safe: bool, names: frozenset[str]) -> bool:
    """Whether ``token`` names one of the file's code declarations ``names`` with no safe builder in force."""
    return token.kind == IDENT and not safe and not names.isdisjoint(name_parts(token.text)[-1:])
