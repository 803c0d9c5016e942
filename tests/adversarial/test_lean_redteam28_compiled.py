"""Red team 28 (Lean, compiled gates): code the candidate's module makes Lean run when a harness imports it.

Every harness file that reads the candidate's compiled module (G5's ``#print axioms``, the fast profile's
statement check, the yes/no decision, the answer check) ``import``s it, and `lean` runs the ``[init]``
declarations of what a file imports (leanprover/lean4 src/util/shell.cpp: ``lean_main`` calls
``lean_enable_initializer_execution`` before reading its options; src/Lean/Compiler/InitAttr.lean:
``afterImport`` evaluates each ``[init]`` declaration). On the real Lean 4.35 kernel of the tests, a module
with one ``@[init]`` declaration printed, on importing, the very ``--json`` line G5 reads ("'toy_nat' does
not depend on any axioms" at the harness's ``#print axioms`` line) and exited 0: G5 passed a theorem proved
from an ``axiom``. Only G3's words (``initialize``, ``@[init]``) and G2's list of additions kept such a
module out. Now the ``.olean`` is read as data before anything imports it (``provers/lean/olean.py``), and a
module with entries for an extension whose import runs its code is refused, never imported.

The check also names the extensions whose import evaluates the module's declarations (parsers, macros,
elaborators, delaborators, simplification procedures, Mathlib's ``norm_num`` and ``positivity``
extensions). No candidate that passes G1-G3 was found to reach any of them: ``@[init]``, ``initialize``
and every library command expanding to it are refused by G2 (G3 now also refuses the commands,
``register_simp_attr``, ``register_option``...). Comparator's ``lean4export`` imports with
``importModules`` and never enables initializers (leanprover/lean4export Main.lean), so G6 runs none.

Tried and already sound (notes in :data:`TRIED`).
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import LeanProver, axioms, check_forbidden
from putnam_solver.core.provers.lean.olean import OleanError, extension_entries, imported_modules, load_time_code
from putnam_solver.core.verify import Profile, Track, VerifyOptions, run_gates
from tests.adversarial._lean_redteam27_toy import NAME, PROBLEM, STATEMENT, THEOREM, gate_outcome, verify_full
from tests.helpers import one_record_benchmark
from tests.toylean.build import ToyLean

FORGED = (
    '{\\"severity\\":\\"information\\",\\"pos\\":{\\"line\\":2,\\"column\\":0},'
    '\\"fileName\\":\\"ToyNatAxioms.lean\\",\\"data\\":\\"\'toy_nat\' does not depend on any axioms\\"}\\n'
)
IO_SHIM = (
    "def IO (α : Type) : Type := Unit → PProd α Unit\n\n"
    '@[extern "lean_io_print"] def IO.print {α : Type} (show_ : α → String) (s : α) : IO Unit :=\n'
    "  fun w => PProd.mk w w\n\n"
    '@[extern "lean_io_exit"] def IO.Process.exit {α : Type} (code : Nat) : IO Unit :=\n'
    "  fun w => PProd.mk w w\n\n"
)
"""Enough of ``IO`` for the toy prelude: the interpreter calls Lean's own compiled ``IO.print`` and
``IO.Process.exit`` (found by name in the running `lean`) for these declarations."""
FORGE = (
    f"noncomputable abbrev {NAME} : Nat := 1\n\n{IO_SHIM}"
    "@[init] def zzForge : IO Unit := fun w =>\n"
    f'  IO.Process.exit (α := Unit) 0 (IO.print (fun s => s) "{FORGED}" w).snd\n\n'
    f"axiom cheat : Eq {NAME} {NAME}\n\n{THEOREM}\n  cheat\n"
)
"""On import: print G5's success line for the harness file, then exit 0 before its ``#print axioms`` runs."""
HONEST = (
    f"noncomputable abbrev {NAME} : Nat := 1\n\n"
    "theorem zz_refl (n : Nat) : Eq n n := rfl\n\n"
    f"@[simp] theorem zz_one : Eq {NAME} 1 := rfl\n\n"
    "@[irreducible] def zzOne : Nat := 1\n\n"
    "@[inline] private def zzId (n : Nat) : Nat := n\n\n"
    f"{THEOREM}\n  zz_refl {NAME}\n"
)
"""Helpers that leave entries in several extensions (simp set, reducibility, inlining, private names,
compiled code): none of them runs anything on import."""

