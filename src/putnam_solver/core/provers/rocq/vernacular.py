"""Vernacular that steers tactics or elaboration without stating anything: hints, tactic notations,
options, ``Arguments`` and opacity, judged by what each can reach (G2's classes, see ``checks.py``).

Published proofs use them as boilerplate (``Hint Resolve``, ``Tactic Notation``, ``Set Implicit
Arguments``, ``Unset Printing Implicit Defensive``), so refusing them all under-counts sound proofs. What
each can change, measured with coqc 8.16:

* Hints and tactic notations act on tactics. The statement runs no tactic unless its text asks for one
  (``ltac:(...)``, ``Program`` obligations), so they are harmless (class 1) unless the challenge does, and
  then they pass only where G5 re-elaborates the pinned statement (class 2). A global hint is replayed by
  ``Require`` in the harness's files, where no tactic consults a hint database (:data:`HINT_TACTICS`),
  so it is judged alike before and after the theorem. A hint in
  ``typeclass_instances`` is an instance declaration, which the policy refuses as ``Instance`` is: it
  steers elaboration, and a global hint reaches every file that merely ``Require``s the candidate, the
  harness's answer check (``lia``'s zify resolves instances) included. A ``Tactic Notation`` is not active
  in a file that only ``Require``s the candidate, so it cannot reach the harness's files; a notation whose
  keywords are not identifiers adds tokens to Coq's lexer, which can re-lex the statement (class 2). One
  whose keyword ends in ``.`` is refused: coqc then reads ``zz.`` and the next sentence as one sentence, so
  ``Hint Extern 0 => zz. : typeclass_instances.`` was a hint with a tactic to the gates, its database read
  as a sentence of its own, and an instance to coqc (red team 18).
* Options: those that only steer proof scripts or printing, set for the candidate's file alone, are
  class 1; the implicit-argument family and ``Asymmetric Patterns`` decide how the statement's text
  elaborates (class 2); ``Global``/``Export`` options reach the harness's files and are refused, as is
  every other option.
* ``Implicit Types x y : T`` gives a type to later binders named ``x``/``y`` written without one; it is a
  table of the file being compiled (``reserve_table`` in ``interp/reserve.ml``, filled by a summary entry or
  an object with only a cache function, never loaded from a ``.vo``; read only when a binder is interned), so
  it reaches no file that ``Require``s or ``Import``s the candidate and ends with a section (measured with
  coqc 8.16). Before the theorem it can type the statement's unannotated binders (class 2); after it,
  nothing of the statement is left to read.
* ``Prenex Implicits f g`` (ssreflect) makes the leading implicit arguments of existing constants maximal: it is
  an ``Arguments f {A}`` (8.16's ``plugins/ssr/ssrvernac.mlg`` 140-170, ``Impargs.set_implicits``), judged as
  one. Its locality is ``make_section_locality`` (``vernac/locality.ml`` 61-62): local in a section (it ends
  there), global outside one unless ``Local``, and then kept in the ``.vo`` (``interp/impargs.ml`` 620-621:
  only ``ImplLocal`` is disposed of), so ``Require`` replays it in the harness's files; a ``Global`` one in a
  section outlives it. Measured with coqc 8.16: all four, and Coq runs it in a proof too, its effect
  outliving ``Qed``; ``#[export]`` is refused by coqc. ``Import Prenex Implicits`` is another command
  (``ssrvernac.mlg`` 176-180): ``Unset Printing Implicit Defensive``, printing only (``scan.is_query``).
* ``Arguments``, ``Opaque``, ``Transparent`` and ``Local Strategy`` of the candidate's own definitions cannot
  touch what the statement names (class 1); of anything else they can steer its elaboration (class 2): an
  unfolding order changes no meaning, but which unifier solution is found first. A ``Strategy`` that is
  not ``Local`` is replayed by ``Require`` in the harness's files and refused (G3 too).

``Ltac name ::= ...`` (a redefinition) is G3's (``sentence_rules``): it replaces the tactic in every file
that merely ``Require``s the candidate, the harness's answer check (``lia``, ``lra``, ``nra``) included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from putnam_solver.core.provers.rocq.statement_shape import Statement
from putnam_solver.core.provers.rocq.syntax import Kind, Sentence, Token, rolled_back

HARMLESS: Final = 1
ELABORATING: Final = 2

COMMANDS: Final = frozenset(
    {"Hint", "Create", "Remove", "Tactic", "Set", "Unset", "Arguments", "Opaque", "Transparent", "Strategy"}
    | {"Generalizable", "Add", "Ltac2", "Comments", "Implicit", "Prenex"}
)
"""The commands :func:`classify` judges (``Set Warnings`` stays a query unless :func:`exporting`; of ``Add``
only ``Add Printing`` and ``Add Search``; of ``Implicit`` only ``Implicit Type(s)``; of ``Prenex`` only
``Prenex Implicits``)."""
IN_PROOFS: Final = frozenset(
    {"Hint", "Create", "Remove", "Tactic", "Set", "Unset", "Generalizable", "Add", "Ltac2", "Comments", "Prenex"}
)
"""Those it also judges inside proofs, where Coq accepts them and their effect outlives ``Qed``."""
DEBUG_OPTIONS: Final = frozenset(
    {"Typeclasses Debug", "Typeclasses Debug Verbosity"} | {"Ltac Profiling", "Ltac Batch Debug"}
)
"""Options that make typeclass resolution print its search and change nothing it finds (measured with coqc
8.16: 24 shipped proofs, lia, lra, nra and setoid rewriting among them, elaborate to the same terms with
``Set Typeclasses Debug Verbosity 2``, and a file that ``Require``s the candidate keeps them off). Every other
``Typeclasses`` option or command (``Strict Resolution``, ``Unique Instances``, ``Depth``, ``Iterative
Deepening``, ``Filtered Unification``, ``Opaque``, ``eauto :=``) changes what resolution finds: G3's word.
``Ltac Profiling`` times tactics for ``Show Ltac Profile``, ``Ltac Batch Debug`` makes the Ltac debugger (off
unless ``Ltac Debug``, still refused) read no input: the same terms, and off in a file that ``Require``s the
candidate (measured with coqc 8.16; a ``Global`` one is replayed there, an ``Export`` one by ``Import``)."""
TACTIC_OPTIONS: Final = (
    frozenset(
        {"Bullet Behavior", "Default Goal Selector", "Ltac Backtrace"}
        | {"Suggest Proof Using", "Printing"}
        | {"Hyps Limit", "Nested Proofs Allowed", "Silent", "Search Output Name Only"}
    )
    | DEBUG_OPTIONS
)
"""Options that steer proof scripts, or printing only (``Printing`` covers every ``Printing ...``; ``Hyps
Limit`` how many hypotheses a goal shows, ``Silent`` whether coqc prints, ``Search Output Name Only`` how
``Search`` prints, :data:`DEBUG_OPTIONS` what typeclass resolution prints). ``Nested Proofs Allowed`` lets
a proof open another, which G2 reads as coqc does (a nested proof ends before the outer one goes on:
``scan.take_proof``); the nested declaration is a helper, elaborated after the statement it sits in, or
before the theorem like any other."""
NAMING_OPTIONS: Final = frozenset({"Mangle Names", "Mangle Names Light", "Mangle Names Prefix"})
"""Options that rename the hypotheses a tactic introduces without a name (a proof that used an automatic name
no longer finds it). They steer tactics as a hint does: only a statement that runs tactics can meet them."""
PRINTING_TABLES: Final = frozenset({"Printing", "Search"})
"""``Add``/``Remove Printing If|Let|Record|Constructor`` and ``Add``/``Remove Search Blacklist``: how matches
and records print, what ``Search`` hides. Tables of the candidate's file alone (measured with coqc 8.16: a
file that ``Require``s it prints with the default tables)."""
ELABORATING_OPTIONS: Final = frozenset(
    {"Implicit Arguments", "Strict Implicit", "Strongly Strict Implicit", "Contextual Implicit"}
    | {"Maximal Implicit Insertion", "Reversible Pattern Implicit", "Asymmetric Patterns"}
)
TACTICS_IN_TERMS: Final = frozenset({"ltac", "ltac2", "Program", "Obligation", "Obligations", "Next", "Solve"})
"""Words by which a statement's own text runs tactics while it elaborates."""
INSTANCE_DB: Final = "typeclass_instances"
EXPORTING: Final = frozenset({"Global", "Export", "global", "export"})
_KEYWORD: Final = re.compile(r'"[A-Za-z_][A-Za-z0-9_\']*"')


