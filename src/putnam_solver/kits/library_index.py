"""A ranked (BM25) search over the declarations of a prover's installed libraries, for the agent.

The agent's ``search`` is a regular expression over source lines: it finds a name the model already
half knows. This index answers the other question, "which lemma states something like this goal?": each
declaration (``declarations``: qualified name, statement, doc comment) is one document, and a query
(a goal, a statement fragment, words) is ranked against all of them by BM25.

Engine: tantivy, chosen by measurement over bm25s on the same documents (the Coq standard library and
the installed MathComp, Coquelicot, ...: 46,593 declarations) and the same tokens
(``bench/retrieval_recall.py``): recall@10 on the published proofs' goals within one query of 36 (2 against
3), a query 0.6 ms against 3.2 ms (median), indexing 0.4 s against 1.3-2.4 s, and an on-disk index that
opens in 70 ms without re-reading the sources. On Mathlib (238,953 declarations with the names
``to_additive`` and ``alias`` add; ``bench/retrieval_recall_lean.py``, 1000 uses queried with the
statement nearest to them) the two are as close: recall@10 0.05 against 0.06, a query 3.6 ms against
5.2 ms (median; p90 8 ms against 49 ms), indexing 32 s against 24 s. It is an optional dependency
(extra ``retrieval``); without it the tool is not offered.

The index lives under the cache directory, keyed by a fingerprint of the source files it was read from
(path, size, modification time) and of this format, so a changed toolchain gets a new index and never a
stale one. It is built on first use, into a temporary directory renamed into place.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from putnam_solver.core.cache import CACHE_DIR_VARIABLE
from putnam_solver.core.util import path_variable
from putnam_solver.extras import install_command
from putnam_solver.kits.declarations import Declaration, library_declarations

INDEX_FORMAT = "3"
"""Changes with what the index holds (tokens, fields), so that an index of an older format is not reused."""
DEFAULT_HITS = 10
MAX_HITS = 30
MAX_QUERY_TERMS = 64
_TOKEN = re.compile(r"[A-Za-z_][\w']*(?:\.[A-Za-z_][\w']*)*|\d+|[^\sA-Za-z0-9_(){}\[\],;.]+")
_NOISE = re.compile(r"[A-Za-z]|\d*[3-9]|\d{2,}")
_FIELDS = ("name", "kind", "statement", "doc", "path")


class IndexUnavailable(Exception):
    """The ranked search cannot run here (the message says why and what to install)."""


def tokens(text: str) -> list[str]:
    """Words, numbers and operator runs, lowercased; an identifier also by its parts (``Nat.add_comm``:
    ``nat.add_comm``, ``nat``, ``add``, ``comm``), so that a goal's words meet a lemma's name. Left out:
    one-letter names and numerals past 2, which in goals and statements are mostly bound variables and
    instances (``x``, ``7``) that match lemmas by accident (``Machin_2_3_7`` for ``x mod 7``); measured
    on the published proofs' goals, recall@10 went from 0 to 3 in 36 (``bench/retrieval_recall.py``)."""
    out: list[str] = []
    for word in _TOKEN.findall(text):
        if _NOISE.fullmatch(word):
            continue
        lower = word.lower()
        out.append(lower)
        parts = [p for p in re.split(r"[_.']", lower) if p and not p.isdigit()]
        if len(parts) > 1:
            out.extend(parts)
    return out


def engine() -> Any:
    """The tantivy module, or IndexUnavailable naming the extra that installs it."""
    try:
        import tantivy
    except ImportError as exc:
        raise IndexUnavailable(f"the ranked library search needs tantivy: {install_command('retrieval')}") from exc
    return tantivy


def cache_root() -> Path:
    """``$PUTNAM_CACHE_DIR/library-index``, else the per-user cache directory's."""
    base = path_variable(CACHE_DIR_VARIABLE) or Path(platformdirs.user_cache_dir("putnambench-solver"))
    return base / "library-index"