TRIED = {
    "private axiom propext": "Lean: `a non-private declaration propext has already been declared`",
    "forged messages from the candidate's compile": "not replayed on import; only the harness file's lines count",
    "axiom with a list-breaking name": "`#print axioms` then matches neither form: an error, never a pass",
    "axiom hidden in an `opaque`": "`#print axioms` walks the opaque's value: `depends on axioms: [cheat]`",
    "a theorem for one universe only": "the statement check's `type_of%` keeps the pinned universes rigid",
    "`seal`/`unseal`, `irreducible_def`, `register_*` glued after a helper": "G2: not a permitted addition",
}


@pytest.fixture
def bench(toy_lean_env: ToyLean, tmp_path: Path) -> Benchmark:
    return one_record_benchmark(tmp_path, PROBLEM, STATEMENT)


def test_a_module_with_init_code_is_never_imported(bench: Benchmark) -> None:
    verdict = verify_full(bench, FORGE)
    status, detail = gate_outcome(verdict, "G5")
    assert status == "failed" and "[init]" in detail and "Lean.regularInitAttr" in detail, detail
    assert gate_outcome(verdict, "G4")[0] == "passed"  # it compiles: only reading the module refuses it
    assert verdict.status != "accepted"


def test_helpers_that_run_nothing_on_import_pass(bench: Benchmark) -> None:
    status, detail = gate_outcome(verify_full(bench, HONEST), "G5")
    assert status == "passed", detail


@pytest.mark.slow
def test_without_the_check_lean_runs_the_init_code_and_g5_reads_its_line(
    bench: Benchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Why the check exists: with it switched off, the forged line is what G5 reads."""
    monkeypatch.setattr(axioms, "load_time_code", lambda data: [])
    status, detail = gate_outcome(verify_full(bench, FORGE), "G5")
    assert status == "passed" and "no axioms" in detail, detail


@pytest.mark.slow
def test_a_module_the_reader_cannot_read_is_an_error_of_g5(bench: Benchmark, monkeypatch: pytest.MonkeyPatch) -> None:
    def unreadable(data: bytes) -> list[str]:
        raise OleanError(".olean header version 3, this reader knows version 2")

    monkeypatch.setattr(axioms, "load_time_code", unreadable)
    status, detail = gate_outcome(verify_full(bench, HONEST), "G5")
    assert status == "error" and "could not be read before importing it" in detail, detail


@pytest.mark.slow
def test_the_fast_profiles_statement_check_refuses_it_too(bench: Benchmark) -> None:
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    verdict = run_gates(LeanProver(), bench, bench.problems[PROBLEM], FORGE.encode(), Track.NO_ANSWER, options)
    status, detail = gate_outcome(verdict, "G4")
    assert status == "failed" and "Lean.regularInitAttr" in detail, detail


# The reader on hand-made files: anything it does not know is an error, never "nothing to run".


def _olean(entries: list[tuple[str, int]], version: int = 2, imports: tuple[str, ...] = ()) -> bytes:
    """A minimal v2 ``.olean``: ``ModuleData`` whose ``entries`` lists ``(name, n entries)``."""
    base, body = 0x1000_0000, bytearray()
    start = 80 + 16

    def put(header: tuple[int, int], words: list[int], tail: bytes = b"") -> int:
        address = base + start + len(body)
        body.extend(struct.pack("<iHBB", 0, 0, header[0], header[1]))
        body.extend(struct.pack(f"<{len(words)}Q", *words) + tail)
        body.extend(b"\0" * (-len(body) % 8))
        return address

    def string(text: str) -> int:
        raw = text.encode() + b"\0"
        return put((0, 249), [len(raw), len(raw), len(text)], raw)

    def name(dotted: str) -> int:
        pointer = 1
        for part in dotted.split("."):
            pointer = put((2, 1), [pointer, string(part)], struct.pack("<Q", 0))
        return pointer

    def array(items: list[int]) -> int:
        return put((0, 246), [len(items), len(items), *items])

    pairs = [put((2, 0), [name(n), array([1] * count)]) for n, count in entries]
    imported = array([put((1, 0), [name(m)], struct.pack("<Q", 0)) for m in imports])
    root = put((5, 0), [imported, array([]), array([]), array([]), array(pairs)])
    header = b"olean" + bytes([version, 1]) + b"4.35.0".ljust(33, b"\0") + b"0" * 40
    return header + struct.pack("<QQ", base, root) + bytes(body)


def test_the_reader_names_the_extensions_whose_import_runs_code() -> None:
    data = _olean([("Lean.declRangeExt", 3), ("Lean.regularInitAttr", 1), ("Lean.Elab.macroAttribute", 0)])
    assert list(extension_entries(data)) == [
        ("Lean.declRangeExt", 3),
        ("Lean.regularInitAttr", 1),
        ("Lean.Elab.macroAttribute", 0),
    ]
    assert [line.rsplit("(", 1)[1] for line in load_time_code(data)] == ["Lean.regularInitAttr)"]
    assert load_time_code(_olean([("Lean.Meta.simpExtension", 4)])) == []


def test_the_reader_lists_the_modules_an_import_would_load() -> None:
    assert imported_modules(_olean([], imports=("Init", "Mathlib", "Init"))) == ["Init", "Mathlib", "Init"]


@pytest.mark.slow
def test_a_module_importing_what_its_header_does_not_show_is_an_error(
    bench: Benchmark, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where Lean's header reading and G2's disagree, G2 judged imports Lean did not load."""
    monkeypatch.setattr(axioms, "imported_modules", lambda data: ["Init", "Lean.Elab.Command"])
    status, detail = gate_outcome(verify_full(bench, HONEST), "G5")
    assert status == "error" and "Lean.Elab.Command" in detail, detail


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not an olean at all" * 10,
        _olean([("Lean.regularInitAttr", 1)], version=3),
        _olean([("Lean.regularInitAttr", 1)])[:150],
        _olean([])[:88] + struct.pack("<Q", 0xDEAD_BEEF_0000) + _olean([])[96:],
    ],
    ids=["empty", "junk", "other version", "cut short", "root outside"],
)
def test_a_module_the_reader_cannot_read_is_an_error(data: bytes) -> None:
    with pytest.raises(OleanError):
        load_time_code(data)


