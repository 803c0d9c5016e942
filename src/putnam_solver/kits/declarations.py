"""Declarations of a prover's installed library, read from its source files as text (never run).

The ranked library search (``library_index``) indexes what a person reading the sources would see of
each declaration: its qualified name, its statement (the text between the name and ``:=`` or the end of
the sentence) and the doc comment right before it. Reading text rather than asking the prover (Rocq's
``Print``, Lean's environment) keeps the index independent of a running toolchain and cheap to build,
at a known cost: declarations made by functor application or ``Include`` (Rocq's ``Nat.add_comm`` comes
from ``NZAdd``'s generic ``add_comm``) and by Lean metaprograms are found under the name written in the
source, not under every name the prover gives them.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.kits.lean_additive import additive_text, translated_name

MAX_STATEMENT_CHARS = 600
MAX_DOC_CHARS = 400
MAX_SOURCE_BYTES = 4_000_000
"""Source files larger than this are skipped (none of a standard library is; a generated file may be)."""


@dataclass(frozen=True)
class Declaration:
    """One declaration as the sources write it: ``name`` qualified by module and namespaces."""

    name: str
    kind: str
    statement: str
    doc: str
    path: str
    line: int

    def render(self) -> str:
        """One search hit, as the model sees it."""
        doc = f"  -- {self.doc}" if self.doc else ""
        return f"{self.kind} {self.name} {self.statement}{doc}\n    ({self.path}:{self.line})"


_ROCQ_KINDS = (
    "Lemma|Theorem|Fact|Remark|Corollary|Proposition|Definition|Fixpoint|CoFixpoint|Inductive|CoInductive"
    "|Record|Structure|Variant|Class|Instance|Let|Program\\s+Definition|Program\\s+Fixpoint"
)
_ROCQ_DECL = re.compile(
    r"^[ \t]*(?:#\[[^\]\n]*\][ \t]*)?(?:(?:Local|Global|Polymorphic|Monomorphic)\s+)*"
    rf"(?P<kind>{_ROCQ_KINDS})\s+(?P<name>[A-Za-z_][\w']*)(?P<rest>[^\n]*)",
    re.M,
)
_ROCQ_SCOPE = re.compile(
    r"^[ \t]*(?:(?P<open>Module(?:\s+Type)?)\s+(?:(?:Import|Export)\s+)?|End\s+)(?P<name>[A-Za-z_][\w']*)", re.M
)
_ROCQ_SENTENCE_END = re.compile(r"\.(?:\s|$)")
_COMMENT = re.compile(r"\(\*.*?\*\)", re.S)


def rocq_module(path: Path, root: Path) -> str:
    """The logical name of a ``.v`` file: ``theories/Arith/PeanoNat.v`` is ``Coq.Arith.PeanoNat``, a file
    of ``user-contrib/mathcomp/ssreflect/ssrnat.v`` is ``mathcomp.ssreflect.ssrnat``."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(("Coq", *parts) if root.name == "theories" else parts)


def rocq_declarations(text: str, module: str, label: str) -> Iterator[Declaration]:
    """The declarations of one ``.v`` file, qualified by ``module`` and the ``Module``s around them."""
    events = sorted(
        [(m.start(), "scope", m) for m in _ROCQ_SCOPE.finditer(text)]
        + [(m.start(), "decl", m) for m in _ROCQ_DECL.finditer(text)],
        key=lambda e: e[0],
    )
    stack: list[str] = []
    lines = _Lines(text)
    for start, what, match in events:
        if what == "scope":
            if match.group("open"):
                end = _ROCQ_SENTENCE_END.search(text, match.end())
                if ":=" not in text[match.end() : end.start() if end else len(text)]:  # not ``Module M := F X.``
                    stack.append(match.group("name"))
            elif stack and stack[-1] == match.group("name"):
                stack.pop()
            continue
        end = _ROCQ_SENTENCE_END.search(text, match.end("name"))
        sentence = text[match.end("name") : end.start() if end else len(text)]
        statement = _statement(_COMMENT.sub(" ", sentence).split(":=", 1)[0])
        yield Declaration(
            ".".join([module, *stack, match.group("name")]),
            " ".join(match.group("kind").split()),
            statement,
            _doc_before(text, start, "(**", "*)"),
            label,
            lines.number(start),
        )


_LEAN_KINDS = "theorem|lemma|def|abbrev|instance|structure|class|inductive|axiom|opaque|alias"
_LEAN_DECL = re.compile(
    r"^(?:(?P<attributes>@\[[^\]]*\])\s*)?(?:(?:private|protected|noncomputable|nonrec|partial|unsafe)\s+)*"
    rf"(?P<kind>{_LEAN_KINDS})\s+(?P<name>⟨[^⟩]*⟩|[^\s:({{\[⦃]+)",
    re.M,
)
_LEAN_SCOPE = re.compile(r"^(?:(?P<open>namespace)|end)[ \t]+(?P<name>[^\s]+)[ \t]*$", re.M)
_LEAN_STATEMENT_END = re.compile(r":=|\bwhere\b|^\s*\|", re.M)
_LEAN_COMMENT = re.compile(r"--[^\n]*|/-.*?-/", re.S)
_LEAN_BLOCK_COMMENT = re.compile(r"/-.*?-/", re.S)
_LEAN_ALIAS_TARGET = re.compile(r"\s*:=\s*(?P<target>[^\s]+)")


def lean_module(path: Path, root: Path) -> str:
    """The module of a ``.lean`` file: ``Mathlib/Algebra/Group/Basic.lean`` is ``Mathlib.Algebra.Group.Basic``."""
    return ".".join(path.relative_to(root).with_suffix("").parts)


