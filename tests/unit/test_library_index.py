"""The ranked declaration search: declarations read from small fixture libraries in the layout of Coq's
theories and of Mathlib, indexed with the real engine, cached by fingerprint, ranked against goals."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path

import pytest

from putnam_solver.kits.declarations import library_declarations
from putnam_solver.kits.library_index import fingerprint, format_declarations, open_index, tokens

NEEDS_ENGINE = pytest.mark.skipif(importlib.util.find_spec("tantivy") is None, reason="tantivy is not installed")
"""The index tests need the engine (extra ``retrieval``); reading declarations does not."""

LIBRARY = Path(__file__).parents[1] / "fixtures" / "library"
ROCQ = (LIBRARY / "rocq" / "theories",)
LEAN = (LIBRARY / "lean",)


def test_rocq_declarations_are_qualified_with_their_statements_and_docs() -> None:
    found = {d.name: d for d in library_declarations(ROCQ, ".v")}
    assert set(found) == {
        "Coq.Arith.Toy.toy_add_comm",
        "Coq.Arith.Toy.Toy.mod_mod_once",
        "Coq.Arith.Toy.Toy.square",
        "Coq.Arith.Toy.toy_le_refl",
    }, "a `Module M := N.` opens no scope; `End Toy` closes one"
    assert found["Coq.Arith.Toy.toy_add_comm"].statement == ": forall n m : nat, n + m = m + n"
    assert found["Coq.Arith.Toy.toy_add_comm"].doc == "Addition of naturals is commutative."
    assert found["Coq.Arith.Toy.Toy.square"].statement == "(n : nat) : nat", "a definition's body is left out"
    assert found["Coq.Arith.Toy.toy_le_refl"].doc == "", "no doc comment right before it"


def test_lean_declarations_follow_namespaces_and_root() -> None:
    found = {d.name: d for d in library_declarations(LEAN, ".lean")}
    assert set(found) == {"Toy.add_comm'", "Toy.abs_add_le", "Toy.Mod.mod_mod_self", "Toy.square", "Nat.square_eq"}
    assert found["Toy.abs_add_le"].doc == "The absolute value satisfies the triangle inequality.", "doc over @[simp]"
    assert found["Toy.Mod.mod_mod_self"].statement == "(a n : Nat) : a % n % n = a % n"
    assert found["Toy.square"].doc == ""


def test_tokens_meet_names_and_operators() -> None:
    assert tokens("Nat.add_comm : n + m") == ["nat.add_comm", "nat", "add", "comm", ":", "+"]
    assert tokens("Machin_2_3_7 : 0 < x mod 7 < 12") == ["machin_2_3_7", ":", "0", "<", "mod", "<"]


@NEEDS_ENGINE
@pytest.mark.parametrize(
    ("roots", "suffix", "query", "best"),
    [
        (ROCQ, ".v", "forall a n, (a mod n) mod n = a mod n", "Coq.Arith.Toy.Toy.mod_mod_once"),
        (ROCQ, ".v", "n + m = m + n", "Coq.Arith.Toy.toy_add_comm"),
        (LEAN, ".lean", "a % n % n = a % n", "Toy.Mod.mod_mod_self"),
        (LEAN, ".lean", "triangle inequality for the absolute value", "Toy.abs_add_le"),
    ],
)
def test_the_declaration_that_fits_ranks_first(
    tmp_path: Path, roots: tuple[Path, ...], suffix: str, query: str, best: str
) -> None:
    found = open_index(roots, suffix, tmp_path).search(query)
    assert found and found[0].name == best
    assert best in format_declarations(found, query)


@NEEDS_ENGINE
def test_the_index_is_cached_by_fingerprint_and_rebuilt_when_a_source_changes(tmp_path: Path) -> None:
    library = tmp_path / "lib" / "theories"
    shutil.copytree(ROCQ[0], library)
    cache = tmp_path / "cache"
    first = fingerprint((library,), ".v")
    assert open_index((library,), ".v", cache).size == 4
    assert [p.name for p in cache.iterdir()] == [first]
    assert open_index((library,), ".v", cache).size == 4, "opened from the cache"
    source = library / "Arith" / "Toy.v"
    source.write_text(source.read_text() + "\nLemma toy_new : True.\nProof. exact I. Qed.\n")
    os.utime(source, ns=(1, 1))
    assert fingerprint((library,), ".v") != first
    assert open_index((library,), ".v", cache).size == 5
    assert open_index((library,), ".v", cache).search("toy_new")[0].name == "Coq.Arith.Toy.toy_new"


@NEEDS_ENGINE
def test_no_sources_is_an_unavailable_search_not_an_empty_one(tmp_path: Path) -> None:
    from putnam_solver.kits.library_index import IndexUnavailable

    with pytest.raises(IndexUnavailable, match="no library sources"):
        open_index((tmp_path / "missing",), ".v", tmp_path)


@NEEDS_ENGINE
def test_bootstrap_ends_by_indexing_the_installed_libraries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from putnam_solver.kits.library_index import IndexStep
    from putnam_solver.toolchains import bootstrap_plan

    monkeypatch.setenv("PUTNAM_CACHE_DIR", str(tmp_path))
    assert [s.name for s in bootstrap_plan("rocq", None, False)][-1] == "library-index"
    said: list[str] = []
    IndexStep(lambda: ROCQ, ".v").run(said.append)
    assert said == ["library index ready: 4 declarations"]
    assert [p.name for p in (tmp_path / "library-index").iterdir()] == [fingerprint(ROCQ, ".v")]