ROLLED_BACK_SETTING: Final = (
    "`Succeed`/`Fail` roll the setting back: Coq restores its whole state after the sentence, and `Require` "
    "replays nothing of it (measured with coqc 8.16: `Succeed Arguments Rplus : simpl never.`, `Succeed "
    "Global Arguments`, `Succeed Hint`, `Succeed Set Implicit Arguments` leave no trace, also in a file "
    "that loads the candidate)"
)


@dataclass(frozen=True)
class Judgement:
    """The class of a sentence (``HARMLESS``, ``ELABORATING``, or None: refused) and why."""

    kind: int | None
    reason: str


def runs_tactics(statement: Statement) -> bool:
    """Whether the challenge's own text runs tactics while it elaborates (then tactic settings reach it)."""
    return any(t.text in TACTICS_IN_TERMS for s in statement.sentences for t in s.tokens)


def loads_ltac2(statement: Statement) -> bool:
    """Whether the challenge's own ``Require``s load Ltac2 (a candidate cannot: its root is not permitted)."""
    return any(
        s.command in ("Require", "From") and any(w == "Ltac2" or w.startswith("Ltac2.") for w in s.words)
        for s in statement.sentences
    )


def classify(sent: Sentence, defined: set[str], tactics: bool, ltac2: bool) -> Judgement | None:
    """How G2 judges ``sent`` (None when it is none of :data:`COMMANDS`); ``defined`` holds the names the
    candidate declared so far, ``tactics`` whether the challenge runs tactics (:func:`runs_tactics`), ``ltac2``
    whether it loads Ltac2 (:func:`loads_ltac2`)."""
    command, rest = sent.command, sent.words[sent.command_at + 1 : -1]
    if command in COMMANDS and rolled_back(sent):
        return Judgement(HARMLESS, ROLLED_BACK_SETTING)
    if command in ("Add", "Remove") and rest[:1] and rest[0] in PRINTING_TABLES:
        return _printing_table(sent)
    if command == "Generalizable":
        return _generalizable(sent)
    if command == "Add":
        return None  # `Add Ring`, `Add Field`: ``policy.proof_commands_elaborating``; the others are refused
    if command in ("Hint", "Remove") or (command == "Create" and rest[:1] == ("HintDb",)):
        return _tactic_setting("hint", sent, tactics)
    if command == "Tactic" and rest[:1] == ("Notation",):
        return _tactic_setting("tactic notation", sent, tactics)
    if command == "Ltac2":
        return _ltac2(sent, tactics) if ltac2 else Judgement(None, NO_LTAC2)
    if command == "Comments":
        return _comments(rest)
    if command == "Implicit":
        return Judgement(ELABORATING, RESERVED_TYPES) if rest[:1] in (("Type",), ("Types",)) else None
    if command in ("Set", "Unset"):
        return _option(sent, tactics)
    if command == "Strategy" and not local(sent):
        return Judgement(None, GLOBAL_STRATEGY)
    if command == "Prenex" and rest[:1] != ("Implicits",):
        return None
    if command in ("Arguments", "Opaque", "Transparent", "Strategy", "Prenex"):
        if own_constants(sent, defined) and not exporting(sent):
            return Judgement(
                HARMLESS, "it acts only on the candidate's own definitions, which the statement never names"
            )
        return Judgement(ELABORATING, "it changes how other constants elaborate or unfold, which the statement may use")
    return None


