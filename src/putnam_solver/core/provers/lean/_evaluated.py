"""G3, the terms Lean runs in its interpreter while elaborating a proof: a tactic configuration's values
and Mathlib's ``trace e``.

Red team 27. Every core tactic configuration is read by an elaborator that ``declare_config_elab`` makes
(leanprover/lean4 src/Lean/Elab/Tactic/Config.lean, ``mkConfigElaborator``): it elaborates the items
``(opt := v)`` and ``(config := v)`` into one structure instance and then evaluates it with
``Meta.evalExpr' (safety := .unsafe)``, i.e. compiles and runs it, unsafe code allowed. Mathlib's
``apply (config := cfg) e`` (Mathlib/Tactic/ApplyWith.lean, ``unsafe evalTerm``) and Aesop's
``(options := ...)`` clauses do the same. So ``simp (maxSteps := unsafeBaseIO (do IO.eprintln (← IO.FS.readFile
p); pure 100000))`` runs arbitrary code, which reads the machine's files and prints them in the compile's
messages, like ``include_str`` (refused since trust-path red team 8) and ``#eval``; the text profile accepted it,
since the value holds no forbidden word.

What G3 reads: an item ``( NAME := value )`` that Lean may read as a configuration item (``NAME`` may be a
field path, ``toConfig.maxSteps``: ``expandField`` in src/Lean/Elab/Tactic/Config.lean resolves a hierarchical
name through parent structures and structure-valued fields; red team 29), namely one whose
name is ``config``, ``options`` or ``simp_options`` (the names of a whole configuration), or one of a chain
of items (``(a := x)``, ``+a``, ``-a``) right after a tactic word of :data:`CONFIG_TACTICS` (the tactics that
take ``optConfig``, src/Init/Tactics.lean ``syntax optConfig := (colGt configItem)*``, and Mathlib's). Its
value must be inert: numerals, strings, ``true``/``false``/``none``/``some``, a leading-dot constructor (``.all``),
arithmetic, lists, a structure instance of such values that names its fields (``{ decide := true }``) or a
``by`` block given for one option (quoted as syntax, ``Unhygienic.run `(tacticSeq| ...)``, not run; red team
29: given for a whole configuration, ``(options := by exact c)``, it is elaborated into the term ``c``, which
Aesop's ``elabOptions`` then runs like any other value). A name (a helper's or the
library's) is refused there: what it computes would run; so is a leading-dot name that the file declares
(red team 29: ``.zzN`` is ``Nat.zzN`` for a ``Nat`` option, and a helper ``def Nat.zzN``, which G2 leaves to
G6 on the full profile, is run like any name), and so is ``none``, ``some``, ``true`` or ``false`` where the file
declares it (a root ``def none : ℕ`` overloads ``Option.none``, which core exports, and Lean elaborates the
one whose type fits: checked on Lean 4.35). Round 44: those constructors may also be written by their
full names, ``Bool.true``, ``Bool.false``, ``Option.none``, ``Option.some`` (BFS-Prover-V2's published
``simp (config := {decide := Bool.true})`` was refused), under the same condition: a name the file declares
that ends in ``true`` (``def Foo.Bool.true`` with ``open Foo``, or ``namespace Foo`` around the proof) is
what Lean may resolve ``Bool.true`` to, so the file's own last name parts are checked as for ``true``; any
other qualified name stays refused. Items whose value is a tactic or names
(:data:`NOT_EVALUATED`: ``(disch := tac)``...) are no configuration items, and named arguments of a function
(``foo (x := h)``) follow no tactic word, so neither is read.

Also the grind option ``trace`` (``grind +trace``): ``useSorry``, true by default, "when ``trace := true``,
uses ``sorry`` to close unsolved branches" (src/Init/Grind/Config.lean), a hole by configuration; the
``trace`` rule below refuses it with Mathlib's tactic.

Mathlib's ``trace e`` tactic (Mathlib/Tactic/Trace.lean: ``unsafe evalExpr String ... (toString e)``, then
``logInfo``) runs ``e`` and prints its value; core's ``trace "msg"`` (src/Init/Tactics.lean, a string literal)
runs nothing. So ``trace`` as a name of its own followed by a term is refused (not a string literal, nor
``:``, ``)``, ``,``... after a binder or field named ``trace``) where a tactic may stand
(``_tactic_position``: after ``by``, ``;``, ``<;>``, first on a tactic line...). Round 28: in a term's place
(after ``:=``, ``exact``, ``rw [``, ``=``, as an argument) it is a function applied, ``Matrix.trace A`` after
``open Matrix``, which runs nothing; that was refused in published proofs. A place read wrongly is taken for
a tactic's (fail closed). Mathlib's ``success_if_fail_with_msg msg tacs`` (Mathlib/Tactic/
SuccessIfFailWithMsg.lean, ``unsafe Term.evalTerm String``) runs ``msg`` likewise: only a string literal may
follow it where a tactic may stand.

Red team 29: Mathlib's SAT certificates, the term ``from_lrat cnf lrat`` and the command ``lrat_proof NAME
cnf lrat`` (Mathlib/Tactic/Sat/FromLRAT.lean: ``unsafe evalTerm String`` of each argument), run their two
arguments likewise: only string literals may follow them (both are keywords wherever they stand), as in
Mathlib's own examples. :data:`LITERAL_ARGUMENTS` holds the words whose arguments must be literals.

Red team 32: Mathlib's ``pi_lower_bound [a, b, ...]`` and ``pi_upper_bound [...]`` (Mathlib/Analysis/Real/Pi/
Bounds.lean, in every Mathlib since 2024: ``unsafe Meta.evalExpr ℚ q(ℚ)`` of each item) run each item of their
list to read a rational, so ``pi_lower_bound [zzQ]`` ran the candidate's ``def zzQ : ℚ`` unread: their items
must be numerals with arithmetic, as in Mathlib's own proofs (``pi_lower_bound [338 / 239, 704 / 381]``;
:data:`NUMERAL_LISTS`).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import Final

from putnam_solver.core.provers.lean._tactic_position import TACTIC_ITEMS, TacticPlaces
from putnam_solver.core.provers.lean.syntax import (
    DECLARATION_KEYWORDS,
    DOC,
    IDENT,
    NUMBER,
    STRING,
    SYMBOL,
    Token,
    name_parts,
    normalize_name,
    positions,
)

VALUE_CONSTRUCT: Final = "(option := value)"
VALUE_REASON: Final = (
    "a tactic configuration is compiled and run by Lean's interpreter while the proof elaborates "
    "(`declare_config_elab`: `evalExpr'` with unsafe code allowed), so its values may only be literals "
    "(numbers, `true`/`false`, `.constructor`, `{ field := literal }`): a name there runs its code, which "
    "can read the machine's files"
)
WHOLE_NAMES: Final = frozenset({"config", "options", "simp_options", "simp_config"})
"""Item names that give a whole configuration (core's ``(config := ...)``, Aesop's ``(options := ...)`` and
``(simp_options := ...)``, ``(simp_config := ...)``): read wherever they stand."""
CONFIG_TACTICS: Final = frozenset(
    {"simp", "simp_all", "dsimp", "simpa", "simp_arith", "simp_all_arith", "simp_wf", "decide", "native_decide",
     "omega", "grind", "lia", "cutsat", "rw", "rewrite", "rwa", "erw", "rw_mod_cast", "nth_rw", "nth_rewrite",
     "simp_rw", "exact", "apply", "refine", "unfold", "delta", "ac_nf", "ac_rfl", "bv_decide", "bv_normalize",
     "bv_omega", "solve_by_elim", "apply_rules", "apply_assumption", "try", "ext", "congr!", "convert",
     "convert_to", "norm_num", "norm_num1", "linarith", "nlinarith", "positivity", "polyrith", "ring_nf",
     "ring1", "ring", "abel_nf", "abel", "abel1", "field_simp", "push_cast", "norm_cast", "exact_mod_cast",
     "gcongr", "bound", "fun_prop", "continuity", "measurability", "aesop", "aesop_cat", "fin_cases",
     "interval_cases", "compute_degree", "monicity", "cancel_denoms", "push_neg", "subst_vars", "split",
     "split_ifs", "cases", "induction", "fun_induction", "fun_cases", "cbv", "reduce", "whnf", "conv",
     "exact?", "apply?", "rw?", "hint", "mod_cases", "plausible", "slim_check", "order", "module",
     "match_scalars", "tauto", "itauto", "says", "filter_upwards", "mvcgen", "mspec", "cc", "mono",
     "move_add", "generalize_proofs", "lift_lets", "extract_lets", "simp_intro", "zify", "qify", "rify",
     "subsingleton", "finiteness", "nontriviality", "ext1", "apply_fun", "reduce_mod_char", "peel", "norm_cast0",
     "unfold_let", "omega_nat", "decreasing_tactic",
     "refine'", "constructor", "infer_instance", "rcases", "obtain", "intro", "intros", "first", "repeat"}
)  # fmt: skip
"""Tactic words a configuration item may follow (as written, or with their marks ``?``/``!`` taken off):
core's and Mathlib's tactics whose syntax has ``optConfig`` or ``(config)?`` (src/Init/Tactics.lean,
src/Std/Tactic/Do/Syntax.lean ``mvcgen``, Mathlib/Tactic/*), and more; after a word that takes none Lean
refuses the item, so an extra word costs only a refused non-literal named argument right after it, where a
term can stand (``congr`` is also a root theorem, so only ``congr!`` is listed)."""
NOT_EVALUATED: Final = frozenset({*TACTIC_ITEMS, "rule_sets"})
"""Items of that shape whose value is a tactic or names, not a term Lean runs: ``(disch := tac)`` and
``(discharger := tac)`` (core's ``discharger``, which ``valConfigItem`` excludes by ``notFollowedBy``),
Mathlib's ``linear_combination (norm := tac)`` and Aesop's ``(rule_sets := [Name])``."""
_INERT_WORDS: Final = frozenset({"true", "false", "none", "some", "by"})
_INERT_QUALIFIED: Final = frozenset({("Bool", "true"), ("Bool", "false"), ("Option", "none"), ("Option", "some")})
"""Core's constructors of :data:`_INERT_WORDS` by their full names (``Bool.true``)."""
_INERT_SYMBOLS: Final = frozenset({"(", ")", "{", "}", "[", "]", ",", ":=", "+", "-", "*", "/", "^", "%", "."})
_PAIRS: Final = {"(": ")", "[": "]", "{": "}"}


TRACE_CONSTRUCT: Final = "trace e"
TRACE_REASON: Final = (
    "Mathlib's `trace e` (and `success_if_fail_with_msg e`, `from_lrat a b`, `lrat_proof n a b`) runs `e` in "
    "Lean's interpreter while elaborating: only string literals may follow, as in core's `trace \"literal\"`; "
    "`pi_lower_bound [..]` and `pi_upper_bound [..]` run each item: only numerals with arithmetic (`338 / 239`); "
    "`grind +trace` closes what it cannot prove with `sorry`; write `Matrix.trace A` for the matrix trace"
)


def evaluated_traces(tokens: Sequence[Token]) -> list[Token]:
    """Every ``trace`` name token that may be Mathlib's tactic or ``grind``'s option set on: followed by a
    code token that is neither a string literal nor one that ends a binder, field or argument (``trace :
    ℕ``, ``(x := trace)``), or glued after ``+`` (``+trace``), or set to anything but ``false``."""
    if not any(word in _joined(tokens) for word in ("trace", *LITERAL_ARGUMENTS, *NUMERAL_LISTS)):
        return []  # the usual case, decided in C (no Python step per token)
    code = [t for t in tokens if t.kind != DOC]
    found = []
    places = _Places()
    for i, token in enumerate(code):
        parts = name_parts(token.text)
        if token.kind != IDENT or len(parts) != 1 or (parts[0] != "trace" and parts[0] not in _RUN_ARGUMENTS):
            continue
        if parts[0] in NUMERAL_LISTS:  # a keyword wherever it stands, like `from_lrat`
            if not _numeral_list(code, i):
                found.append(token)
            continue
        if parts[0] in LITERAL_ARGUMENTS:  # `success_if_fail_with_msg msg tacs` runs `msg`, `from_lrat` both
            tactic_only = parts[0] == "success_if_fail_with_msg"  # a keyword where a tactic stands only
            if not _literal_arguments(code, i, parts[0]) and (not tactic_only or places.get(code).may_be_tactic(i)):
                found.append(token)
            continue
        glued = i > 0 and code[i - 1].text in ("+", "-") and not token.spaced
        nxt = code[i + 1] if i + 1 < len(code) else None
        if glued:
            refused = code[i - 1].text == "+"
        elif nxt is None:
            refused = True
        elif nxt.text == ":=":
            refused = i + 2 >= len(code) or code[i + 2].text != "false"
        else:  # a function applied in a term's place (`rw [trace A]`, `= trace A`) is no tactic
            refused = nxt.kind != STRING and nxt.text not in _AFTER_A_NAME and places.get(code).may_be_tactic(i)
        if refused:
            found.append(token)
    return found


LITERAL_ARGUMENTS: Final = {"success_if_fail_with_msg": 1, "from_lrat": 2, "lrat_proof": 2}
"""Words whose next arguments (after ``lrat_proof``'s theorem name) Lean runs in its interpreter: each must
be a string literal."""


NUMERAL_LISTS: Final = frozenset({"pi_lower_bound", "pi_upper_bound"})
"""Words followed by a bracketed list whose items Lean runs in its interpreter to read rationals (``unsafe
Meta.evalExpr ℚ``): each item must be numerals with arithmetic."""
_RUN_ARGUMENTS: Final = frozenset({*LITERAL_ARGUMENTS, *NUMERAL_LISTS})
_NUMERAL_SYMBOLS: Final = frozenset({",", "(", ")", "+", "-", "*", "/", "^"})


def _numeral_list(code: Sequence[Token], i: int) -> bool:
    """Whether ``code[i]`` is followed by ``[ ... ]`` holding only numerals, arithmetic and commas: what the
    interpreter then runs is the library's own arithmetic on literals (``OfNat``, ``HDiv`` of ``ℚ``)."""
    if i + 1 >= len(code) or code[i + 1].text != "[":
        return False
    for token in code[i + 2 :]:
        if token.text == "]":
            return True
        if token.kind != NUMBER and token.text not in _NUMERAL_SYMBOLS:
            return False
    return False  # never closed


def _literal_arguments(code: Sequence[Token], i: int, word: str) -> bool:
    """Whether the arguments of the word at ``code[i]`` (:data:`LITERAL_ARGUMENTS`) are all string literals."""
    start = i + 1 + (word == "lrat_proof")  # `lrat_proof NAME cnf lrat` names its theorem first
    arguments = code[start : start + LITERAL_ARGUMENTS[word]]
    return len(arguments) == LITERAL_ARGUMENTS[word] and all(t.kind == STRING for t in arguments)


_AFTER_A_NAME: Final = frozenset(
    {":", ")", "]", "}", "⟩", ",", "=>", "|", ";", "=", "≠", "<", ">", "≤", "≥", "∧", "∨", "→", "↔", "*", "/",
     "^", "∣", "∈", "∉", "⊆", "⊂", "∘", "•", "+", "%", "∩", "∪", "×", "|>", "<|", "|>.", "$", "⁻¹"}
)  # fmt: skip
"""Tokens after which ``trace`` is a binder, a field, an argument or an operand (no term begins with them),
never a tactic taking a term."""


def evaluated_values(tokens: Sequence[Token]) -> list[Token]:
    """The name token of every configuration item whose value is not inert (see the module's text).
    Linear: brackets are matched once; each item's chain is judged from the item before it (memoised);
    a value judged inert is not read again for the items inside it."""
    texts = list(map(itemgetter(1), tokens))
    if not any(j > 1 and texts[j - 2] == "(" and tokens[j - 1].kind == IDENT for j in positions(texts, ":=")):
        return []  # no item at all: the usual case, decided with a Python step per `:=` only
    code = [t for t in tokens if t.kind != DOC]
    match = _matches(code)
    chained: dict[int, bool] = {}  # an item's `(` -> whether its chain follows a tactic word
    found: list[Token] = []
    checked_to = -1  # the end of the last value found inert (the items inside it hold only literals)
    places = _Places()
    declared = _Declared(code)
    for i, token in enumerate(code):
        if token.text != "(" or i + 2 >= len(code) or code[i + 2].text != ":=" or code[i + 1].kind != IDENT:
            continue
        end = match.get(i)
        name = normalize_name(code[i + 1].text)  # `(toConfig.maxSteps := v)`: a field path (red team 29)
        if end is None or not name or name in NOT_EVALUATED:
            continue
        chained[i] = name in WHOLE_NAMES or _after_tactic(code, i, match, chained, places)  # a whole one starts a chain
        if i < checked_to or not chained[i]:
            continue
        if not _inert(code, i + 3, end, quoted=name not in WHOLE_NAMES, declared=declared):
            found.append(code[i + 1])
        elif code[i + 3].text != "by":
            checked_to = end
    return found


class _Declared:
    """The last name parts of the declarations the file makes (a name after a declaration keyword; a
    ``where`` or ``let rec`` one is named under its parent's), found once and only if a leading-dot name
    needs them: ``(maxSteps := .zzN)`` resolves ``.zzN`` in the namespace of the option's type, ``Nat.zzN``,
    which a helper may declare (``def Nat.zzN``, or ``def zzN`` inside ``namespace Nat``); Lean then runs it
    like any other name."""

    def __init__(self, code: Sequence[Token]) -> None:
        self.code = code
        self.found: frozenset[str] | None = None

    def names(self) -> frozenset[str]:
        if self.found is None:
            code = self.code
            heads = [j + 1 for j, t in enumerate(code[:-1]) if t.text in DECLARATION_KEYWORDS]
            self.found = frozenset(name_parts(code[j].text)[-1] for j in heads if code[j].kind == IDENT)
        return self.found


class _Places:
    """Where tactics may begin (``_tactic_position``), found once per file and only if an item needs it."""

    def __init__(self) -> None:
        self.found: TacticPlaces | None = None

    def get(self, code: Sequence[Token]) -> TacticPlaces:
        if self.found is None:
            self.found = TacticPlaces(code)
        return self.found


def _joined(tokens: Sequence[Token]) -> str:
    """The tokens' texts joined by line breaks: a substring search there finds whether a word can occur."""
    return "\n".join(map(itemgetter(1), tokens))


def _matches(code: Sequence[Token]) -> dict[int, int]:
    """Each ``(``, ``[``, ``{`` with the index of the bracket closing it, and each closing one with the
    index of its opener (a bracket closed by another kind matches nothing)."""
    match: dict[int, int] = {}
    stack: list[int] = []
    for j, token in enumerate(code):
        text = token.text
        if text in _PAIRS:
            stack.append(j)
        elif text in (")", "]", "}") and stack:
            start = stack.pop()
            if _PAIRS[code[start].text] == text:
                match[start], match[j] = j, start
    return match


def _after_tactic(
    code: Sequence[Token], i: int, match: dict[int, int], chained: dict[int, bool], places: _Places
) -> bool:
    """Whether the item opened at ``code[i]`` ends a chain of items (``(a := x)``, glued ``+a``/``-a``)
    that follows a tactic word of :data:`CONFIG_TACTICS` (the item before it already judged), or holds a
    ``+a`` glued after a space (``tac +a``: the form of ``posConfigItem``, src/Init/Tactics.lean; a sum is
    written ``x + a`` or ``x+a``), whatever word it follows."""
    j = i - 1
    while j >= 0:
        token = code[j]
        if token.kind == IDENT and j > 0 and code[j - 1].text in ("+", "-") and not token.spaced:
            if code[j - 1].text == "+" and code[j - 1].spaced:
                return True  # `+a`: a configuration item
            j -= 2  # `-a` (also a negation: `f -a`)
            continue
        if token.text == ")":
            start = match.get(j)
            return start is not None and chained.get(start, False)
        if token.kind == IDENT and (token.text in CONFIG_TACTICS or token.text.rstrip("?!") in CONFIG_TACTICS):
            return True
        return places.get(code).may_be_tactic(j)  # red team 28: any word where a tactic stands, and `dsimp%`
    return False


def _inert(code: Sequence[Token], start: int, end: int, quoted: bool, declared: _Declared) -> bool:
    """Whether ``code[start:end]`` (an item's value) holds only literals: see the module's text. A value
    that is a ``by`` block is ``quoted`` for one option (``elabConfig``), never for a whole configuration."""
    if start < end and code[start].text == "by" and quoted:
        return True  # `(opt := by tacs)` is quoted as syntax (`elabConfig`), not run
    for j in range(start, end):
        token = code[j]
        if token.kind in (NUMBER, STRING) or token.text in _INERT_WORDS or _qualified_inert(token):
            if token.kind == IDENT and name_parts(token.text)[-1] in declared.names():  # a root `def true`
                return False  # (an overload of the exported constructor, which Lean picks where its type
            continue  # fits) or a `Foo.Bool.true` that `Bool.true` may resolve to
        if token.kind == SYMBOL and token.text in _INERT_SYMBOLS:
            continue
        if token.kind == IDENT and code[j - 1].text == "." and not token.spaced and _leading(code, j - 1):
            if declared.names().isdisjoint(name_parts(token.text)):
                continue  # `.all`: a constructor of the field's type (not `(e).f`, a function of `e`)
            return False  # red team 29: `.zzN` is `Nat.zzN` where the candidate declares it (a name run)
        if token.kind == IDENT and j + 1 < end and code[j + 1].text == ":=" and code[j - 1].text in ("{", ","):
            continue  # a field the structure instance names
        return False
    return True


def _qualified_inert(token: Token) -> bool:
    """Whether ``token`` names one of core's inert constructors in full (``Bool.true``, ``«Bool».true``), not
    as a field of something before it (``x.Bool.true`` has more parts; ``(e).Bool.true`` is no name token)."""
    return token.kind == IDENT and tuple(name_parts(token.text)) in _INERT_QUALIFIED


def _leading(code: Sequence[Token], dot: int) -> bool:
    """Whether the ``.`` at ``dot`` begins a leading-dot name (``.all``) rather than a field access."""
    return code[dot].spaced or code[dot - 1].text in (":=", "(", "[", ",", "{")
