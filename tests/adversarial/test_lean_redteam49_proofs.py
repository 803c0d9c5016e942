"""Lean proof-side red team 49 (text profile): a command one character into a tactic's name, and what else
was tried.

Found: a name at a tactic's place that no tactic takes is read by core's fallback
``Lean.Parser.Tactic.«unknown»`` (leanprover/lean4 src/Lean/Parser/Tactic.lean: ``withPosition (ident >>
errorAtSavedPos "unknown tactic" true)``), whose error stands one character after the name's start; Lean's
command loop resumes there. So ``haxiom zz : False`` as a tactic declares ``axiom zz : False``, ``xopen
Classical`` in a helper's proof opens ``Classical`` for the theorem after it, ``xinstance`` declares an
instance; the gates read one name (``haxiom``). A guillemet name holds any text (``«axiom zz : False»``), and
a name whose tail Lean reads as a number stops there (``h0baxiom``: ``0b`` with no digit, red team 41): the
same. The text profile accepted each of the 14 candidates of ``HOSTILE``; the toy Lean (Lean 4.35) declares
the hidden axiom (``test_lean_reads_the_command_in_the_name``; found by a replay of random text before ``axiom
zz : False`` at a tactic's place, 8 of 90 texts the lexer read with no ``axiom``). Now (``_resumed_names``)
G3 lexes again the text after the first character of each name where a tactic surely
begins (first on its line, or after ``by``, ``;``, ``<;>``, ``·``, ``|``, ``try``, ``all_goals``...) and refuses
it where that holds a command keyword, or is unreadable with a keyword's text in it; every guillemet name
there is refused (Lean's reading of its text may run on past its ``»``). Published Lean proofs of the
conformance corpora touched: 1 of 1571 (``rcases h with hconst | hopen``, already rejected for another
reason); the verdict snapshot unchanged. Left: a name after an unknown tactic word on the same line
(``foo haxiom``), where Lean's reading depends on that word's syntax; and ``rcases .. with a | hopen``,
refused though Lean reads a pattern there.

Nothing else was found: each of the 44 other attacks below (``TRIED``) was refused by G2 or G3 before this
round and is kept as a regression; the 10 texts of ``CONSISTENT`` are accepted, and the toy Lean declares
nothing hidden in them (``test_lean_declares_nothing_hidden``).

Tried, each before the theorem or as its proof: ``#`` commands that run code or wrap the next command
(``#guard_msgs (drop error) in``, whose dropped errors would hide a failed theorem; ``#check_failure``,
``#reduce``, ``#synth``, ``#count_heartbeats in``, ``#info_trees in``...); native evaluation spelled as
``bv_decide?``, ``native_decide?``, ``decide (native := true)``, ``decide (config := .native)``, ``grind
+native``, ``Lean.Grind.nativeDecide``; meta code as ``by_elab``, ``run_tac``; interpolation through
``m!``, ``f!``, ``dbg_trace``, ``throwError``, ``panic!`` and the ``trace`` tactic (Lean reads the text after
a term between braces that does not parse as code: the toy Lean declares the axiom after ``dbg_trace
"{1 : ℕ} axiom zz : False -- "``); a doc comment closed twice (``/-- a -/-/``), a char literal with an
escape Lean refuses (``'\\q'``), a no-break space and a vertical tab between tokens; global attributes in
the ``attribute [..] x in`` prefix of a helper (``[instance]``, ``[instance 10000]`` of a helper
``OfNat ℕ 2 := ⟨3⟩`` that would turn the statement's ``2`` into ``3``, ``[scoped instance]``,
``[default_instance]``, ``[simp]``, ``[irreducible]``, ``[-simp]``, ``[local simp, instance]``), the
prefix before a ``namespace``, ``section``, ``mutual`` or ``grind_pattern``; a second theorem of the
statement's name (``private``, in a namespace, dotted), ``_root_.``, ``@[csimp]``, ``macro_rules`` for
``decide``, an ``end`` that closes no block of the candidate's (also in a proof).

``CONSISTENT``: Lean reads a guillemet name up to its ``»`` across line breaks and through ``-/`` and ``"``
(src/Lean/Parser/Basic.lean, ``identFnAux``: ``isIdBeginEscape`` then ``takeUntilFn isIdEndEscape``), as
the lexer does; a module doc holding a nested comment, a raw string whose hashes do not match, a line
comment at the end of the file. After a parse error Lean's command loop (src/Lean/Parser/Module.lean,
``parseCommand``) retries from the error's position, which is a token's start: measured here, it does
not resume inside a string, doc comment or comment after an unexpected ``)``. And the ``local instance``
of an ``attribute [local instance] i in`` prefix (accepted before a helper: Lean expands ``c in d`` to
``section c d end``, src/Lean/Elab/BuiltinCommand.lean ``expandInCmd``) stays inside it even when the
helper after ``in`` does not parse (``test_a_local_instance_stays_in_its_prefix``).

Noticed and left alone: without Mathlib's ``''`` token (the toy Lean) ``''\\n'axiom`` hides the axiom
(Lean reads a char literal where the lexer reads Mathlib's ``''``; every pinned statement imports Mathlib);
``@[«simp»]`` is Lean's ``@[simp]`` (the toy Lean takes it), refused by G2 and G3
as an unknown attribute (a false rejection no published proof is known to make).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._resumed_names import CONSTRUCT as RESUMED
from tests.helpers import lean_edit_failures
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
AXIOM = "axiom zz : False"
HELPER = "theorem zz_t : True := trivial"
# texts the attacks share: a local attribute prefix, a second theorem of the statement's name, a value that
# an instance attribute would make the statement's `2`
LOCAL, SAME = "attribute [local simp] Nat.add_comm in\n", "theorem putnam_1962_a1 : True := trivial"
OF_NAT = "def zz_i : OfNat ℕ 2 := ⟨3⟩\n"
# words of the gates' reasons
META, UNREADABLE, PREFIX = "run code or end the file early", "unreadable source", "not permitted before"

# names Lean resumes reading one character in, at a tactic's place: accepted before, refused now
HOSTILE: dict[str, tuple[str, str]] = {
    "an axiom in the proof": ("proof", f"by\n  simp\n  h{AXIOM}"),
    "an axiom after by": ("proof", f"by x{AXIOM}"),
    "an axiom under a bullet": ("proof", f"by\n  · x{AXIOM}"),
    "an axiom after <;>": ("proof", f"by\n  simp <;> x{AXIOM}"),
    "an axiom after try": ("proof", f"by\n  try x{AXIOM}"),
    "an axiom after all_goals": ("proof", f"by\n  all_goals x{AXIOM}"),
    "an axiom behind a wide first character": ("proof", f"by\n  simp\n  ℕ{AXIOM}"),
    "an axiom in a guillemet name": ("proof", f"by\n  simp\n  «{AXIOM}»"),
    "an axiom behind a base with no digit": ("proof", f"by\n  simp\n  h0b{AXIOM}"),
    "an axiom in a helper's proof": ("before", f"theorem zz_t : True := by\n  h{AXIOM}"),
    "an open for the theorem": ("before", "theorem zz_t : True := by\n  xopen Classical"),
    "an instance for the theorem": ("before", "theorem zz_t : True := by\n  xinstance zz_i : Inhabited ℕ := ⟨3⟩"),
    "a notation": ("before", 'theorem zz_t : True := by\n  xnotation "zzn" => (1 : ℕ)'),
    "a variable for the theorem": ("before", "theorem zz_t : True := by\n  xvariable (zz_h : False)"),
}

# the same names where Lean reads them whole (a term's or binder's place), as published proofs write them
HONEST: dict[str, str] = {
    "hypotheses named so": "by\n  have hopen : True := trivial\n  have hdef := hopen\n  exact hdef",
    "an introduced name": "by\n  intro hlocal\n  exact hlocal",
    "a pattern": "by\n  obtain ⟨hdef, hend⟩ := (⟨trivial, trivial⟩ : True ∧ True)\n  exact hend",
    "a name after exact": "by\n  have haxiom : True := trivial\n  exact haxiom",
}

# attacks refused before this round and after it, as a helper before the theorem: the text, the gate, words
# of its reason
TRIED_HELPERS: dict[str, tuple[str, str, str]] = {
    "#guard_msgs dropping errors": ("#guard_msgs (drop error) in", "G3", META),
    "#guard_msgs": ("#guard_msgs in", "G2", "trailing `... in`"),
    "#check_failure": ("#check_failure (1 : ℕ)", "G3", META),
    "#reduce": ("#reduce (1 : ℕ)", "G3", META),
    "#synth": ("#synth Inhabited ℕ", "G3", META),
    "#count_heartbeats in": ("#count_heartbeats in", "G3", META),
    "#info_trees in": ("#info_trees in", "G3", META),
    "#adaptation_note": ("#adaptation_note /-- x -/", "G3", META),
    "m! with a term": (f'def zz_s := m!"{{1 : ℕ}} {AXIOM} -- "', "G3", "interpolated string"),
    "f! with a term": (f'def zz_s := f!"{{1 : ℕ}} {AXIOM} -- "', "G3", "interpolated string"),
    "dbg_trace with a term": (f'def zz_s : ℕ := dbg_trace "{{1 : ℕ}} {AXIOM} -- "; 1', "G3", UNREADABLE),
    "throwError with a term": (f'def zz_s := throwError "{{1 : ℕ}} {AXIOM} -- "', "G3", UNREADABLE),
    "panic! with a term": (f'def zz_s : ℕ := panic! "{{1 : ℕ}} {AXIOM} -- "', "G3", UNREADABLE),
    "a doc comment closed twice": (f"/-- a -/-/ {AXIOM}", "G3", "axiom"),
    "a char escape Lean refuses": (f"def zz_s := '\\q' -- '\n{AXIOM}", "G3", UNREADABLE),
    "a no-break space": (f"def zz_s := 1\u00a0{AXIOM}", "G3", UNREADABLE),
    "a vertical tab": (f"def zz_s := 1\u000b{AXIOM}", "G3", UNREADABLE),
    "a global instance in the prefix": (f"{OF_NAT}attribute [instance] zz_i in\n{HELPER}", "G3", "instance"),
    "a prioritised instance": (f"{OF_NAT}attribute [instance 10000] zz_i in\n{HELPER}", "G2", PREFIX),
    "a scoped instance": (f"{OF_NAT}attribute [scoped instance] zz_i in\n{HELPER}", "G3", "instance"),
    "a default instance": (f"{OF_NAT}attribute [default_instance] zz_i in\n{HELPER}", "G2", PREFIX),
    "a local simp and a global instance": (f"{OF_NAT}attribute [local simp, instance] zz_i in\n{HELPER}", "G2", PREFIX),
    "a global simp": (f"attribute [simp] Nat.add_comm in\n{HELPER}", "G2", PREFIX),
    "a global irreducible": (f"attribute [irreducible] Nat.add in\n{HELPER}", "G2", PREFIX),
    "a simp erasure": (f"attribute [-simp] Nat.add_comm in\n{HELPER}", "G2", PREFIX),
    "the prefix on a namespace": (f"{LOCAL}namespace zz\n{HELPER}\nend zz", "G2", "namespace"),
    "the prefix on a section": (f"{LOCAL}section\n{HELPER}\nend", "G2", "section"),
    "the prefix on a mutual block": (f"{LOCAL}mutual\n{HELPER}\nend", "G2", "mutual"),
    "a private theorem of the statement's name": (f"private {SAME}", "G2", "differs"),
    "the statement's name in a namespace": (f"namespace zz\n{SAME}\nend zz", "G2", "renamed"),
    "_root_": ("theorem _root_.zz_t : True := trivial", "G2", "_root_"),
    "csimp": ("@[csimp] theorem zz_t : True := trivial", "G3", "csimp"),
    "macro_rules for decide": ("macro_rules | `(tactic| decide) => `(tactic| trivial)", "G3", "macro_rules"),
}  # fmt: skip

# the same, as the theorem's proof
TRIED_PROOFS: dict[str, tuple[str, str, str]] = {
    "bv_decide?": ("by bv_decide?", "G3", "native"),
    "native_decide?": ("by\n  native_decide?", "G3", "native"),
    "decide (native := true)": ("by\n  decide (native := true)", "G3", "native"),
    "decide (config := .native)": ("by\n  decide (config := .native)", "G3", "native"),
    "grind +native": ("by\n  grind +native", "G3", "native"),
    "Lean.Grind.nativeDecide": ("by\n  exact Lean.Grind.nativeDecide", "G3", "Lean"),
    "native_decide in conv": ("by\n  conv => native_decide", "G3", "native"),
    "by_elab": ("by\n  exact (by_elab pure default)", "G3", "meta"),
    "run_tac": ("by\n  run_tac pure ()", "G3", "meta"),
    "the trace tactic": (f'by\n  trace "{{1 : ℕ}} {AXIOM} -- "\n  simp', "G3", UNREADABLE),
    "an end in the proof": ("by\n  simp\nend", "G2", "closes no block"),
}  # fmt: skip

# texts the gates accept; the toy Lean declares nothing hidden in them (`test_lean_declares_nothing_hidden`)
CONSISTENT: dict[str, str] = {
    "a guillemet name over lines": f"def «zz\n{AXIOM}\n» : ℕ := 1",
    "a name literal in guillemets over lines": f"def zz_s := `«a\n{AXIOM}\n»",
    "a guillemet name holding -/": "def «zz -/ » : ℕ := 1",
    "a guillemet name holding a quote": 'def «zz "» : ℕ := 1 -- "',
    "a module doc holding a comment": f"/-! a /- b -/ c -/\n{HELPER}",
    "a raw string with unmatched hashes": f'def zz_s := r#"a" {AXIOM} "#',
    "a line comment at the end": "def zz_s := 1 --",
    "a name literal with a guillemet keyword": "def zz_s := `zz.«axiom»",
    "a local instance for a helper": f"{OF_NAT}attribute [local instance] zz_i in\n{HELPER}",
    "two local attributes for a helper": f"{LOCAL}open Nat in\n{HELPER}",
}


@pytest.mark.parametrize(
    ("place", "name"), [*(("before", n) for n in TRIED_HELPERS), *(("proof", n) for n in TRIED_PROOFS)]
)
def test_each_tried_attack_is_refused(lean_putnambench: Benchmark, place: str, name: str) -> None:
    text, gate, words = (TRIED_HELPERS if place == "before" else TRIED_PROOFS)[name]
    found = lean_edit_failures(lean_putnambench, PID, {place: text + "\n" if place == "before" else text})
    assert words in found.get(gate, ""), found


@pytest.mark.parametrize("name", CONSISTENT)
def test_each_consistent_text_passes(lean_putnambench: Benchmark, name: str) -> None:
    assert lean_edit_failures(lean_putnambench, PID, {"before": CONSISTENT[name] + "\n\n"}) == {}


def _toy_run(toy_lean: ToyLean, folder: Path, text: str) -> str:
    (folder / "T.lean").write_text(text, encoding="utf-8")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [str(toy_lean.lean), "T.lean"], cwd=folder, env=env, capture_output=True, text=True, timeout=120
    )
    return run.stdout + run.stderr


@pytest.mark.parametrize("name", [n for n in CONSISTENT if AXIOM in CONSISTENT[n]])
def test_lean_declares_nothing_hidden(toy_lean: ToyLean, tmp_path: Path, name: str) -> None:
    """The toy Lean reads ``axiom`` inside the name, name literal or string, as the lexer does."""
    out = _toy_run(toy_lean, tmp_path, f"{CONSISTENT[name]}\n#print axioms zz\n")
    assert "Unknown constant `zz`" in out, out


# a class with an instance, and a second value of it that a local attribute makes an instance
_INSTANCES = "class C where\n  v : Nat\ninstance i1 : C := ⟨0⟩\ndef i2 : C := ⟨1⟩\n"


@pytest.mark.parametrize("broken", ["theorem zz_t : True := (", "theorem zz_t : True :=", ")"])
def test_a_local_instance_stays_in_its_prefix(toy_lean: ToyLean, tmp_path: Path, broken: str) -> None:
    """After ``attribute [local instance] i2 in`` and a command that does not parse, ``C.v`` still resolves to
    the instance declared before: Lean elaborates no part of the broken ``in`` command into the file's scope."""
    text = f"{_INSTANCES}attribute [local instance] i2 in\n{broken}\ntheorem zz_zero : Eq C.v 0 := rfl\n"
    out = _toy_run(toy_lean, tmp_path, f"{text}#print axioms zz_zero\n")
    assert "'zz_zero' does not depend on any axioms" in out, out


@pytest.mark.parametrize("name", HOSTILE)
def test_each_command_in_a_name_is_refused(lean_putnambench: Benchmark, name: str) -> None:
    place, text = HOSTILE[name]
    found = lean_edit_failures(lean_putnambench, PID, {place: text + "\n" if place == "before" else text})
    assert RESUMED in found.get("G3", ""), found


@pytest.mark.parametrize("name", HONEST)
def test_each_name_read_whole_passes(lean_putnambench: Benchmark, name: str) -> None:
    assert lean_edit_failures(lean_putnambench, PID, {"proof": HONEST[name]}) == {}


@pytest.mark.parametrize("tactic", [f"h{AXIOM}", f"ℕ{AXIOM}", f"«{AXIOM}»", f"h0b{AXIOM}"])
def test_lean_reads_the_command_in_the_name(toy_lean: ToyLean, tmp_path: Path, tactic: str) -> None:
    """The toy Lean declares the axiom after the name's first character (its prelude has no tactic, so the
    name is the proof's first)."""
    out = _toy_run(toy_lean, tmp_path, f"theorem zz_t : True := by\n  {tactic}\n#print axioms zz\n")
    assert "'zz' depends on axioms: [zz]" in out, out