LTAC2_DEFINITION: Final = (
    "an Ltac2 definition, type or evaluation acts in Ltac2's own namespace, which no term reads: Coq runs the "
    "same command in a proof and out of one (`register_struct`, classified as a side effect, in 8.16's "
    "`plugins/ltac2/g_ltac2.mlg`), and `Ltac2 Eval` keeps nothing (a query); `Ltac2 Set` and `@ external` are "
    "G3's"
)


NO_LTAC2: Final = (
    "the challenge does not load Ltac2, so coqc reads no `Ltac2` command (a syntax error), and a candidate "
    "cannot load it (its root is not a permitted library): write the tactic in Ltac"
)


def _ltac2(sent: Sentence, tactics: bool) -> Judgement:
    """An ``Ltac2`` command, judged alike in a proof and out of one, since Coq runs it alike: a notation as a
    tactic notation (its keywords are the lexer's), any other entry as a hint is, since a definition can
    shadow a short name an ``ltac2:(...)`` of the challenge calls."""
    if sent.words[sent.command_at + 1 : sent.command_at + 2] == ("Notation",):
        return _tactic_setting("tactic notation", sent, tactics)
    if tactics:
        return Judgement(ELABORATING, "an Ltac2 definition can shadow a tactic the challenge runs while it elaborates")
    return Judgement(HARMLESS, LTAC2_DEFINITION)