def test_g3_refuses_the_commands_that_expand_to_initialize() -> None:
    for command in (
        "register_simp_attr zz_simp",
        "register_option zzOpt : Bool := { defValue := false }",
        "register_builtin_option zzOpt : Bool := { defValue := false }",
        "register_label_attr zz_label",
        "declare_aesop_rule_sets [ZZ]",
    ):
        found = check_forbidden(f"{command}\n\ntheorem zz : True := trivial\n")
        assert found and found[0].construct == command.split()[0], found


UNIVERSE = "universe u\n\ntheorem toy_u : ∀ (α : Sort u) (a : α), Eq a a :=\n  sorry\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("sort", "passes"),
    [("Sort 1", False), ("Sort u", True), ("Sort v", True)],
    ids=["one universe only", "as pinned", "renamed"],
)
def test_the_statement_check_holds_the_pinned_universes_rigid(
    toy_lean_env: ToyLean, tmp_path: Path, sort: str, passes: bool
) -> None:
    """``type_of% @pinned`` turns the pinned universe into a parameter: a theorem proved for one universe
    only does not unify with it (checked on Lean 4.35), while one as general or more passes."""
    bench = one_record_benchmark(tmp_path, "toy_u", UNIVERSE)
    text = f"universe u v\n\ntheorem toy_u : ∀ (α : {sort}) (a : α), Eq a a :=\n  fun _ _ => rfl\n"
    options = VerifyOptions(profile=Profile.FAST, keep_going=True)
    verdict = run_gates(LeanProver(), bench, bench.problems["toy_u"], text.encode(), Track.WITH_ANSWER, options)
    status, detail = gate_outcome(verdict, "G4")
    assert (status == "passed") is passes, detail