def lean_declarations(text: str, module: str, label: str) -> Iterator[Declaration]:
    """The declarations of one ``.lean`` file, qualified by the ``namespace``s around them (``module`` is
    where they live, not part of a Lean name). Beside what is written: the names ``@[to_additive]`` and
    ``@[to_dual name]`` add (``lean_additive``: ``add_comm`` beside ``mul_comm``), and each name of an
    ``alias`` with its target's statement when the file states it. A line inside a block comment
    (``/- ... lemma in the proof ... -/``) declares nothing."""
    comments = [(m.start(), m.end()) for m in _LEAN_BLOCK_COMMENT.finditer(text)]
    events = sorted(
        [(m.start(), "scope", m) for m in _LEAN_SCOPE.finditer(text) if not _inside(comments, m.start())]
        + [(m.start(), "decl", m) for m in _LEAN_DECL.finditer(text) if not _inside(comments, m.start())],
        key=lambda e: e[0],
    )
    stack: list[str] = []
    lines = _Lines(text)
    statements: dict[str, str] = {}
    for start, what, match in events:
        if what == "scope":
            names = match.group("name").split(".")
            if match.group("open"):
                stack.extend(names)
            elif stack[-len(names) :] == names:
                del stack[-len(names) :]
            continue
        doc = _doc_before(_LEAN_ATTRIBUTES.sub("", text[max(0, start - 3000) : start].rstrip()), None, "/--", "-/")
        line, kind = lines.number(start), match.group("kind")
        for name, statement in _lean_named(text, match, stack, statements):
            statements[name] = statements[name.rpartition(".")[2]] = statement
            yield Declaration(name, kind, statement, doc, label, line)
            twin = translated_name(match.group("attributes") or "", name)
            if twin is not None:
                said = additive_text(statement) if twin.additive else statement
                yield Declaration(twin.name, kind, said, twin.doc or doc, label, line)


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` lies in one of the sorted, disjoint ``spans``."""
    at = bisect.bisect_right(spans, offset, key=lambda span: span[0]) - 1
    return at >= 0 and offset < spans[at][1]


def _lean_named(text: str, match: re.Match[str], stack: list[str], statements: dict[str, str]) -> list[tuple[str, str]]:
    """The qualified names one declaration makes, each with its statement: an ``alias``'s names
    (``alias ⟨mp, mpr⟩ := foo_iff`` makes two; ``_`` none) with ``:= target`` and the target's statement
    if the file stated it; any other declaration its one name with the text up to its ``:=``."""
    written = match.group("name")
    if match.group("kind") == "alias":
        target = _LEAN_ALIAS_TARGET.match(text, match.end("name"))
        if target is None:
            return []
        aimed = target.group("target")
        stated = statements.get(_lean_qualified(aimed, stack)) or statements.get(aimed, "")
        statement = _statement(f"{stated} := {aimed}")
        names = [n.strip() for n in written.strip("⟨⟩").split(",")] if written.startswith("⟨") else [written]
        return [(_lean_qualified(n, stack), statement) for n in names if n and n != "_"]
    end = _LEAN_STATEMENT_END.search(text, match.end("name"))
    statement = _statement(_LEAN_COMMENT.sub(" ", text[match.end("name") : end.start() if end else len(text)]))
    return [(_lean_qualified(written, stack), statement)]


def _lean_qualified(name: str, stack: list[str]) -> str:
    return name.removeprefix("_root_.") if name.startswith("_root_.") else ".".join([*stack, name])


_LEAN_ATTRIBUTES = re.compile(r"@\[[^\]]*\]\s*$")


class _Lines:
    """Line numbers of increasing offsets in one text, counted once (declarations come in order)."""

    def __init__(self, text: str) -> None:
        self._text, self._offset, self._line = text, 0, 1

    def number(self, offset: int) -> int:
        self._line += self._text.count("\n", self._offset, offset)
        self._offset = offset
        return self._line


def _doc_before(text: str, start: int | None, opening: str, closing: str) -> str:
    """The doc comment (``(** ... *)``, ``/-- ... -/``) that ends right before ``text[start]`` (the end of
    ``text`` for None), with only layout between; empty when there is none."""
    before = text[max(0, start - 3000) : start].rstrip() if start is not None else text
    if not before.endswith(closing):
        return ""
    opened = before.rfind(opening)
    if opened < 0 or closing in before[opened + len(opening) : -len(closing)]:
        return ""
    return _doc(before[opened + len(opening) : -len(closing)])


def _statement(text: str) -> str:
    return " ".join(text.split())[:MAX_STATEMENT_CHARS]


def _doc(text: str) -> str:
    return " ".join(text.split())[:MAX_DOC_CHARS]


def library_declarations(roots: tuple[Path, ...], suffix: str) -> Iterator[Declaration]:
    """Every declaration of the ``suffix`` files (``.v``, ``.lean``) under ``roots``, in a stable order.

    Only regular files are read (no links followed out of a root), each under a size cap; a file that
    cannot be read is skipped, as a search over sources would skip it."""
    reader = rocq_declarations if suffix == ".v" else lean_declarations
    namer = rocq_module if suffix == ".v" else lean_module
    for root in roots:
        if not root.is_dir():
            continue
        for path in sorted(root.rglob(f"*{suffix}")):
            try:
                if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_SOURCE_BYTES:
                    continue
                text = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            label = f"{root.name}/{path.relative_to(root).as_posix()}"
            yield from reader(text, namer(path, root), label)