def fingerprint(roots: tuple[Path, ...], suffix: str) -> str:
    """What the index was read from: every source file's path, size and modification time, and the
    index format and engine version; a new toolchain or library changes it."""
    digest = hashlib.sha256(f"{INDEX_FORMAT}|{engine().__version__}|{suffix}".encode())
    for root in roots:
        digest.update(f"\0root {root.resolve() if root.exists() else root}".encode())
        if root.is_dir():
            for path in sorted(root.rglob(f"*{suffix}")):
                stat = path.lstat()
                digest.update(f"\0{path.relative_to(root)}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:32]


def _schema(tantivy: Any) -> Any:
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("body", stored=False, tokenizer_name="whitespace")
    for name in _FIELDS:
        builder.add_text_field(name, stored=True, index_option="basic", tokenizer_name="raw")
    builder.add_integer_field("line", stored=True)
    return builder.build()


def build_index(declarations: list[Declaration], directory: Path) -> None:
    """Write an index of ``declarations`` into the empty ``directory``."""
    tantivy = engine()
    index = tantivy.Index(_schema(tantivy), path=str(directory))
    writer = index.writer(heap_size=64_000_000, num_threads=1)
    for d in declarations:
        body = " ".join(tokens(f"{d.name} {d.statement} {d.doc}"))
        writer.add_document(tantivy.Document(body=body, line=d.line, **{f: getattr(d, f) for f in _FIELDS}))
    writer.commit()
    writer.wait_merging_threads()


@dataclass
class LibraryIndex:
    """An opened index: ``search`` ranks its declarations against a query."""

    searcher: Any
    schema: Any
    size: int

    def search(self, query: str, hits: int = DEFAULT_HITS) -> list[Declaration]:
        tantivy = engine()
        terms = tokens(query)[:MAX_QUERY_TERMS]  # a repeated term counts again, as in the query
        if not terms:
            return []
        should = [(tantivy.Occur.Should, tantivy.Query.term_query(self.schema, "body", t)) for t in terms]
        found = self.searcher.search(tantivy.Query.boolean_query(should), max(1, min(hits, MAX_HITS))).hits
        return [_declaration(self.searcher.doc(address)) for _, address in found]


def _declaration(doc: Any) -> Declaration:
    fields = {f: str(doc[f][0]) for f in _FIELDS}
    return Declaration(line=int(doc["line"][0]), **fields)


def open_index(roots: tuple[Path, ...], suffix: str, cache: Path | None = None) -> LibraryIndex:
    """The index of the ``suffix`` sources under ``roots``, built on first use and cached; raises
    IndexUnavailable when the engine is missing or there are no sources."""
    tantivy = engine()
    if not any(r.is_dir() for r in roots):
        raise IndexUnavailable("no library sources were found for this prover (see `putnam doctor`)")
    where = (cache or cache_root()) / fingerprint(roots, suffix)
    with _BUILDING:
        if not (where / "meta.json").is_file():
            _build_into(where, list(library_declarations(roots, suffix)))
    if (foreign := not_own(where)) is not None:
        raise IndexUnavailable(
            f"{where}: {foreign}, so its text is not searched (another account may have built it in a shared "
            f"cache directory); remove it, or set {CACHE_DIR_VARIABLE} to a directory of your own"
        )
    _private(where.parent)
    if not_own(where.parent) is not None:  # else swapped for another's between the check above and the open
        raise IndexUnavailable(
            f"{where.parent}: others can write this folder (or it is not this user's), so another account could "
            f"put its own index in place of this one after it is checked; its text is not searched. Set "
            f"{CACHE_DIR_VARIABLE} to a directory of your own"
        )
    index = tantivy.Index.open(str(where))
    index.reload()
    searcher = index.searcher()
    return LibraryIndex(searcher, index.schema, searcher.num_docs)


_BUILDING = threading.Lock()


def not_own(directory: Path) -> str | None:
    """Why ``directory`` is not an index this user built (None when it is): a link, or a directory another
    account owns or others can write into. The place of an index is a fingerprint any account of the machine
    can compute, and what another account leaves in a shared cache directory is never used (its
    declarations would be the model's tool results). ``_build_into`` makes it ``mkdtemp``'s private
    directory, so no one else can have written the files inside; and the folder it sits in must pass the same
    check, since the index is opened by its path after this check: whoever can write that folder could rename
    the checked index away and put another in its place in between (red team round 6)."""
    try:
        info = directory.lstat()
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if not stat.S_ISDIR(info.st_mode):
        return "not a directory (a link is never followed)"
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        return f"not this user's own (owner {info.st_uid}, mode {info.st_mode & 0o7777:o})"
    return None


def _private(folder: Path) -> None:
    """Take group and other write permission off ``folder`` when it is this user's own directory (made under a
    umask of 002, say), so that ``not_own`` accepts it; another account's folder is left as it is."""
    with contextlib.suppress(OSError):
        info = folder.lstat()
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid() and info.st_mode & 0o022:
            folder.chmod(stat.S_IMODE(info.st_mode) & ~0o022)


def _build_into(where: Path, declarations: list[Declaration]) -> None:
    """Build in a fresh directory beside ``where`` and rename it into place (another process may win)."""
    where.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=".building-", dir=where.parent))
    try:
        build_index(declarations, scratch)
        try:
            scratch.rename(where)
        except OSError:
            if not (where / "meta.json").is_file():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def format_declarations(found: list[Declaration], query: str) -> str:
    if not found:
        return f"no declarations match {query!r}"
    return "\n".join(f"{rank}. {d.render()}" for rank, d in enumerate(found, 1))


@dataclass(frozen=True)
class IndexStep:
    """``putnam bootstrap``'s last install step: index the libraries just installed, so that the agent's
    first ``find_declarations`` does not wait for it. ``roots`` is asked when the step runs (after the
    toolchain is in place); without the engine the step says so and skips itself."""

    roots: Callable[[], tuple[Path, ...]]
    suffix: str
    name: str = "library-index"
    description: str = "index the installed libraries' declarations for the agent's ranked search"

    def run(self, progress: Callable[[str], None]) -> None:
        try:
            index = open_index(self.roots(), self.suffix)
        except IndexUnavailable as exc:
            progress(f"library index skipped: {exc}")
            return
        progress(f"library index ready: {index.size} declarations")