RESERVED_TYPES: Final = (
    "it types later binders written without a type, in the candidate's file alone (`Implicit Types` fills "
    "the file's `reserve_table`, read when a binder is interned; coqc 8.16 does not replay it through "
    "`Require` or `Import`)"
)


EXTRA_DEPENDENCY_WORDS: Final = frozenset({"From", "Extra", "Dependency"})
COMMENTS: Final = (
    "`Comments` keeps nothing: coqc 8.16 parses its words and prints `Comments ok` (`vernacentries.ml`), in a "
    "proof as out of one"
)
EXTRA_DEPENDENCY: Final = (
    'coqc 8.16 runs `Comments From lib Extra Dependency "file"` as `From lib Extra Dependency "file"` '
    "(`forward_compat_extra_dependency` in `vernacentries.ml`), which makes the candidate depend on a file of "
    "the machine's; a `Comments` with the words `From`, `Extra` or `Dependency` is refused"
)


def _comments(rest: tuple[str, ...]) -> Judgement:
    """``Comments``, a note for documentation tools, keeps nothing, except its one form that Coq 8.16 reads as
    the command ``From .. Extra Dependency ..`` (a word in parentheses is the same reference to Coq, so any
    of the form's words anywhere refuses it)."""
    if EXTRA_DEPENDENCY_WORDS & set(rest):
        return Judgement(None, EXTRA_DEPENDENCY)
    return Judgement(HARMLESS, COMMENTS)


def _printing_table(sent: Sentence) -> Judgement:
    if exporting(sent):
        return Judgement(None, "a `Global`/`Export` table reaches every file that loads the candidate, the harness's")
    return Judgement(HARMLESS, "the table steers only how the candidate's file prints or searches")


GENERALIZABLE: Final = (
    "a `Global` `Generalizable` is replayed by `Require` in every file that loads the candidate (measured with "
    "coqc 8.16: a backquoted binder `(x : A) generalizes there); write it without `Global`"
)


def _generalizable(sent: Sentence) -> Judgement:
    """``Generalizable All|No Variables``, ``Generalizable Variables x ...``: which free variables a
    backquoted binder (`` `(x = y) ``, `` `{...} ``) may generalize in later text. Before the theorem it can
    change how the statement reads (class 2); after it, nothing is left to read in the candidate's file, and
    a plain or ``Local`` one stays there (measured with coqc 8.16: not replayed by ``Require``)."""
    if exporting(sent):
        return Judgement(None, GENERALIZABLE)
    return Judgement(ELABORATING, "it lets later backquoted binders generalize free variables")


