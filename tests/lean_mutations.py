"""A mutation generator over the published Lean proofs the text profile accepts (red team 19).

Each operator is one attack class of DESIGN §7 that G1-G3 must stop, written several ways; each spelling is
put at every insertion point found from the file's own structure: top-level sites (after the header,
before the theorem, between its docstring and the theorem, between helpers, after a comment, at the end),
tactic sites inside the main proof (after a tactic line, inside a ``have``, a ``match``/``induction`` arm,
a ``calc`` step, a ``·`` bullet, and glued after an inline ``by``) and the slots of small helper templates
(``where``, ``match`` arm, ``calc`` step, ``decreasing_by``, ``termination_by``, ``let rec``). Statement
operators edit the theorem itself. Valid operators (comments, docstrings, blank lines, a harmless helper,
``open ... in`` a helper, a heartbeat option) go to the same sites and must still be accepted: they show a
site is real code, where an attack is an attack.

The mutants are deterministic: ``mutants(file)`` yields them in a fixed order from the file's bytes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from putnam_solver.core.provers.lean._lexer import lex
from tests.helpers import REPO
from tests.lean_mutation_spellings import ATTACKS, TEMPLATES, VALID, VALID_FILL

CORPUS = REPO / "tests" / "fixtures" / "conformance"


@dataclass(frozen=True)
class Mutant:
    file: str
    problem_id: str
    operator: str
    site: str
    spelling: str
    text: str
    attack: bool

    @property
    def key(self) -> str:
        return f"{self.file}|{self.operator}|{self.site}|{self.spelling[:60]!r}"


@cache
def accepted_files() -> tuple[dict[str, Any], ...]:
    """Manifest entries of Lean proofs expected accepted on ``text/with-answer``, in manifest order."""
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    return tuple(
        e
        for e in manifest["entries"]
        if e["prover"] == "lean" and e["expected"]["text/with-answer"]["verdict"] == "accepted"
    )


# ---------------------------------------------------------------------------------------------------------
# Sites


@dataclass(frozen=True)
class Sites:
    command: dict[str, int]  # site name -> offset of a line start (insert `text\n`)
    prefix: dict[str, int]  # site name -> offset of the theorem's first token (insert `text\n`)
    tactic: dict[str, tuple[int, str]]  # site name -> (line start offset, indentation)
    inline: dict[str, int]  # site name -> offset right after an inline `by ` (insert `text; `)
    theorem: tuple[int, int]  # offsets of the theorem keyword and of its `:=`


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def _is_code_offset(tokens: list[Any], offset: int) -> bool:
    return not any(t.offset < offset < t.end for t in tokens)


@cache
def sites(file: str, problem_id: str) -> Sites:
    text = (CORPUS / file).read_text(encoding="utf-8")
    tokens = lex(text)
    code = [t for t in tokens if t.kind not in ("comment", "doc")]
    th = next(i for i, t in enumerate(code) if t.text == "theorem" and code[i + 1].text == problem_id)
    theorem = code[th]
    depth, assigns = 0, []
    for k in range(th, len(code)):
        t = code[k]
        if t.text in ("(", "[", "{", "⟨", "⦃"):
            depth += 1
        elif t.text in (")", "]", "}", "⟩", "⦄"):
            depth -= 1
        elif t.text == ":=" and depth == 0:
            assigns.append(t)
            if k + 1 < len(code) and code[k + 1].text == "by":
                break
    assert assigns
    assign = assigns[-1]  # the proof's `:=` (a `let ... :=` in the statement comes before it)
    command: dict[str, int] = {}
    doc = next((t for t in reversed(tokens) if t.end <= theorem.offset and t.kind != "comment"), None)
    first = doc if doc is not None and doc.kind == "doc" else theorem
    command["before_theorem"] = _line_start(text, first.offset)
    if first is not theorem:
        command["after_docstring"] = _line_start(text, theorem.offset)
    header = [t for t in code if t.col == 0 and t.text in ("import", "open") and t.offset < first.offset]
    if header:
        command["after_header"] = text.find("\n", header[0].offset) + 1
    helpers = [t for t in code if t.col == 0 and t.offset < first.offset and t.text in _DECL_STARTS]
    for name, t in (("before_first_helper", helpers[:1]), ("before_last_helper", helpers[-1:])):
        for h in t:
            start = _helper_start(tokens, h)
            if start not in command.values():
                command[name] = start
    comments = [t for t in tokens if t.kind == "comment" and t.col == 0 and t.offset < first.offset]
    if comments:
        command["after_comment"] = text.find("\n", comments[0].end - 1) + 1
    # a site inside a namespace or section closed before the theorem: scope-local commands there reach only
    # the helpers (DESIGN §3, closed sections and namespaces), so they are no attack on the statement
    scopes = [t for t in code if t.col == 0 and t.text in ("namespace", "section", "end") and t.offset < first.offset]
    for name, at in list(command.items()):
        opened = sum((t.text != "end") - (t.text == "end") for t in scopes if t.offset < at)
        if opened > 0:
            command[f"{name}_in_scope"] = command.pop(name)
    prefix = {"theorem_prefix": command["before_theorem"]}
    tactic, inline = _proof_sites(text, tokens, assign.end)
    return Sites(command, prefix, tactic, inline, (theorem.offset, assign.offset))


_DECL_STARTS = frozenset({"theorem", "lemma", "def", "abbrev", "noncomputable", "private", "@[", "instance"})


def _helper_start(tokens: list[Any], head: Any) -> int:
    before = [t for t in tokens if t.end <= head.offset]
    return before[-1].offset if before and before[-1].kind == "doc" else head.offset


_CONT = re.compile(r"(:=|\bby|=>|,|\(|\[|\{|⟨|·|<;>|\bfrom|\bthen|\belse|\bwith|\bat|←|→|[=<>+*/^-])\s*$")
_NEXT_CONT = re.compile(r"^(_|\||<;>|\)|\]|\}|⟩|at\b|with\b|using\b|then\b|else\b|[=<>+*/^·-])")
_TAGS = (
    ("have", re.compile(r"^\s*(have|obtain|suffices)\b")),
    ("arm", re.compile(r"^\s*\|.*=>\s*$")),
    ("calc", re.compile(r"^\s*(calc|_)\b")),
    ("bullet", re.compile(r"^\s*·")),
)


_OPENS_TACTICS = re.compile(r"(\bby|=>)\s*$")


def _in_tactic_block(lines: list[tuple[int, str]], k: int, indent: int) -> bool:
    """Whether ``lines[k]`` stands in a tactic block: one of the lines at its indentation up to it (deeper
    ones between them skipped, no shallower one) follows a line that opens tactics (ending in ``by`` or a
    non-``fun`` ``=>``, or a ``·`` bullet). Lines at one column may also be a term's arguments, one per line
    (``foo`` then ``(a := x)`` then ``(b := y)``), where a tactic inserted is no valid mutation: Lean ends
    the term there and the tactic sequence fails its column check."""
    for j in range(k, -1, -1):
        line = lines[j][1]
        depth = len(line) - len(line.lstrip(" "))
        if not line.strip() or depth > indent:
            continue
        if line.lstrip().startswith("· ") and depth + 2 == indent:
            return True  # a bullet whose tactics stand at this column
        if depth < indent:
            return False
        opener = next((above.strip() for _, above in reversed(lines[:j]) if above.strip()), "")
        if opener.startswith("·") or (
            _OPENS_TACTICS.search(opener) and not (opener.endswith("=>") and re.search(r"\b(fun|λ)\b", opener))
        ):
            return True
    return False


def _proof_sites(text: str, tokens: list[Any], start: int) -> tuple[dict[str, tuple[int, str]], dict[str, int]]:
    """Tactic sites after the theorem's `:=`: a line start whose previous line is a finished tactic at
    the same indentation, tagged by the nearest less-indented line above it; inline `by tac` sites."""
    tactic: dict[str, tuple[int, str]] = {}
    inline: dict[str, int] = {}
    lines, offset = [], start
    for line in text[start:].split("\n"):
        lines.append((offset, line))
        offset += len(line) + 1
    for k in range(1, len(lines) - 1):
        (_, prev), (off, line) = lines[k], lines[k + 1]
        indent = len(line) - len(line.lstrip(" "))
        if not prev.strip() or not line.strip() or indent == 0 or "\t" in line:
            continue
        if len(prev) - len(prev.lstrip(" ")) != indent or _CONT.search(prev) or _NEXT_CONT.match(line.lstrip()):
            continue
        if prev.lstrip().startswith(("--", "/-")) or not _is_code_offset(tokens, off):
            continue
        if not _in_tactic_block(lines, k, indent):
            continue
        tag = "main"
        for _, above in reversed(lines[:k]):
            above_indent = len(above) - len(above.lstrip(" "))
            if above.strip() and above_indent < indent:
                tag = "main" if above_indent == 0 else next((n for n, r in _TAGS if r.match(above)), "block")
                break
        tactic.setdefault(f"tactic_{tag}", (off, " " * indent))
    for m in re.finditer(r":= by (?=[a-z])", text[start:]):
        at = start + m.end()
        if _is_code_offset(tokens, at):
            inline.setdefault("inline_by", at)
    return tactic, inline


# ---------------------------------------------------------------------------------------------------------
# Statement operators: each edits the theorem's statement (between `theorem` and its `:=`) once.

_LOOKALIKE = str.maketrans({"a": "а", "p": "р"})  # Cyrillic a and er


def _blank(statement: str) -> str:
    """``statement`` with its comments and strings blanked (same length): an edit there is no edit."""
    out = list(statement)
    for t in lex(statement):
        if t.kind not in ("ident", "number", "symbol"):
            out[t.offset : t.end] = " " * (t.end - t.offset)
    return "".join(out)


def _statement_edits(statement: str, name: str) -> Iterator[tuple[str, str]]:
    head = f"theorem {name}"
    rest = statement[len(head) :]
    yield "rename_prime", f"theorem {name}' {rest}"
    yield "rename_suffix", f"theorem {name}_1{rest}"
    yield "rename_lookalike", f"theorem {name.translate(_LOOKALIKE)}{rest}"
    yield "rename_namespace", f"theorem Mut.{name}{rest}"
    yield "private_theorem", f"private {statement}"
    yield "lemma_keyword_private", f"private lemma {name}{rest}"
    yield "namespace_wrap", f"namespace Mut\n{statement}"
    yield "universe_parameters", f"theorem {name}.{{u}}{rest}"
    yield "add_hypothesis", f"{head} (mut_hF : False){rest}"
    yield "add_instance_binder", f"{head} [Fact (1 = 2)]{rest}"
    code = _blank(statement)[len(head) :]  # where to look: the statement's code, not its comments
    binder = re.search(r"\((?:h\w*|\w+) : [^()]*\)", code)
    if binder:
        yield "drop_hypothesis", head + rest[: binder.start()] + rest[binder.end() :]
    for op, pattern, new in (
        ("numeral", r"(?<![\w.])(\d+)(?![\w.])", lambda m: str(int(m.group(1)) + 1)),
        ("real_to_rat", r"ℝ", lambda m: "ℚ"),
        ("nat_to_int", r"ℕ", lambda m: "ℤ"),
        ("le_to_lt", r"≤", lambda m: "<"),
        ("lt_to_le", r"(?<![<-])<(?![-=;])", lambda m: "≤"),
        ("forall_to_exists", r"∀", lambda m: "∃"),
        ("exists_to_forall", r"∃(?!!)", lambda m: "∀"),
        ("eq_to_ne", r"(?<![:=<>≠!])=(?![=>])", lambda m: "≠"),
        ("and_to_or", r"∧", lambda m: "∨"),
        ("explicit_to_implicit", r"\((\w+ : [^()]*)\)", lambda m: "{" + m.group(1) + "}"),
    ):
        found = list(re.finditer(pattern, code))
        for m in found[:1] + found[-1:] if len(found) > 1 else found:
            where = "first" if m is found[0] else "last"
            yield f"{op}_{where}", head + rest[: m.start()] + new(m) + rest[m.end() :]
    quantifiers = re.search(r"∀ (\w+) (\w+)( :|,)", code)
    if quantifiers:
        a, b = quantifiers.group(1), quantifiers.group(2)
        at = quantifiers.start()
        yield "swap_quantifier_order_type", head + rest[:at] + f"∀ {b} {a}" + rest[at + len(f"∀ {a} {b}") :]


# ---------------------------------------------------------------------------------------------------------
# The generator


def _insert(text: str, at: int, new: str) -> str:
    return text[:at] + new + text[at:]


SCOPE_LOCAL = ("open ", "variable ", "include ", "omit ", "attribute [local ", "local instance ")
"""Commands whose effect ends with the enclosing namespace or section (``export`` does not; a ``local
instance`` does, and G2 accepts one in a block closed before the theorem)."""


def _command_mutants(text: str, s: Sites, spellings: tuple[str, ...], attack: bool) -> Iterator[tuple[str, str, str]]:
    for site, at in s.command.items():
        for sp in spellings:
            if site.endswith("_in_scope") and sp.startswith(SCOPE_LOCAL) and " in\n" not in sp:
                continue
            # Lean reads a docstring as part of the declaration that follows it: only a declaration or a
            # comment may stand between the theorem's docstring and the theorem
            if attack or site != "after_docstring" or sp.startswith(_DOC_FOLLOWERS):
                yield site, sp, _insert(text, at, sp + "\n")
    for sp in spellings:
        # after the theorem's proof additions are judged as before it, but nothing there reaches the
        # statement: an `open` (any form), a local notation, instance or attribute and section variables are
        # in force for later commands only and are not exported, so they are no attack there; a comment is
        # the valid addition sampled
        if (attack and not sp.startswith(AFTER_THEOREM_HARMLESS)) or sp.startswith(("--", "/- ")):
            yield "end_of_file", sp, text.rstrip("\n") + "\n\n" + sp + "\n"


_DOC_FOLLOWERS = ("--", "/- ", "theorem", "example")
AFTER_THEOREM_HARMLESS = ("open ", "local notation", "local infix", "local prefix", "local postfix", "local instance")
AFTER_THEOREM_HARMLESS += ("variable ", "include ", "omit ", "attribute [local ")


def _tactic_mutants(text: str, s: Sites, spellings: tuple[str, ...], attack: bool) -> Iterator[tuple[str, str, str]]:
    for site, (at, indent) in s.tactic.items():
        for sp in spellings:
            yield site, sp, _insert(text, at, indent + sp.replace("\n", "\n" + indent) + "\n")
    for site, at in s.inline.items():
        for sp in spellings:
            if "\n" not in sp and not sp.startswith(("--", "/-")):
                yield site, sp, _insert(text, at, sp + "; ")
    at = s.command["before_theorem"]
    for template, body in TEMPLATES.items():
        for sp in spellings if attack else (VALID_FILL,):
            if sp.startswith("#"):
                continue
            indent = re.search(r"\n( *)\{T\}", body)
            assert indent is not None
            filled = body.replace("{T}", sp.replace("\n", "\n" + indent.group(1)))
            yield f"template_{template}", sp, _insert(text, at, filled + "\n\n")


def mutants(entry: dict[str, Any]) -> Iterator[Mutant]:
    """Every mutant of one corpus file, attacks and valid ones, in a fixed order."""
    file, pid = entry["file"], entry["problem_id"]
    text = (CORPUS / file).read_text(encoding="utf-8")
    s = sites(file, pid)

    def make(operator: str, site: str, spelling: str, new: str, attack: bool) -> Mutant:
        return Mutant(file, pid, operator, site, spelling, new, attack)

    for operator, kinds in ATTACKS.items():
        for site, sp, new in _command_mutants(text, s, kinds["C"], True):
            yield make(operator, site, sp, new, True)
        for site, sp, new in _tactic_mutants(text, s, kinds["T"], True):
            yield make(operator, site, sp, new, True)
        for sp in kinds.get("I", ()):
            yield make(operator, "theorem_prefix", sp, _insert(text, s.prefix["theorem_prefix"], sp + "\n"), True)
    for site, sp, new in _command_mutants(text, s, VALID["C"], False):
        yield make("valid", site, sp, new, False)
    for site, sp, new in _tactic_mutants(text, s, VALID["T"], False):
        yield make("valid", site, sp, new, False)
    for sp in VALID["I"]:
        yield make("valid", "theorem_prefix", sp, _insert(text, s.prefix["theorem_prefix"], sp + "\n"), False)
    start, assign = s.theorem
    for op, statement in _statement_edits(text[start:assign], pid):
        yield make("statement", op, statement[:80], text[:start] + statement + text[assign:], True)


def all_mutants() -> Iterator[Mutant]:
    for entry in accepted_files():
        yield from mutants(entry)


def sample(per_operator_files: int = 3) -> list[Mutant]:
    """A fixed sample: for each operator, every mutant of ``per_operator_files`` files spread over the
    corpus (a different trio per operator, so the sample covers more files than three)."""
    files = accepted_files()
    operators = [*ATTACKS, "valid", "statement"]
    chosen: list[Mutant] = []
    for k, operator in enumerate(operators):
        step = max(1, len(files) // per_operator_files)
        picks = [files[(k + j * step) % len(files)] for j in range(per_operator_files)]
        for entry in picks:
            chosen.extend(m for m in mutants(entry) if m.operator == operator)
    return chosen
