"""G3 rules read by a sentence's command and attributes rather than by a word of it.

A forbidden word (``policy.forbidden_words``) is refused wherever it occurs; these constructs are spelled
with words that are harmless elsewhere (``Ltac``, ``Set``, ``canonical``, ``where``), so they are
recognised by where the words stand: ``Ltac name ::= ...`` and ``Ltac2 Set`` replace a tactic already
defined, in force in every file that ``Require``s the candidate (the harness's check files included);
the attributes ``#[canonical]``, ``#[instance]``, ``#[coercion]`` on a ``Definition`` (a permitted
addition) register what the refused ``Canonical``, ``Instance``, ``Coercion`` commands do, and ``Add
Parametric Relation`` (in a proof) instances as ``Instance`` does; ``Fixpoint ... where "a + b" := ...``
declares a notation (in force for the rest of the file: ``2 + 2 = 0`` by ``reflexivity``) without the
word ``Notation``.

G2 also reads here the names that ``abstract``/``transparent_abstract ... using name`` make Coq declare
(``tactic_declared_names``), and the later names of a mutual declaration (``Lemma a : A with INR (n :
nat) : R.`` declares ``INR``: ``mutual_names``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import Final

from putnam_solver.core.gatekit import Violation
from putnam_solver.core.provers.rocq.policy import POLICY, Rule
from putnam_solver.core.provers.rocq.statement_shape import solution_body_start
from putnam_solver.core.provers.rocq.syntax import (
    OPENING,
    THEOREM_COMMANDS,
    Kind,
    Sentence,
    StatementError,
    rolled_back,
)

_RULES = {r.construct: r for r in POLICY.sentence_rules}


def second_word(sentence: Sentence) -> str:
    """The token after the command word (``Scope`` in ``Open Scope``), or empty."""
    i = sentence.command_index() + 1
    return sentence.tokens[i].text if i < len(sentence.tokens) else ""


GOAL = "Goal"
"""``Goal T. ... Qed.``: a theorem Coq names itself (``goal_name``), a helper like a ``Lemma`` (measured
with coqc 8.16: a field of the compiled module, its term read by G5 as any other's)."""


def goal_name(defined: set[str]) -> str:
    """The name coqc 8.16 gives a ``Goal``'s theorem: the first of ``Unnamed_thm``, ``Unnamed_thm0``,
    ``Unnamed_thm1``... not declared yet (measured: after ``Definition Unnamed_thm0``, the second is
    ``Unnamed_thm1``)."""
    base = "Unnamed_thm"
    return next(n for n in (base, *(f"{base}{i}" for i in range(len(defined) + 1))) if n not in defined)


def proof_owner(sent: Sentence) -> str:
    """How a violation names the declaration whose proof ``sent`` opens."""
    return f"`{sent.declared_name}`" if sent.command not in (GOAL, "Next", "Obligation") else f"a `{sent.command}`"


def opens_proof(sentence: Sentence) -> bool:
    """Whether a declaration is followed by proof sentences (no top-level ``:=`` body, not rolled back).

    ``Example`` is a ``Definition`` to Coq (``Example e : T := t.`` opens no proof, measured with coqc
    8.16): read as a theorem, it opened a proof G2 alone saw, in which the commands up to the next ``Qed``
    passed as tactics, a top-level ``Property PI : R.`` shadowing the statement's ``PI`` among them (red
    team 29, accepted on ``text``; G4 and G5 refuse the shadowing)."""
    if rolled_back(sentence):
        return False
    if sentence.command in THEOREM_COMMANDS - {"Example"} or sentence.command == GOAL:
        return True
    if sentence.command in ("Definition", "Example", "Fixpoint", "CoFixpoint", "Let"):
        try:
            solution_body_start(sentence)
        except StatementError:
            return True
    return False


def gives_term(sent: Sentence) -> bool:
    """``Proof t.``: Coq's ``exact t. Qed.`` in one sentence, which ends the proof (``Proof using ...``,
    ``Proof with ...`` and ``Proof Mode ...`` do not)."""
    words = sent.words[sent.command_index() + 1 : -1]
    return bool(words) and words[0] not in ("using", "with", "Mode")


def program_obligation(sentence: Sentence) -> bool | None:
    """``Next Obligation`` or ``Obligation n`` (True: each opens the proof of a ``Program`` declaration's
    obligation), ``Solve [All] Obligations ... with tac`` (False: the tactic solves them), None for any
    other sentence: ``Obligation Tactic`` (replayed by ``Require``, measured) and ``Admit Obligations``
    stay refused. Unsolved obligations leave the declaration undefined (coqc fails at the file's end)."""
    words = sentence.words[sentence.command_at : sentence.command_at + 3] or ("",)
    if words[:2] == ("Next", "Obligation") or (words[0] == "Obligation" and words[1:2] and words[1].isdigit()):
        return True
    return False if words[0] == "Solve" and "Obligations" in words[1:] else None


def _hit(sentence: Sentence) -> Rule | None:
    if sentence.command == "Ltac" and any(t.kind is Kind.SYMBOL and "::=" in t.text for t in sentence.tokens):
        return _RULES["Ltac ::="]
    if sentence.command == "Ltac2" and second_word(sentence) == "Set":
        return _RULES["Ltac2 Set"]
    if sentence.command == "Ltac2" and "external" in sentence.words:
        return _RULES["Ltac2 @ external"]
    if any(a.text == "where" and b.kind is Kind.STRING for a, b in pairwise(sentence.tokens)):
        return _RULES['where "..." :=']
    attributes = sentence.tokens[: sentence.command_at]  # `#[...]` groups and `Local`-style prefixes
    if localities(sentence) > 1:
        return _RULES["locality twice"]
    if any(t.kind is Kind.WORD and t.text in REGISTERING_ATTRIBUTES for t in attributes):
        return _RULES["#[canonical]/#[instance]/#[coercion]"]
    if sentence.command == "Add" and second_word(sentence) in INSTANCE_ADDS:
        return _RULES["Add Relation/Setoid/Morphism/Zify"]
    if _writes_universes(sentence):
        return _RULES['Print Universes "file"']
    return _reduction_hit(sentence, {t.text for t in attributes if t.kind is Kind.WORD})


REGISTERING_ATTRIBUTES: Final = frozenset({"canonical", "instance", "coercion", "reversible", "nonuniform"})
"""Attributes that register their declaration with elaboration (``reversible`` and ``nonuniform`` qualify a
coercion), at any depth of a ``#[...]`` group (``#[canonical=yes]``, ``#[program, instance]``)."""


INSTANCE_ADDS: Final = frozenset({"Parametric", "Relation", "Setoid", "Morphism", "Zify"})
"""``Add`` commands whose registration Coq 8.16 replays on ``Require`` (measured): the setoid library's
declare typeclass instances (``Add Parametric Relation ... as r`` declares ``r_Reflexive``...), ``Add
Zify`` extends the tables ``lia`` reads. Accepted in proofs (Coq allows them there), they were ``Instance``
by another spelling. ``Add Ring``/``Add Field`` tables are not replayed by ``Require`` (measured), and
``Add Printing``/``Add Search Blacklist`` only print."""


def _writes_universes(sentence: Sentence) -> bool:
    """``Print [Sorted] Universes [Subgraph (...)] "file"``: coqc 8.16 writes the graph to that file (measured;
    the only query of its grammar with a file name). Without a string it only prints."""
    rest = sentence.tokens[sentence.command_at + 1 :]
    return (
        sentence.command == "Print"
        and any(t.kind is Kind.WORD and t.text == "Universes" for t in rest[:2])
        and any(t.kind is Kind.STRING for t in rest)
    )


def localities(sentence: Sentence) -> int:
    """How many localities ``sentence`` states before its command: the prefixes ``Local``, ``Global`` and
    ``Export`` (before ``Set``/``Unset``, where it is no module) and the words ``local``, ``global``,
    ``export`` at the top level of its ``#[...]`` attributes. coqc 8.16 refuses a sentence with more than
    one (measured: ``#[local] Local Definition``, ``#[local, local] Hint``, ``Local Export Set``)."""
    count, depth, in_attribute = 0, 0, False
    for i, tok in enumerate(sentence.tokens[: sentence.command_at]):
        if tok.text == "#" and i + 1 < sentence.command_at and sentence.tokens[i + 1].text == "[" and depth == 0:
            in_attribute = True
            continue
        if in_attribute:
            depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(tok.text, 0)
            in_attribute = depth > 0
            count += depth == 1 and tok.kind is Kind.WORD and tok.text in ("local", "global", "export")
        elif tok.kind is Kind.WORD and tok.text in ("Local", "Global", "Export"):
            count += 1
    return count


LOCAL: Final = frozenset({"Local", "local"})
EXPORTED: Final = frozenset({"Global", "global", "Export", "export"})


def _reduction_hit(sentence: Sentence, attributes: set[str]) -> Rule | None:
    """A reduction setting in force in the files that ``Require`` the candidate: Coq 8.16 keeps a
    ``Strategy`` that is not ``Local`` (also one written in a proof or a section) and a ``Global``
    ``Opaque``/``Transparent`` in the compiled module and replays it on ``Require``; a plain ``Opaque`` stays
    in the candidate's file (measured with ``Print Strategy`` in a file that only ``Require``s it)."""
    if sentence.command == "Strategy" and not attributes & LOCAL:
        return _RULES["global Strategy"]
    if sentence.command in ("Opaque", "Transparent") and attributes & EXPORTED:
        return _RULES["Global Opaque"]
    return None


def _explicit_using(sentence: Sentence) -> bool:
    """``Proof using ...`` or a ``#[using="..."]`` attribute: the proof's section variables, declared. Not
    ``Proof using All.``: it declares every section variable, so no subproof can use one it leaves out."""
    attributes = sentence.tokens[: sentence.command_at]
    if sentence.words[sentence.command_at :] == ("Proof", "using", "All", "."):
        return False
    return (sentence.command == "Proof" and second_word(sentence) == "using") or any(
        t.kind is Kind.WORD and t.text == "using" for t in attributes
    )


SECTION_USING = "`Proof using` in a section"
"""How G3 names an explicit declaration of a proof's section variables inside a section."""


def section_using_hits(sentences: Sequence[Sentence], own: frozenset[int]) -> list[Violation]:
    """The candidate's own sentences (``own`` indexes ``sentences``) that declare a proof's section
    variables inside a section (the candidate's or the challenge's), and ``Set Default Proof Using``
    anywhere (it declares them for every later proof): rocq#19861."""
    hits: list[Violation] = []
    sections: list[str] = []  # the open sections' names: `End M` of a module inside one closes none
    for i, sent in enumerate(sentences):
        if sent.command == "Section":
            sections.append(second_word(sent))
        elif sent.command == "End" and second_word(sent) in sections:
            del sections[len(sections) - 1 - sections[::-1].index(second_word(sent)) :]
        elif i not in own:
            continue
        elif sections and _explicit_using(sent):
            hits.append(Violation(sent.line, SECTION_USING, _RULES["Proof using (in a section)"].reason))
        elif sent.command in ("Set", "Unset") and sent.words[sent.command_at + 1 : sent.command_at + 4] == (
            "Default",
            "Proof",
            "Using",
        ):
            hits.append(Violation(sent.line, "`Default Proof Using`", _RULES["Default Proof Using"].reason))
    return hits


def sentence_rule_hits(sentences: Sequence[Sentence], kinds: frozenset[str] | None = None) -> list[Violation]:
    """Each sentence that one of ``policy.sentence_rules`` refuses, with its line and reason (only the rules
    of ``kinds``, ``plugin``, ``kernel``..., when given)."""
    found = [(s, rule) for s in sentences if (rule := _hit(s)) is not None]
    return [
        Violation(s.line, f"`{rule.construct}`", rule.reason)
        for s, rule in found
        if kinds is None or rule.rule in kinds
    ]


ABSTRACTING = frozenset({"abstract", "transparent_abstract"})
"""Tactics that declare a global constant, under the name their ``using`` clause gives."""


def tactic_declared_names(sentence: Sentence) -> list[tuple[int, str]]:
    """(line, name) of each word after a ``using`` that an abstracting tactic of the same bracket group
    precedes. Coq reads ``abstract tac using name`` (``transparent_abstract`` alike, 8.16's
    ``plugins/ltac/g_ltac.mlg`` and ``extratactics.mlg``) with ``tac`` one whole tactic expression, its
    brackets balanced, so the clause stands in the group ``abstract`` stands in; a ``using`` in a group no
    abstracting word opens, as in ``abstract (eauto using x)``, names hints, not a constant (measured: the
    constant is ``<owner>_subproof``). Where a tactic takes the ``using`` itself in the same group
    (``abstract eauto using x`` is ``abstract (eauto using x)``), the word still counts: a name of its own is
    never refused. Brackets that do not pair up leave no groups to read: then every ``using`` counts."""
    tokens = sentence.tokens
    if not any(t.kind is Kind.WORD and t.text in ABSTRACTING for t in tokens):
        return []
    every = [(b.line, b.text) for a, b in pairwise(tokens) if a.text == "using" and b.kind is Kind.WORD]
    groups: list[tuple[str, bool]] = [("", False)]  # (the closing bracket, an abstracting word seen in it)
    named: list[tuple[int, str]] = []
    for a, b in pairwise(tokens):
        if a.text in OPENING:
            groups.append((OPENING[a.text], False))
        elif a.text in OPENING.values():
            if len(groups) == 1 or groups.pop()[0] != a.text:
                return every
        elif a.kind is Kind.WORD and a.text in ABSTRACTING:
            groups[-1] = (groups[-1][0], True)
        elif a.text == "using" and b.kind is Kind.WORD and groups[-1][1]:
            named.append((b.line, b.text))
    return named if len(groups) == 1 else every


def declares_given_names(sentence: Sentence) -> bool:
    """An abstracting tactic whose name is computed, not written: in a tactic definition (``Ltac``,
    ``Ltac2``, ``Tactic Notation``: its call sites, ``mk RInt.``, name the constant), from ``fresh`` (``let n
    := fresh "RInt" in ... using n``), from a variable the sentence binds before its ``using`` (a hypothesis
    ``H`` matched by ``match goal`` is bound to the hypothesis's name), or from an Ltac2 value: Ltac2's
    ``Control.abstract`` takes the name as one, and an ``ltac1:(n |- ... using n)`` quotation is handed it.
    Red team 34: ``intros pred. match goal with [ H : nat |- _ ] => clear H; transparent_abstract ... using H
    end`` and Ltac2's ``Ident.of_string "pred"`` declared ``pred`` in a ``Defined`` helper, and the
    statement's ``pred`` was the candidate's constant, on the text profile."""
    words = sentence.words
    if any(w.endswith(".abstract") for w in words):
        return True
    named = tactic_declared_names(sentence)
    computed = (
        sentence.command in ("Ltac", "Ltac2")
        or second_word(sentence) == "Notation"
        or "fresh" in words
        or any(w.startswith(("ltac1", "Ltac1.")) for w in words)
        or any(_bound_before(sentence, line, name) for line, name in named)
    )
    return computed and bool(named)


def _bound_before(sentence: Sentence, line: int, name: str) -> bool:
    """Whether ``name`` (after a ``using`` on ``line``) is written before that ``using`` in ``sentence``: a
    variable the sentence binds there, whose value is the name (a constant's name cannot occur before it is
    declared; a repeated literal is sent to the statement check, which costs only that)."""
    tokens = sentence.tokens
    at = next(i for i, (a, b) in enumerate(pairwise(tokens)) if a.text == "using" and (b.line, b.text) == (line, name))
    return any(t.kind is Kind.WORD and t.text == name for t in tokens[:at])


MUTUAL: frozenset[str] = THEOREM_COMMANDS | {"Fixpoint", "CoFixpoint"}
"""Declarations whose ``with`` blocks declare more constants (``Lemma a : A with b : B.``)."""


def mutual_names(sentence: Sentence) -> list[str]:
    """The names after each ``with`` of a mutual declaration that no ``match`` opened (a ``match ... with``
    in a type or body names a pattern, not a declaration)."""
    if sentence.command not in MUTUAL:
        return []
    names: list[str] = []
    matches = 0
    tokens = sentence.tokens
    for tok, after in pairwise(tokens[sentence.command_at :]):
        if tok.text == "match":
            matches += 1
        elif tok.text == "with" and matches:
            matches -= 1
        elif tok.text == "with" and after.kind is Kind.WORD:
            names.append(after.text)
    return names


MUTUAL_THEOREM: Final = next(r for r in POLICY.recursion_words if r.construct == "Lemma ... with ...")


def mutual_theorem_hits(sentences: Sequence[Sentence]) -> list[Violation]:
    """Theorem commands with ``with`` blocks: Coq proves them as one mutual fixpoint, which no recursion
    word spells (red team 16: rocq#20455's ``False`` as ``Lemma a ... with b ...`` passed G3 and was
    accepted on ``fast``, where the candidate's kernel terms are not read). A rolled-back one declares
    nothing."""
    rule = MUTUAL_THEOREM
    return [
        Violation(s.line, f"`{rule.construct}`", rule.reason)
        for s in sentences
        if s.command in THEOREM_COMMANDS and not rolled_back(s) and mutual_names(s)
    ]