GLOBAL_STRATEGY: Final = (
    "a `Strategy` that is not `Local` is replayed by `Require` in every file that loads the candidate, the "
    "harness's answer check among them (measured with coqc 8.16); write `Local Strategy`"
)
STRATEGY_LEVELS: Final = frozenset({"opaque", "transparent", "expand", "-"})
"""The level words of ``Strategy level [names] ...`` (a level is also a number, or ``-`` and a number)."""


def local(sent: Sentence) -> bool:
    """A ``Local`` prefix or a ``#[local]`` attribute."""
    return any(t.text in ("Local", "local") for t in sent.tokens[: sent.command_at])


def own_constants(sent: Sentence, defined: set[str]) -> bool:
    """Whether an ``Arguments`` (its first word), ``Opaque``/``Transparent`` (every word) or ``Strategy`` (every
    word in its brackets) names only constants the candidate defined. A notation names a constant too
    (``Opaque zz "+".``, ``Local Arguments "+" zz zz0 : rename.`` act on ``Rplus``: red team 29, read as the
    candidate's ``zz`` before), so a string among the names, or any token but a name, counts as another
    constant."""
    tokens = sent.tokens[sent.command_at + 1 : -1]
    if sent.command == "Arguments":
        tokens = tokens[:1]
    if sent.command == "Prenex":
        tokens = tokens[1:]  # the constants after `Implicits`
    if sent.command == "Strategy":
        tokens = tuple(
            t for t in tokens if t.text not in STRATEGY_LEVELS and t.text not in "[]" and not t.text.isdigit()
        )
    return bool(tokens) and all(t.kind is Kind.WORD and t.text in defined for t in tokens)


def _tactic_setting(what: str, sent: Sentence, tactics: bool) -> Judgement:
    if what == "hint" and INSTANCE_DB in sent.words:
        return Judgement(
            None,
            f"a hint in `{INSTANCE_DB}` declares an instance (refused like `Instance`): it changes elaboration, "
            "also in the harness's files that load the candidate",
        )
    if what == "tactic notation" and any(t.text.endswith('."') for t in _grammar_strings(sent)):
        return Judgement(
            None,
            "a tactic notation keyword that ends in `.` makes coqc read it and the next sentence as one, where "
            "the gates read two: the text after it is judged apart from the command it belongs to",
        )
    if what == "tactic notation" and not all(_KEYWORD.fullmatch(t.text) for t in _grammar_strings(sent)):
        return Judgement(ELABORATING, "a tactic notation with a symbol keyword adds a token to Coq's lexer")
    if tactics:
        return Judgement(ELABORATING, f"a {what} steers tactics, and the challenge runs tactics while it elaborates")
    return Judgement(HARMLESS, f"a {what} steers only tactics, and the statement runs none")


def _grammar_strings(sent: Sentence) -> list[Token]:
    """The string tokens of a ``Tactic Notation``'s grammar (before its ``:=``): its keywords."""
    tokens = sent.tokens[sent.command_at + 2 :]
    end = next((i for i, t in enumerate(tokens) if t.text == ":="), len(tokens))
    return [t for t in tokens[:end] if t.kind is Kind.STRING]


def replayed(sent: Sentence, defined: set[str]) -> bool:
    """Whether ``Require`` replays ``sent`` in every file that loads the candidate and it can act there
    (measured with coqc 8.16): an ``Arguments`` of a constant the candidate did not define that is not
    ``Local``. After the theorem such a setting can act nowhere but in those files, the harness's checks
    among them.

    A global hint is replayed too, but acts only on the tactics that consult its database, and none of the
    harness's files runs one after loading the candidate (:data:`HINT_TACTICS`; ``typeclass_instances``,
    which ``rewrite`` and ``lia`` consult, is refused outright): so a hint is judged alike before and
    after the theorem (red team 29: before it a global hint passed, after it the same hint was refused)."""
    attributes = {t.text for t in sent.tokens[: sent.command_at]}
    if rolled_back(sent):
        return False
    if sent.command in ARGUMENTS_LIKE:
        return not attributes & {"Local", "local"} and not own_constants(sent, defined)
    return False


