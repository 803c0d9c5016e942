"""Recall@10 and latency of the agent's library searches for Lean, on the lemmas published Lean proofs use.

The Lean twin of ``retrieval_recall.py`` (whose tally and table it shares). It needs a Mathlib source
tree, which CI does not have, so it runs only by hand: ``--library PATH`` names a directory of library
sources laid out as a Lake project's ``.lake/packages`` is (``mathlib/Mathlib/...``,
``batteries/Batteries/...``): the roots the Lean kit searches and indexes (``LeanKit.library_roots``).

The corpus is the published Lean proofs of the conformance corpus (``tests/fixtures/conformance``: the
PutnamBench proofs under ``lean/`` and the miniF2F and ProofNet proofs in the ``published/`` archives).

- Uses: every identifier in a proof (the text after a theorem's or lemma's ``:=``) that names a
  ``theorem`` or ``lemma`` of the library sources, read as Lean resolves it: as written, else under a
  namespace the file opens (``open Finset`` makes ``sum_comm`` ``Finset.sum_comm``), else a prefix of it
  (``Nat.lt_irrefl.mp``, ``foo.le``). Not a use: a declaration of the file itself, a name the file binds
  (a binder, an ``intro`` / ``obtain`` / ``have`` name: ``hx.le`` is a hypothesis's), a field of a term
  (``(...).symm``), a tactic the library also declares (``by_cases``), a name the index does not know
  (Lean core's ``Init``, when its sources are not in the tree; names a structure's ``@[ext]`` makes):
  these last are counted and printed as unresolved. The index knows the names ``@[to_additive]`` and
  ``alias`` add (``kits.declarations``), so ``add_comm`` and ``mul_pos`` are uses.
- The query: no Lean runs here, so the goal at the use cannot be computed. Its proxy is the nearest
  statement the worker has written down at that point: the innermost enclosing ``have`` / ``obtain`` /
  ``replace`` / ``suffices`` statement or ``calc`` step, a ``show`` / ``change`` before it in its block,
  failing those the theorem's conclusion (its statement after the binders). A use is counted once per
  (lemma, query): the corpus holds some proofs twice (official and with-answer forms).
- Tools, asked with that query: ``regex``: the ``search`` tool (ripgrep over the sources) for
  ``theorem``/``lemma`` lines with the first two head symbols (the library names the query mentions, else
  its operators); ``bm25``: ``find_declarations`` with the query's text; ``bm25-heads``: the same with the
  head symbols only; ``bm25s``: the query's text in bm25s over the same documents and tokens, when it
  is installed.
- A hit: the lemma's short name among the first 10 names the tool answered (as for Rocq).

Printed: the index's build time, size and declarations for the tree; per tool recall@10, unwritable
queries, median / p90 latency; how many uses at least one tool found. The proxy is weaker than a goal
(a ``have``'s statement is the goal only at its first step), so the figures compare the tools.
Measured (1000 uses): the written statements (817) are the better queries, bm25 finding 6 % of their
lemmas against 2.7 % of the 183 queried with the theorem's conclusion.
Usage: ``python bench/retrieval_recall_lean.py --library PATH [--sample N | --all]`` (``--sample``: N
uses spread evenly over the corpus, 200 by default). Without a bootstrapped project, a tree of the pinned
sources does: ``git -C mathlib4 archive <rev> Mathlib | tar -x -C PATH/mathlib``, and Batteries at the
commit Mathlib's ``lake-manifest.json`` names into ``PATH/batteries``.
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from putnam_solver.core.provers.lean.syntax import IDENT, SYMBOL, Token, commands_of, lex_code, top_level_assign
from putnam_solver.kits.declarations import library_declarations
from putnam_solver.kits.library_index import open_index
from putnam_solver.run.agent.toolkit import search_library
from retrieval_recall import CORPUS, K, Results, Use, bm25s_ranker, record, report, short

LEMMA_KINDS = frozenset({"theorem", "lemma", "alias"})
"""Declarations a proof uses as lemmas (an ``alias`` names one in Mathlib but for a few definitions)."""
PROOF_COMMANDS = frozenset({"theorem", "lemma", "example"})
STATEMENTS = frozenset({"have", "obtain", "replace", "suffices"})
"""Tactics that state what they prove after a ``:``."""
GOAL_STATEMENTS = frozenset({"show", "change"})
"""Tactics that restate the goal: it holds for the rest of their block."""
BINDERS = frozenset({"intro", "intros", "rintro", "fun", "λ", "obtain", "with", "have", "let", "set", "replace",
                     "generalizing", "case", "next", "∀", "∃", "∃!", "|"})  # fmt: skip
TACTICS = frozenset({"norm_num", "field_simp", "ring_nf", "push_cast", "simp_all", "exact_mod_cast", "norm_cast",
                     "push_neg", "simp_rw", "interval_cases", "fin_cases", "split_ifs", "by_contra", "by_cases",
                     "linear_combination", "mod_cases", "apply_fun", "simp_arith", "rw_mod_cast", "assumption_mod_cast",
                     "nth_rewrite", "nth_rw", "by_contra!", "all_goals", "any_goals", "filter_upwards",
                     "fun_prop", "native_decide", "exists_intro"})  # fmt: skip
"""Tactics whose names look like lemmas', left out of the unresolved names."""
KEYWORDS = frozenset({"this", "in", "at", "with", "from", "fun", "by", "do", "then", "else", "if", "match", "using"})
"""Words that never name a library lemma in a proof, whatever the library declares under them."""
TACTIC_WORDS = frozenset({"by_cases", "by_contra", "symm", "trans", "congr", "ext", "rfl", "trivial", "absurd",
                          "exfalso",
                          "constructor", "left", "right", "subst", "contradiction", "choose", "use",
                          "lift"})  # fmt: skip
