"""Lean 4 commands: a file's code tokens split into top-level commands, and how tokens compare.

Commands. A file is split into top-level commands at column-0 tokens that can start a command (a
declaration keyword, a modifier, ``@[``, a doc comment, ``open``, ``set_option``, ``#...``); a command whose
tokens so far are only a prefix (doc comment, attributes, modifiers, ``... in``) continues at the next
line. A column-0 word of no list (a library's command keyword) begins a command too, unless Lean may read
it as more of the command before it (``_continuation``), and so does, at any column, what follows a ``/-!``
module doc, and a ``/--`` or ``@[`` where the command takes none (``_doc_breaks``). Lean itself ends a
command at *any* token that can only start a command (``theorem``, ``end``, ``notation``...), wherever it
stands; :func:`body_keywords` reports those so the gates can reject files whose layout would make us see
something else than Lean sees.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, count, pairwise
from operator import itemgetter
from typing import Final

from putnam_solver.core.candidate_cache import candidate_cache
from putnam_solver.core.provers.lean._aesop_clauses import aesop_attributes, aesop_phase_words
from putnam_solver.core.provers.lean._continuation import Depth, continues
from putnam_solver.core.provers.lean._doc_breaks import break_candidates, breaks, module_doc_followers
from putnam_solver.core.provers.lean._glue import bracket_glued
from putnam_solver.core.provers.lean._inner_commands import hash_commands, mutual_candidates
from putnam_solver.core.provers.lean._lexer import _PART, lex, lex_code
from putnam_solver.core.provers.lean._members import begins_member
from putnam_solver.core.provers.lean._more_commands import MORE_COMMANDS
from putnam_solver.core.provers.lean._tokens import DOC, IDENT, NAME, SYMBOL, Token, positions


@candidate_cache
def commands_of(text: str) -> tuple[Command, ...]:
    """``split_commands(code_tokens(lex(text)))``, once per text while it is in use (as :func:`_lex`), each
    ``/-!`` module doc ending a command (:mod:`_doc_breaks`). Raises :class:`LexError`."""
    code = lex_code(text)
    followers = module_doc_followers(lex(text)) if "/-!" in text else frozenset()
    return tuple(split_commands(code, followers | hash_commands(code)))


def name_parts(name: str) -> list[str]:
    """``«foo».bar`` -> ``["foo", "bar"]``: the name Lean means, whatever the escaping."""
    return list(_name_parts(name))


_PART_RE = re.compile(_PART)


@lru_cache(maxsize=4096)
def _name_parts(name: str) -> tuple[str, ...]:
    """:func:`name_parts`, once per name: the gates ask it of every identifier, and names repeat."""
    parts = _PART_RE.findall(name)
    if "«" not in name:  # nothing to unescape (the usual case: no loop in Python)
        return tuple(parts)
    return tuple(p[1:-1] if p.startswith("«") else p for p in parts)


def normalize_name(name: str) -> str:
    return ".".join(name_parts(name))


# ---------------------------------------------------------------------------------------------------------
# Commands

DECLARATION_KEYWORDS: Final = frozenset(
    {"theorem", "lemma", "def", "abbrev", "example", "instance", "axiom", "opaque", "structure", "class",
     "inductive", "coinductive", "irreducible_def"}
)  # fmt: skip
MODIFIERS: Final = frozenset({"private", "protected", "public", "meta", "noncomputable", "unsafe", "partial", "nonrec"})
COMMAND_ONLY_KEYWORDS: Final = DECLARATION_KEYWORDS | frozenset(
    {"import", "prelude", "namespace", "section", "end", "variable", "universe", "include", "omit", "mutual",
     "attribute", "export", "notation", "notation3", "infix", "infixl", "infixr", "prefix", "postfix",
     "macro", "macro_rules", "syntax", "elab", "elab_rules", "declare_syntax_cat", "initialize",
     "builtin_initialize", "deriving", "run_cmd", "run_elab", "run_meta", "alias", "irreducible_def",
     "simproc", "dsimproc", "unif_hint", "add_decl_doc", "library_note", "assert_not_exists",
     "suppress_compilation", "register_simp_attr", "register_option", "binder_predicate",
     # scope and visibility changers, and further core, Batteries, Aesop and Mathlib command keywords
     "local", "seal", "unseal", "with_weak_namespace", "init_quot", "end_local_scope",
     "assert_not_imported", "register_tactic_tag", "tactic_extension", "recommended_spelling",
     "register_error_explanation", "register_builtin_option", "register_label_attr", "docs_to_verso",
     "add_aesop_rules", "erase_aesop_rules", "declare_aesop_rule_sets", "grind_pattern", "proof_wanted",
     "initialize_simps_projections", "mk_iff_of_inductive_prop", "unsuppress_compilation", "recall",
     "compile_inductive", "compile_def", "gen_injective_theorems", "declare_config_elab",
     "declare_command_config_elab", "declare_simp_like_tactic", "test_extern", "whatsnew", "extend_docs",
     # Mathlib's `variables` (Mathlib/Tactic/Basic.lean: warns, then runs `elabVariable`) and `variable?`
     # (Mathlib/Tactic/Variable.lean: extends the scope's variables): a section variable glued to a
     # helper's body would otherwise reach the theorem unseen; more library commands
     "variables", "variable?", "library_note2", "simproc_decl", "dsimproc_decl", "builtin_simproc_decl",
     "builtin_dsimproc_decl",
     # red team 22: core commands (src/Init/Simproc.lean, src/Init/CbvSimproc.lean, src/Init/Grind) that a
     # column-0 split missed: after a helper, `builtin_simproc [simp] p (_) := body` was read as more of
     # the helper's body (Lean lexes `simproc_pattern%` as `simproc_pattern` then `%` here)
     "builtin_simproc", "builtin_dsimproc", "simproc_pattern", "builtin_simproc_pattern", "cbv_simproc_decl",
     "builtin_cbv_simproc_decl", "cbv_simproc_pattern", "builtin_cbv_simproc_pattern", "grind_propagator",
     "builtin_grind_propagator", "init_grind_norm", "reset_grind_attrs", "register_linter_set",
     "declare_uint_theorems", "declare_bitwise_uint_theorems", "declare_int_theorems",
     "declare_bitwise_int_theorems", "register_sym_simp", "register_sym_dsimp", "norm_cast_add_elim",
     "elab_stx_quot", "set_premise_selector", "register_try?_tactic", "grind_annotated", "assert_exists",
     "assert_no_sorry", "aux_def", "register_hint",
     # core Lean 4.35 commands found by reading every word of the toolchain at column 0 after a definition
     # (tests/adversarial/test_lean_column0_words.py), and Mathlib's `unset_option`
     # (Mathlib/Tactic/UnsetOption.lean: erases an option from the scope, `autoImplicit` included)
     "unlock_limits", "deprecated_module", "deprecated_syntax", "unset_option",
     # round 30: Lean ends a command at a command keyword at any column (a term's argument or a tactic
     # cannot begin with one), so one indented after a helper's body is a command; read from every
     # `: command` syntax of Mathlib, Batteries, Aesop, Qq, ProofWidgets and Plausible (those not a `#...`)
     "count_heartbeats", "show_panel_widgets", "declare_aesop_exception", "deprecate", "guard_min_heartbeats",
     "initialize_simps_projections?", "insert_to_additive_translation", "lrat_proof", "name_poly_vars",
     "name_power_vars", "recall?", "to_additive_name_hint", "to_dual_insert_cast", "to_dual_insert_cast_fun",
     "to_dual_name_hint", "theorem_wanted", "def_wanted", "instance_wanted"}
) | MORE_COMMANDS  # fmt: skip
"""Tokens that only ever begin a command: Lean ends the current command wherever one of these appears.
The list cannot be complete (any library may add commands); what it misses, G6 must catch."""
COMBINATORS: Final = frozenset({"open", "set_option"})
"""Tokens that begin a command, or, followed by ``... in``, a term or tactic: inside a declaration only
the ``... in`` form is possible, so a body may contain them only in that form."""
_STARTERS: Final = COMMAND_ONLY_KEYWORDS | MODIFIERS | {"open", "set_option", "@["}
_COLUMN_0_STARTERS: Final = _STARTERS | {"scoped"}
"""Tokens that begin a command when they stand at column 0. ``scoped`` is Lean's ``attrKind`` before
``notation``, ``instance``, ``macro``, ``syntax``... (like ``local``, src/Lean/Parser/Term.lean ``attrKind``)
and Mathlib's ``scoped[NS] cmd`` (Mathlib/Tactic/ScopedNS.lean); it is no command-only word, since it
also stands inside ``open scoped X`` and ``@[scoped simp]`` (red team 22: ``scoped[Real] attribute
[simp] x`` at column 0 was read as more of the header's ``open MeasureTheory``)."""


@dataclass(frozen=True)
class Command:
    """One top-level command: its code tokens, the prefix before its keyword, the keyword and name."""

    tokens: tuple[Token, ...]
    head: int
    """Index of the keyword in ``tokens``; everything before it is the prefix."""
    keyword: str
    name: str | None

    @property
    def line(self) -> int:
        return self.tokens[0].line

    @property
    def prefix(self) -> tuple[Token, ...]:
        return self.tokens[: self.head]

    @property
    def body(self) -> tuple[Token, ...]:
        return self.tokens[self.head :]

    @property
    def docstring(self) -> Token | None:
        return next((t for t in self.prefix if t.kind == DOC), None)


def _starts_command(token: Token) -> bool:
    if token.col != 0:
        return False
    if token.kind == DOC or token.text in _COLUMN_0_STARTERS:
        return True
    return token.kind == SYMBOL and token.text.startswith("#") and len(token.text) > 1


def _combinator_end(tokens: Sequence[Token], i: int, end: int) -> int | None:
    """For ``set_option N V in`` / ``open ... in`` / ``attribute [...] ... in`` at ``i``: the index after
    ``in`` (looked for before ``end``); None when the command is the plain (non-combinator) form or is
    still incomplete."""
    if tokens[i].text == "set_option":
        return i + 4 if i + 3 < end and tokens[i + 3].text == "in" else None
    for j in range(i + 1, end):
        if tokens[j].text == "in":
            return j + 1
    return None


class _HeadScan:
    """:func:`parse_head` of ``tokens[start:end]`` for an ``end`` that only grows, resumed where the last
    call stopped: the items of the prefix that were complete stay so, and a ``@[`` list still open keeps
    its bracket count. So splitting a file into commands reads each token a bounded number of times,
    however many lines a prefix spans (a thousand ``open ... in`` lines, an unclosed ``@[``)."""

    def __init__(self, tokens: Sequence[Token], start: int) -> None:
        self.tokens = tokens
        self.start = start
        self.pos = start
        """The next prefix item to read: everything before it is complete prefix."""
        self.counted = start
        """For the ``@[`` at ``pos``: the tokens before this are counted in ``depth``."""
        self.depth = 0

    def head(self, end: int) -> int | None:
        """Index (relative to ``start``) of the keyword of ``tokens[start:end]``, or None if all prefix."""
        tokens = self.tokens
        while self.pos < end:
            token = tokens[self.pos]
            if token.kind == DOC or token.text in MODIFIERS or _attr_kind(tokens, self.pos, end):
                self.pos += 1
            elif token.text == "@[":
                close = self._list_end(end)
                if close is None:
                    return None
                self.pos = close + 1
            elif token.text in ("set_option", "open", "attribute"):
                after = _combinator_end(tokens, self.pos, end)
                if after is None:
                    return self.pos - self.start
                self.pos = after
            else:
                return self.pos - self.start
        return None

    def _list_end(self, end: int) -> int | None:
        """Index of the ``]`` closing the ``@[`` at ``pos`` (nested ``[``/``@[`` counted), if before ``end``."""
        if self.counted <= self.pos:
            self.counted, self.depth = self.pos, 0
        tokens = self.tokens
        while self.counted < end:
            text = tokens[self.counted].text
            self.counted += 1
            if text in ("[", "@["):
                self.depth += 1
            elif text == "]":
                self.depth -= 1
                if self.depth == 0:
                    return self.counted - 1
        return None


def _attr_kind(tokens: Sequence[Token], i: int, end: int) -> bool:
    """Whether ``tokens[i]`` is the ``local``/``scoped`` (``Term.attrKind``) of a ``grind_pattern`` command
    (core's ``Term.attrKind >> "grind_pattern "``, round 29): a prefix of that command, not one of its own."""
    return tokens[i].text in ("local", "scoped") and i + 1 < end and tokens[i + 1].text == "grind_pattern"


def parse_head(tokens: Sequence[Token]) -> int | None:
    """Skip the prefix (doc comment, attributes, modifiers, ``... in`` combinators); return the index of
    the command's keyword, or None if the tokens are all prefix (the command continues on later lines)."""
    return _HeadScan(tokens, 0).head(len(tokens))


def _make_command(tokens: tuple[Token, ...]) -> Command:
    head = parse_head(tokens)
    if head is None:
        return Command(tokens, len(tokens), "", None)
    keyword = tokens[head].text
    name = None
    if keyword in DECLARATION_KEYWORDS and head + 1 < len(tokens) and tokens[head + 1].kind == IDENT:
        name = tokens[head + 1].text
    return Command(tokens, head, keyword, name)


def split_commands(tokens: Sequence[Token], followers: frozenset[int] = frozenset()) -> list[Command]:
    """Group code tokens into commands (see the module docstring for the rule).

    Only a column-0 token can begin a command, so only those are looked at; commands are slices. A
    column-0 word that no list of ours names begins a command too, unless Lean may read it as more of the
    command before it (:func:`_continuation.continues`): a library's command keyword is never read as a
    helper's body, and as a command of its own G2 refuses it as no permitted addition. So do, at any
    column, a token after a ``/-!`` module doc (``followers``: their offsets) and a ``/--`` or ``@[`` where
    the command's grammar takes none (:mod:`_doc_breaks`)."""
    tokens = tuple(tokens)
    if not tokens:
        return []
    starts = [0]
    head, depth = _HeadScan(tokens, 0), Depth(tokens, 0)
    columns = positions(list(map(_COL, tokens)), 0)  # the column-0 tokens
    candidates = break_candidates(tokens, followers)
    nested = mutual_candidates(tokens, _MUTUAL_STARTERS)
    in_mutual = False
    for i in sorted({*columns, *candidates, *nested}) if candidates or nested else columns:
        if not i:
            continue
        at = head.head(i)
        keyword = None if at is None else tokens[starts[-1] + at].text
        in_mutual = keyword == "mutual" or (in_mutual and keyword != "end")
        if i in nested and (not in_mutual or at is None or _derives(tokens, starts[-1] + at, i)):
            continue
        if i in nested:  # a declaration of the `mutual` block: Lean's `commandParser`, at any column
            starts.append(i)
            head = _HeadScan(tokens, i)
            continue
        if tokens[i].col or tokens[i].offset in followers:
            if breaks(tokens, None if at is None else starts[-1] + at, i, followers):
                starts.append(i)
                head = _HeadScan(tokens, i)
            continue
        if at is None:  # the command so far is all prefix: this is its keyword
            continue
        if _starts_command(tokens[i]):
            if _derives(tokens, starts[-1] + at, i):
                continue
        else:
            if depth.start != starts[-1]:  # made when first needed: most commands begin at a listed word
                depth = Depth(tokens, starts[-1])
            if continues(tokens, i, tokens[starts[-1] + at].text, depth):
                continue
        starts.append(i)
        head = _HeadScan(tokens, i)
    starts.append(len(tokens))
    return [_make_command(tokens[a:b]) for a, b in pairwise(starts)]


_MUTUAL_STARTERS: Final = _STARTERS - COMBINATORS - {"@["}
"""Words that begin a declaration of a ``mutual`` block when first on their line, at any column: Lean reads
the block as ``"mutual" >> many1 (ppLine >> notSymbol "end" >> commandParser) >> ppDedent (ppLine >> "end")``
(leanprover/lean4 src/Lean/Parser/Command.lean, ``«mutual»``), each declaration a command of its own that
ends where the parser stops, whatever its column (src/Lean/Parser/Module.lean, ``parseCommand``). An honest
block indents its declarations; read as one command, each was refused as a layout error. ``open`` and
``set_option`` are left out: first on a line of a body they are the ``... in`` of a term or tactic; so is ``@[``,
which :mod:`_doc_breaks` judges (a ``where`` declaration takes one)."""


_DERIVING_DECLARATIONS: Final = frozenset({"inductive", "structure", "class", "def"})
"""Declarations whose syntax ends in an optional ``deriving A, B`` clause (Lean's ``optDeriving``,
``optDefDeriving``)."""


def _derives(tokens: Sequence[Token], keyword: int, i: int) -> bool:
    """Whether the column-0 ``deriving`` at ``i`` is the trailing clause of the declaration whose keyword
    is at ``keyword``, not a ``deriving instance`` command: Lean reads the clause as part of the
    declaration wherever it stands (checked on Lean 4.35, after a blank line too), so splitting there
    refused a sound helper type and would judge its handlers apart from it."""
    if tokens[i].text != "deriving" or tokens[keyword].text not in _DERIVING_DECLARATIONS:
        return False
    return i + 1 < len(tokens) and tokens[i + 1].kind == IDENT and tokens[i + 1].text != "instance"


_COL: Final = itemgetter(5)
"""``Token.col`` as a function: ``map`` over it runs without a Python frame per token."""


def body_keywords(command: Command) -> list[Token]:
    """Tokens after the command's keyword that Lean would read as the start of another command: every
    command-only keyword, and every ``open`` / ``set_option`` that is not the ``... in`` combinator; also
    such a keyword that ends a name glued to a symbol (:func:`glued_tails`), reported as a token whose
    text is the keyword alone (``→rtheorem`` gives ``theorem``)."""
    body = command.tokens[command.head + 1 :]
    texts = set(map(_TEXT, body))
    glued = set(filter(_may_end_in_keyword, texts))  # few, read one by one
    if _BODY_WATCH.isdisjoint(texts) and not glued:  # the usual case, decided in C loops
        return []
    found = [
        (i, body[i])
        for i in list(compress(count(), map(_BODY_WATCH.__contains__, map(_TEXT, body))))
        if (not begins_member(command.keyword, body, i) if body[i].text in _ENDS_COMMAND else not _scoped_in(body, i))
    ]
    if "unsafe" in texts:  # Aesop's phase word (`aesop (add unsafe r)`, `@[aesop unsafe apply]`) starts no command
        phases = aesop_phase_words(body) | aesop_attributes(body)[0]
        found = [(i, t) for i, t in found if t.offset not in phases]
    for i in list(compress(count(), map(glued.__contains__, map(_TEXT, body)))) if glued else []:
        for tail in glued_tails(body, i, _BODY_WATCH):
            if tail in _ENDS_COMMAND or not _scoped_in(body, i, tail, _GLUED_OPEN_WALK):
                found.append((i, body[i]._replace(text=tail)))
    return [token for _, token in sorted(found, key=itemgetter(0))]


_ENDS_COMMAND: Final = COMMAND_ONLY_KEYWORDS | MODIFIERS
_TEXT: Final = itemgetter(1)
"""``Token.text`` as a function (see ``_COL``)."""
_BODY_WATCH: Final = _ENDS_COMMAND | COMBINATORS
_WATCH_ENDINGS: Final = tuple(sorted(_BODY_WATCH))


@lru_cache(maxsize=1 << 16)
def _may_end_in_keyword(text: str) -> bool:
    """Whether a token with this text could hide a keyword :func:`body_keywords` looks for (once per text)."""
    return text.endswith(_WATCH_ENDINGS) or text.startswith("`")


_READ_ALONE: Final = frozenset("([{⟨⟪⦃⌊⌈⁅‹⟦‖←↑")
"""Symbols read as themselves before a glued name: opening brackets (``⟨hopen, h⟩``), norm bars, and
core's rewrite arrow and coercion (``←hdef``, ``↑hend``), the symbols published proofs glue to names
most (``↑`` and ``‖`` hundreds of times in the conformance corpus); no library token is known to run
from one of them into letters but ``[`` into capitals (Mathlib's ``[MOD``, ``[ZMOD``, ``[PMOD``,
``[SMOD``), which :func:`library_glued` reads apart, and a false rejection there would be common."""


@lru_cache(maxsize=8)
def all_parts(names: tuple[str, ...]) -> frozenset[str]:
    """Every part of every name (the words :func:`glued_names` looks for, for a list of operators)."""
    return frozenset(part for name in names for part in name_parts(name))


def glued_names(tokens: Sequence[Token], i: int, words: Collection[str]) -> list[str]:
    """The names Lean may read at the end of the name at ``tokens[i]`` when a library token takes its head
    (:func:`glued_tails`), for those whose first part is one of ``words`` (primes after it allowed):
    ``→rzz.b`` may be ``→r`` then ``zz.b``; a name literal's whole name too. Empty unless the name is
    glued so (:func:`library_glued`). Time linear in ``words``, whatever the name's length."""
    if not library_glued(tokens, i):
        return []
    parts = name_parts(tokens[i].text)
    if not parts:
        return []
    first, rest = parts[0], parts[1:]
    start = 0 if tokens[i].kind == NAME else 1
    ends = {len(first), len(first.rstrip("'"))}
    found = {k for w in words for end in ends if (k := end - len(w)) >= start and first[k:end] == w}
    return [".".join([first[k:], *rest]) for k in sorted(found)]


def library_glued(tokens: Sequence[Token], i: int) -> bool:
    """Whether the name at ``tokens[i]`` (an identifier or a name literal) is glued to a symbol that a
    library token may extend into it (see :func:`glued_tails`)."""
    token = tokens[i]
    if not i or token.spaced or token.kind not in (IDENT, NAME):
        return False
    before = tokens[i - 1]
    if token.kind == IDENT and bracket_glued(before, token, known_only=True):
        return True  # Mathlib's `[MOD`, `[ZMOD`...: `[MODzz` is `[MOD` then `zz` (see `_glue.bracket_glued`)
    if before.kind != SYMBOL or before.end != token.offset or before.text in _READ_ALONE:
        return False
    return token.kind == NAME or not before.text.isascii()


def glued_tails(tokens: Sequence[Token], i: int, words: Collection[str]) -> list[str]:
    """The ``words`` Lean may read as a token of their own at the end of the name ``tokens[i]`` begins
    with, because the name is glued to the symbol before it. Lean reads the longest token of its table
    first, and imports extend the table (src/Lean/Parser/Basic.lean, ``tokenFnAux``): after a symbol, a
    library token ending in letters (Mathlib's ``→r``, ``↪r``, ``≃o``) takes the head of a glued name, so
    ``→rtheorem`` is ``→r`` then ``theorem``; a token ending in a backquote would take a name literal's
    (``→`sorry``: ``sorry``). An identifier counts only after a non-ASCII symbol (an ASCII bracket glued
    to a name, ``(h_axiom``, is read as itself: no library token runs from one into a name); a name
    literal after any other symbol, and its whole first part counts too (the backquote may be the token's
    end). An opening bracket, ``←`` or ``↑`` is read as itself before either (:data:`_READ_ALONE`)."""
    if not library_glued(tokens, i):
        return []
    token = tokens[i]
    parts = name_parts(token.text)
    if not parts:
        return []
    first = parts[0]
    whole = token.kind == NAME
    return sorted(w for w in words if first.endswith(w) and (len(first) > len(w) or (whole and len(parts) == 1)))


_OPEN_DECL_SYMBOLS: Final = frozenset({"(", ")", ",", "→", "->"})


_GLUED_OPEN_WALK: Final = 64
"""How far :func:`_scoped_in` looks for the ``in`` of an ``open`` hidden in a glued name: ``→ropen a →ropen
a ...`` is one run of names, which a walk from each would read again (quadratic); a real ``open ... in``
names a few namespaces."""


def _scoped_in(tokens: Sequence[Token], i: int, keyword: str | None = None, walk: int | None = None) -> bool:
    """Whether the ``open`` / ``set_option`` at ``i`` is followed by its ``in``: ``set_option N V in``, or
    ``open`` then names (with ``hiding``, ``renaming a → b``, ``(a b)``, ``scoped``) then ``in``. Like
    Lean, the names of an ``open`` must stand right of the ``open`` when they are on a later line.
    ``keyword``: which of the two ends the name at ``i`` (:func:`glued_tails`), if that token is a name;
    ``walk``: how many tokens to read at most (none: to the end of the names)."""
    if (keyword or tokens[i].text) == "set_option":
        return i + 3 < len(tokens) and tokens[i + 3].text == "in"
    opener = tokens[i]
    for j in range(i + 1, len(tokens) if walk is None else min(len(tokens), i + 1 + walk)):  # no slice: see above
        token = tokens[j]
        if token.text == "in":
            return token is not tokens[i + 1]
        later_line = token.line != opener.line and token.col <= opener.col
        is_name = token.kind == IDENT and token.text not in _STARTERS
        if later_line or not (is_name or token.text in _OPEN_DECL_SYMBOLS):
            return False
    return False


_PAIRS: Final = {")": "(", "]": "[", "}": "{", "⟩": "⟨", "⦄": "⦃"}


def balanced(tokens: Sequence[Token]) -> bool:
    """Whether every bracket closes the innermost open one and all are closed (``@[`` opens a ``[``)."""
    stack: list[str] = []
    for token in tokens:
        if token.kind != SYMBOL:
            continue
        if token.text in _PAIRS.values() or token.text == "@[":
            stack.append("[" if token.text == "@[" else token.text)
        elif token.text in _PAIRS and (not stack or stack.pop() != _PAIRS[token.text]):
            return False
    return not stack


def top_level_assign(tokens: Sequence[Token], last: bool = True) -> int | None:
    """Index of the last (or first) ``:=`` outside brackets: where a declaration's value begins."""
    depth, found = 0, None
    for i, token in enumerate(tokens):
        if token.kind != SYMBOL:
            continue
        if token.text in ("(", "[", "{", "⟨", "@[", "⦃", "⟪"):
            depth += 1
        elif token.text in (")", "]", "}", "⟩", "⦄", "⟫"):
            depth -= 1
        elif token.text == ":=" and depth == 0:
            found = i
            if not last:
                return i
    return found