def replayed_before_theorem(sent: Sentence, defined: set[str], in_section: bool) -> bool:
    """Whether ``sent`` is an ``Arguments`` before the theorem that ``Require`` replays in the harness's files
    (:func:`replayed`; in a section only a ``Global`` one, measured with coqc 8.16). Red team 20: the
    statement is G5's to judge, but the answer check runs in such a file: ``Arguments exp _%nat_scope``
    stopped its lemmas about ``exp`` from elaborating, ``Arguments Pos.succ : simpl never`` its ``cbn`` of
    ``INR 4``, ``Arguments sqrt_pos {x}`` its facts about ``sqrt``: a wrong answer to the vacuous
    ``putnam_2013_b2`` was then ``unknown`` and the verdict ``accepted`` instead of ``disputed``."""
    if sent.command not in ARGUMENTS_LIKE or rolled_back(sent):
        return False
    return exporting(sent) if in_section else replayed(sent, defined)


ARGUMENTS_LIKE: Final = frozenset({"Arguments", "Prenex"})
"""Commands that set the implicit arguments of named constants, replayed by ``Require`` unless local."""


HINT_TACTICS: Final = frozenset(
    {"auto", "eauto", "trivial", "easy", "now", "done", "firstorder", "intuition", "dintuition", "dauto"}
    | {"autorewrite", "autounfold", "typeclasses", "rewrite_strat", "info_auto", "info_eauto", "autoapply"}
)
"""Tactics that consult hint databases other than ``typeclass_instances`` (``easy`` and ``now`` run
``trivial``, as ssreflect's ``done`` does; ``intuition`` with no tactic of its own runs ``auto with *``).
No harness file runs one after loading the candidate, ``intuition t`` with a tactic ``t`` aside
(``tests/unit/test_rocq_hint_reach.py``): that is what makes a global hint harmless wherever it stands."""

REPLAYED_ARGUMENTS: Final = (
    "an `Arguments` (or `Prenex Implicits`) of a constant you did not define that is not `Local` (outside a "
    "section) is replayed by "
    "`Require` in every file that loads the candidate, the harness's answer check among them, whose tactics "
    "it can steer (scopes, implicit arguments, `simpl never`); write `Local Arguments`"
)


def exporting(sent: Sentence) -> bool:
    """``Global``/``Export`` or a ``#[global]``/``#[export]`` attribute: the effect reaches other files."""
    return any(t.text in EXPORTING for t in sent.tokens[: sent.command_at])


def resets_profile(sent: Sentence) -> bool:
    """``Reset Ltac Profile.``: it clears the timings ``Show Ltac Profile`` prints, and is not the ``Reset``
    that rewinds the document (its grammar is these three words)."""
    return sent.command_at == 0 and [t.text for t in sent.tokens[1:]] == ["Ltac", "Profile", "."]


def option_name(sent: Sentence) -> str:
    """The option a ``Set``/``Unset``/``Test`` sentence names: its words up to a value (a number, a string)."""
    name = []
    for tok in sent.tokens[sent.command_at + 1 : -1]:
        if tok.kind is not Kind.WORD or tok.text[:1].isdigit():
            break
        name.append(tok.text)
    return " ".join(name)


def _option(sent: Sentence, tactics: bool) -> Judgement:
    option = option_name(sent)
    if exporting(sent):
        return Judgement(None, "a `Global`/`Export` option reaches every file that loads the candidate, the harness's")
    if option in TACTIC_OPTIONS or option.startswith("Printing "):
        return Judgement(HARMLESS, "the option steers only proof scripts or printing, in the candidate's file")
    if option in NAMING_OPTIONS:
        return _tactic_setting("naming option", sent, tactics)
    if option in ELABORATING_OPTIONS:
        return Judgement(
            ELABORATING, "the option decides how the statement's text elaborates (implicit arguments, patterns)"
        )
    return Judgement(None, f"the option `{option}` is not one known to leave the statement alone")