"""Tactics that the library also declares as lemmas (``by_cases``, ``symm``): where a tactic starts,
these are the tactic."""
TACTIC_STARTS = frozenset({"·", ";", "<;>", "by", "=>"})
OPEN = ("(", "[", "{", "⟨", "⦃", "@[")
CLOSE = (")", "]", "}", "⟩", "⦄")
ENDS = frozenset({":=", "by", "from", "at"})
RELATIONS = ("=", "≠", "<", "≤", ">", "≥", "↔", "∣", "∈", "∉", "⊆")
OPERATORS = (*RELATIONS, "+", "-", "*", "/", "^", "%", "∑", "∏", "√", "∫", "⌊", "⌈", "!", "|")
_DECLARED = re.compile(r"\b(?:theorem|lemma)\s+([^\s:({\[⦃]+)")


def lean_texts() -> Iterator[tuple[str, str]]:
    """Every published Lean proof of the conformance corpus: (label, text)."""
    manifest = json.loads((CORPUS / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in manifest["entries"]:
        if entry["prover"] == "lean":
            yield entry["file"], (CORPUS / entry["file"]).read_text(encoding="utf-8")
    published = json.loads((CORPUS / "published" / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in published["entries"]:
        source = published["sources"][entry["source"]]
        if entry["prover"] == "lean" and "archive" in source:
            with zipfile.ZipFile(CORPUS / "published" / source["archive"]) as archive:
                yield f"{entry['source']}:{entry['member']}", archive.read(entry["member"]).decode("utf-8", "replace")


def text_of(text: str, tokens: Sequence[Token]) -> str:
    return " ".join(text[tokens[0].offset : tokens[-1].end].split()) if tokens else ""


def opened(tokens: Sequence[Token]) -> tuple[str, ...]:
    """The namespaces an ``open`` or ``namespace`` command makes names resolve in (``open scoped`` opens
    notation only; a name list, ``hiding`` or ``renaming`` ends the namespaces)."""
    head = tokens[0].text if tokens else ""
    if head == "namespace":
        return tuple(t.text for t in tokens[1:2])
    if head != "open" or (len(tokens) > 1 and tokens[1].text == "scoped"):
        return ()
    names: list[str] = []
    for token in tokens[1:]:
        if token.kind != IDENT or token.text in ("hiding", "renaming", "in"):
            break
        names.append(token.text)
    return tuple(names)


def bound_names(tokens: Sequence[Token], brackets: bool) -> set[str]:
    """Names the text binds: after a binder keyword (``intro x hx``, ``obtain ⟨y, hy⟩``, ``have h``,
    ``fun a b``, ``∀ x``) and, with ``brackets`` (a signature's), before the ``:`` of a bracketed binder
    (``(x y : ℝ)``, ``{n : ℕ}``) outside any other bracket (inside one, and in a proof, that is a type
    ascription: ``(h : (f x : ℝ) = y)``)."""
    found: set[str] = set()
    depth = 0
    for i, token in enumerate(tokens):
        if token.text in BINDERS:
            found.update(_run(tokens, i + 1))
        elif brackets and depth == 0 and token.kind == SYMBOL and token.text in ("(", "{", "⦃", "["):
            run = _run(tokens, i + 1, patterns=False)
            after = i + 1 + len(run)
            if run and after < len(tokens) and tokens[after].text == ":":
                found.update(run)
        depth += (token.text in OPEN) - (token.text in CLOSE)
    return found


def _run(tokens: Sequence[Token], start: int, patterns: bool = True) -> list[str]:
    """The identifiers from ``start`` on, through anonymous-constructor patterns when ``patterns``, up to
    anything else or the end of the line outside a pattern."""
    names: list[str] = []
    depth = 0
    for token in tokens[start:]:
        if depth == 0 and token.line != tokens[start].line:
            break
        if token.kind == IDENT and token.text not in ("with", "at", "by", "from", "fun"):
            names.append(token.text)
        elif patterns and token.text in ("⟨", "("):
            depth += 1
        elif patterns and token.text in ("⟩", ")") and depth:
            depth -= 1
        elif not (patterns and depth and token.text in (",", "|", "-", "@")) and token.text != "_":
            break
    return names


@dataclass(frozen=True)
class Anchor:
    """A statement written in a proof, and the text span (offsets) whose steps it is the nearest to."""

    start: int
    end: int
    statement: str


def anchors(text: str, proof: Sequence[Token]) -> list[Anchor]:
    """The statements of ``proof`` (a theorem's tokens after its ``:=``), each with its reach: a
    ``have``-like statement or a ``calc`` step reaches to the end of its own lines (the next line that
    starts at or left of it), a ``show`` / ``change`` to the end of its block (left of it)."""
    found: list[Anchor] = []
    first = _line_starts(proof)
    starts = sorted(first)
    for i, token in enumerate(proof):
        if token.kind != IDENT:
            continue
        span: tuple[int, int] | None = None
        if token.text in STATEMENTS:
            colon = _colon(proof, i + 1, token)
            span = _statement(proof, colon + 1, token) if colon is not None else None
            if span is None and token.text == "suffices":
                span = _statement(proof, i + 1, token)
        elif token.text in GOAL_STATEMENTS or token.text == "calc":
            span = _statement(proof, i + 1, token)
        elif token.text == "_" and i in first and i + 1 < len(proof) and proof[i + 1].text in RELATIONS:
            span = _statement(proof, i, token)
        if span is None or span[1] <= span[0]:
            continue
        anchor = proof[span[0]] if token.text == "calc" else token
        strict = token.text in GOAL_STATEMENTS
        reach = next(
            (proof[j].offset for j in starts if j >= span[1] and _left_of(proof[j], anchor, strict)),
            len(text),
        )
        found.append(Anchor(proof[span[0]].offset, reach, text_of(text, proof[span[0] : span[1]])))
    return found


def _line_starts(tokens: Sequence[Token]) -> set[int]:
    return {i for i, t in enumerate(tokens) if i == 0 or tokens[i - 1].line != t.line}


def _left_of(token: Token, anchor: Token, strict: bool) -> bool:
    return token.line > anchor.line and (token.col < anchor.col if strict else token.col <= anchor.col)


def _colon(tokens: Sequence[Token], start: int, anchor: Token) -> int | None:
    """The index of the ``:`` that opens a ``have``'s statement (None: it states none)."""
    depth = 0
    for j in range(start, len(tokens)):
        token = tokens[j]
        depth += (token.text in OPEN) - (token.text in CLOSE)
        if depth < 0 or token.text in ENDS or (token.line > anchor.line and token.col <= anchor.col):
            return None
        if depth == 0 and token.text == ":":
            return j
    return None


def _statement(tokens: Sequence[Token], start: int, anchor: Token) -> tuple[int, int] | None:
    """The token span of a statement starting at ``start``: up to ``:=`` / ``by`` / ``from`` / ``at``
    outside brackets, a closing bracket of an outer term, or a line back at the anchor's column."""
    depth = 0
    for j in range(start, len(tokens)):
        token = tokens[j]
        depth += (token.text in OPEN) - (token.text in CLOSE)
        if depth < 0 or (depth == 0 and token.text in ENDS) or (token.line > anchor.line and token.col <= anchor.col):
            return start, j
    return (start, len(tokens)) if start < len(tokens) else None


def conclusion(text: str, signature: Sequence[Token]) -> str:
    """A theorem's statement after its binders: what follows the first ``:`` outside brackets."""
    depth, colon = 0, None
    for j, token in enumerate(signature):
        depth += (token.text in OPEN) - (token.text in CLOSE)
        if depth == 0 and token.text == ":":
            colon = j
            break
    return text_of(text, signature[colon + 1 :] if colon is not None else signature)


def nearest(found: list[Anchor], offset: int, fallback: str) -> str:
    """The statement of the innermost anchor reaching ``offset`` (the latest one begun), else ``fallback``."""
    reaching = [a for a in found if a.start <= offset < a.end]
    return max(reaching, key=lambda a: a.start).statement if reaching else fallback


class Library:
    """The library's declarations by full name, and Lean's name resolution over them."""

    def __init__(self, kinds: dict[str, str]) -> None:
        self.kinds = kinds

    def resolve(self, name: str, namespaces: Sequence[str]) -> str | None:
        """The declaration ``name`` means: the longest prefix of it that is a declaration as written or
        under one of ``namespaces`` (None: none is)."""
        parts = name.split(".")
        for n in range(len(parts), 0, -1):
            prefix = ".".join(parts[:n])
            for space in ("", *namespaces):
                full = f"{space}.{prefix}" if space else prefix
                if full in self.kinds:
                    return full
        return None

    def lemma(self, name: str, namespaces: Sequence[str]) -> str | None:
        found = self.resolve(name, namespaces)
        return found if found is not None and self.kinds[found] in LEMMA_KINDS else None


def uses_in(label: str, text: str, library: Library) -> tuple[list[Use], Counter[str]]:
    """The library lemmas the proofs of one file use, each with its query; and the lemma-like names
    (with an underscore) that resolved to no library lemma, by count."""
    commands = commands_of(text)
    own = {c.name for c in commands if c.name}
    namespaces = tuple(n for c in commands for n in opened(c.body))
    uses: list[Use] = []
    unresolved: Counter[str] = Counter()
    for command in commands:
        body = command.body
        assign = top_level_assign(body, last=False)
        if command.keyword not in PROOF_COMMANDS or assign is None:
            continue
        signature, proof = body[2 if command.name else 1 : assign], body[assign + 1 :]
        local = bound_names(signature, brackets=True) | bound_names(proof, brackets=False) | own
        found, fallback = anchors(text, proof), conclusion(text, signature)
        for i, token in enumerate(proof):
            if token.kind != IDENT or token.text.split(".")[0] in local or token.text in KEYWORDS:
                continue
            if i and proof[i - 1].text == "." and proof[i - 1].end == token.offset:
                continue  # a field of a term, ``(...).symm``
            if token.text in TACTIC_WORDS and tactic_position(proof, i):
                continue
            lemma = library.lemma(token.text, namespaces)
            if lemma is None:
                unresolved.update([token.text] if "_" in token.text.strip("_") and token.text not in TACTICS else [])
                continue
            query = nearest(found, token.offset, fallback)
            uses.append(Use(label, lemma, query, heads(query, library, namespaces, local)))
    return uses, unresolved


def tactic_position(tokens: Sequence[Token], i: int) -> bool:
    """Whether ``tokens[i]`` starts a tactic: first on its line, or after ``·``, ``;``, ``by``, ``=>``."""
    return i == 0 or tokens[i - 1].line != tokens[i].line or tokens[i - 1].text in TACTIC_STARTS


def heads(query: str, library: Library, namespaces: Sequence[str], local: set[str]) -> tuple[str, ...]:
    """The query's head symbols: the library names it mentions, else its operators, in order."""
    try:
        tokens = lex_code(query)
    except ValueError:
        return ()
    named = (library.resolve(t.text, namespaces) for t in tokens if t.kind == IDENT and t.text not in local)
    found = tuple(dict.fromkeys(n for n in named if n is not None))
    return found or tuple(dict.fromkeys(t.text for t in tokens if t.kind == SYMBOL and t.text in OPERATORS))


def regex_names(roots: tuple[Path, ...], use: Use) -> list[str] | None:
    """The ``search`` tool's answer for theorem lines holding the first two head symbols, as names."""
    if not use.heads:
        return None
    words = [re.escape(short(h)) for h in use.heads[:2]]
    pattern = r"^\s*(?:@\[.*\]\s*)?(?:protected\s+|private\s+)?(?:theorem|lemma)\s.*" + ".*".join(
        rf"\b{w}\b" if w[0].isalpha() or w[0] == "_" else w for w in words
    )
    return _DECLARED.findall(search_library(roots, "*.lean", pattern))[:K]


def measure(roots: tuple[Path, ...], uses: list[Use]) -> tuple[Results, int]:
    """Per tool: hits, unanswered queries, latencies; and how many uses at least one tool found."""
    with tempfile.TemporaryDirectory() as cache:
        started = time.perf_counter()
        index = open_index(roots, ".lean", Path(cache))
        size = sum(p.stat().st_size for p in Path(cache).rglob("*") if p.is_file())
        print(f"index: {index.size} declarations, built in {time.perf_counter() - started:.1f} s, {size / 1e6:.0f} MB")
        tools: dict[str, Callable[[Use], list[str] | None]] = {
            "regex": lambda u: regex_names(roots, u),
            "bm25": lambda u: [d.name for d in index.search(u.goal, K)],
            "bm25-heads": lambda u: [d.name for d in index.search(" ".join(u.heads), K)] if u.heads else None,
        }
        ranker = bm25s_ranker(roots, ".lean")
        if ranker is not None:
            tools["bm25s"] = lambda u: ranker(u.goal)
        results: Results = {}
        found = 0
        for use in uses:
            asked = [record(results, name, use.lemma, functools.partial(tool, use)) for name, tool in tools.items()]
            found += any(asked)
        return results, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--library", type=Path, required=True, help="the library sources (a .lake/packages)")
    parser.add_argument("--sample", type=int, default=200, help="uses measured (N spread evenly over the corpus)")
    parser.add_argument("--all", action="store_true", help="every use in the corpus")
    args = parser.parse_args()
    roots = (args.library.resolve(),)
    started = time.perf_counter()
    library = Library({d.name: d.kind for d in library_declarations(roots, ".lean")})
    print(f"library: {len(library.kinds)} declarations read in {time.perf_counter() - started:.1f} s")
    uses: dict[tuple[str, str], Use] = {}
    unresolved: Counter[str] = Counter()
    files = 0
    for label, text in lean_texts():
        try:
            found, missed = uses_in(label, text, library)
        except ValueError as exc:  # a text the lexer refuses
            print(f"skipped {label}: {exc}")
            continue
        files += 1
        unresolved += missed
        for use in found:
            uses.setdefault((use.lemma, use.goal), use)
    every = list(uses.values())
    step = max(1, len(every) // args.sample) if args.sample else 1
    chosen = every if args.all else every[::step][: args.sample]
    print(f"{files} files; {len(every)} uses (lemma, query); {sum(unresolved.values())} lemma-like names unresolved")
    print("most frequent unresolved: " + ", ".join(f"{n} ({c})" for n, c in unresolved.most_common(12)))
    print("query: the nearest written statement (have / show / calc step / theorem conclusion), not the goal")
    print(f"\n{len(chosen)} of {len(every)} uses, {len({u.lemma for u in chosen})} distinct lemmas")
    measured, any_tool = measure(roots, chosen)
    report(measured, len(chosen), any_tool)


if __name__ == "__main__":
    sys.exit(main())
