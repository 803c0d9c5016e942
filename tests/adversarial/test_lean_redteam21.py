"""Red team 21 (Lean): spellings no earlier round wrote, against real PutnamBench problems, on the text profile.

Tried (about 450 candidates, and 60 shapes repeated thousands of times for run time): commands Mathlib
adds that run or register code (``compile_inductive%``,
``suppress_compilation``, ``declare_simp_like_tactic``, ``simproc_decl``, ``builtin_simproc``,
``declare_config_elab``, ``initialize_simps_projections``, ``mk_iff_of_inductive_prop``, ``library_note``,
``assert_not_exists``, ``recommended_spelling``, ``seal``/``unseal``, ``reserve infixl``), new kinds of
declaration (``class``, ``class inductive``, ``coinductive``, ``deriving`` on a ``def``/``abbrev``,
``deriving Lean.ToJson``/``ToExpr``), attributes in new places (an inductive's constructor, a structure's field,
``@ [instance]`` spaced, ``@[simp (instance)]``, ``@[specialize instance]``, a comment inside ``@[``, ``where``
and ``let rec`` in the proof, on an ``example``), ``set_option ... in`` before ``mutual``/``namespace``,
``hygiene``, ``tactic.hygienic``, ``synthInstance.maxSize``, ``open`` in every ``in`` form (``hiding``,
``(x)``, ``scoped``, ``_root_``, after the docstring, stacked with ``set_option ... in``), the theorem made
``noncomputable``/``nonrec``/``unsafe``/``partial``/``lemma``/``def``/``abbrev``/``example``/``instance``, with a
universe, ``«»``, ``_root_``, a fullwidth ``＿``, its binders and types edited (``{}``, ``⦃⦄``, an instance
binder, ``Real`` for ``ℝ``, ``Prod``, ``S .ncard``, ``Set.ncard S``), header edits (``import Lean``,
``Batteries``, ``Plausible``, ``Lake``, ``«Mathlib»``, ``module``, ``public``/``meta``/``all`` imports),
proof holes and escapes (``«run_tac»``, ``«stop»``, ``«bv_decide»``, ``«plausible»``, ``decide +«native»``,
``{native := true}``, ``open Lean in exact ofReduceBool``, ``type_of%``, ``macro`` and ``#eval`` inside a
tactic block, ``sorry`` inside ``s!``/``m!``/``f!`` interpolation and after ``throwError``, ``conv => sorry``,
``aesop (add safe (by sorry))``), numerals glued to names (``1e5sorry``, ``0x1fsorry``, ``1e+sorry``), NUL,
U+00A0, U+3000, U+2029, a combining accent, mathematical italic letters, 2 MB of comment, 20,000 nested
brackets; on the no-answer track, 60 values: commands after the value (indented or not), ``where``/``let
rec``/``open ... in`` values, choice operators, the candidate's own helper, and the question's condition
copied in 30 rewrites; on the with-answer track, the ``abbrev`` form kept with its answer edited (``{1, 1}``,
``({1} : Set ℕ)``, ``by exact``, ``def``, ``@[simp]``, ``private``, ``«»``, ``where``, ``open ... in``); every
command keyword glued after Mathlib's ``→r``/``↪o`` (``→rvariable``, ``→runiverse``, ``→rinstance``...);
a trailing ``... in`` after ``#check``, ``#print``, a ``def``, an ``example``, ``section``, ``universe``,
``variable``, ``end``, a ``structure``; ``open ... in`` and ``set_option ... in`` before ``section`` (Lean
expands ``c in section`` to ``section c section end``, which leaves ``c`` in force).

Found and fixed (each accepted by the text profile before):

* The copy rule did not read Lean's other spellings of the same notation (``_answer_spelling``). Against
  ``putnam_2024_a1`` the question's condition with ``exists`` for ``∃`` or ``/\\`` for ``∧`` was no copy to it,
  nor with its binder group split, ``∃ (a : ℕ) (b : ℕ) (c : ℕ)`` for ``∃ (a b c : ℕ)``: the canonical form
  skipped a type up to the next binder end, so ``b`` and ``c`` were read as more of ``a``'s type and never
  bound. Lean's grammar reads ``exists``/``forall``/``λ``/``->``/``↦``/``/\\``/``\\/``/``<->``/``<=``/``>=`` as
  ``∃``/``∀``/``fun``/``→``/``=>``/``∧``/``∨``/``↔``/``≤``/``≥``, and several bracketed groups as one
  binder each; the canonical form now does too.
* G2's helper-name rule exempts names the theorem binds, and took every bracket with a name before its
  ``:`` for a binder, so the type ascription ``(choose s i : ℚ)`` in ``putnam_1987_b2`` made ``choose``
  (``Nat.choose``, through ``open Nat``) "bound" and a helper ``def choose`` passed; likewise ``X`` beside
  ``(X : Polynomial ℝ)`` (``putnam_1985_b1``, ``putnam_2017_a2``) and the notation ``ℙ`` (``putnam_1968_b1``).
  A bracket binds now only where Lean reads a binder group (``syntax.bound_names``); the names really
  bound in set-builder patterns, after the ``|`` of the image form, in ``∀ᵉ`` chains and before a
  dependent arrow still are (valid cases below).
* Two inputs ran the text gates out of their 30 s bound (each refused then by the clock, not the rules; the
  class of DESIGN §7's "input that makes a text gate run long"): an ``instance`` with 8,000 binders (G2 found
  the type's ``:`` by recounting the depth before every colon, ``_declarations``) and a no-answer value of
  4,000 ``∃ (`` left open (the answer reading walked to the end of the value from every binder,
  ``_answer_terms.Text.find``). Both are one pass now; a sweep of 40 other repeated shapes (helpers,
  sections, attributes, ``where``, ``let rec``, glued names, nested sets...) grew linearly.

Left (limits the modules say, for the check by meaning): a copy reordered (``4*c^n = 2*a^n + 3*b^n``,
``3*b^n + 2*a^n``), written through the functions behind the notation (``Eq a b``, ``HAdd.hAdd``), or padded
inside an argument (``c^(n+0)``). Not attacks: ``exact?``/``apply?``/``hint``/``rw??`` (their holes reach
G4/G5), ``Kernel.isDefEq``/``Meta.mkSorry`` without ``open Lean`` (no such names), ``ptrAddrUnsafe`` (an
``unsafe`` constant the kernel refuses in a theorem), a doc comment edited (it is no part of the statement).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean._answer_spelling import one_spelling
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.verify import Track
from tests.helpers import failures, lean_filled, lean_text_verdict

PID = "putnam_1962_a1"
NAME = "theorem putnam_1962_a1"
COPY = "2024_a1"
Q = "0 < n ∧ ∃ (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"

SPLIT = "∃ (a : ℕ) (b : ℕ) (c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n"
BYPASSES_NO_ANSWER: dict[str, str] = {
    "exists for ∃": "{n : ℕ | 0 < n ∧ exists (a b c : ℕ), 0 < a ∧ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
    "/\\ for ∧": "{n : ℕ | 0 < n /\\ ∃ (a b c : ℕ), 0 < a /\\ 0 < b ∧ 0 < c ∧ 2*a^n + 3*b^n = 4*c^n}",
    "a binder group split": "{n : ℕ | 0 < n ∧ " + SPLIT + "}",
    "all three at once": "{n : ℕ | 0 < n /\\ exists (a : ℕ) (b : ℕ) (c : ℕ), 0 < a /\\ 0 < b /\\ 0 < c /\\ "
    "2*a^n + 3*b^n = 4*c^n}",
    "groups split, 1 <= n": "{n : ℕ | 1 <= n ∧ " + SPLIT + "}",
}
"""No-answer values for ``putnam_2024_a1`` that copy the question and passed the text profile before."""

REFUSED_NO_ANSWER: dict[str, str] = {
    "λ": "λ n => " + Q,
    "fun ↦": "fun n ↦ " + Q,
    "fun with a typed group": "fun (n : ℕ) => " + Q,
    "a where helper holding the copy": "zz\nwhere zz : Set ℕ := {n : ℕ | " + Q + "}",
    "let rec holding the copy": "let rec zz : Set ℕ := {n : ℕ | " + Q + "}; zz",
    "image of id": "(fun (n : ℕ) => n) '' {n : ℕ | " + Q + "}",
    "Set.univ ∩": "Set.univ ∩ {n : ℕ | " + Q + "}",
    "∪ ∅": "{n : ℕ | " + Q + "} ∪ ∅",
    "preimage of id": "id ⁻¹' {n : ℕ | " + Q + "}",
    "decide = true": "{n : ℕ | decide (" + Q + ") = true}",
    "if True": "if True then {n : ℕ | " + Q + "} else ∅",
    "Function.const": "Function.const ℕ {n : ℕ | " + Q + "} 0",
    "@setOf": "@setOf ℕ (fun n => " + Q + ")",
    "an indented open after the value": "{1}\n  open Real",
    "an indented instance after the value": "{1}\n  instance : Inhabited ℕ := ⟨3⟩",
    "an export after the value": "{1}\n  export Nat (succ)",
    "a section with a variable after the value": "{1}\nsection\nvariable (x : ℕ)",
    "a namespace after the value": "{1}\nnamespace Zz",
    "set_option autoImplicit ... in": "set_option autoImplicit true in {1}",
    "«sorry»": "«sorry»",
    "Exists.choose": "(Exists.choose ⟨{1}, trivial⟩ : Set ℕ)",
    "exact?": "by exact?",
}
"""Values for ``putnam_2024_a1`` tried and refused (G2 or G3)."""


def _no_answer(bench: Benchmark, value: str, before: str = "") -> dict[str, str]:
    pid = f"putnam_{COPY}"
    text = lean_filled(bench, pid, track=Track.NO_ANSWER, value=value, before=before)
    verdict = lean_text_verdict(bench, pid, text, Track.NO_ANSWER)
    return failures(verdict) if verdict.status != "accepted" else {}


@pytest.mark.parametrize("case", sorted(BYPASSES_NO_ANSWER))
def test_a_copy_in_another_spelling_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    found = _no_answer(lean_putnambench, BYPASSES_NO_ANSWER[case])
    assert "the other side of the statement's own" in found.get("G2", ""), found


@pytest.mark.parametrize("case", sorted(REFUSED_NO_ANSWER))
def test_a_gamed_answer_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    assert _no_answer(lean_putnambench, REFUSED_NO_ANSWER[case])


VALID_NO_ANSWER: dict[str, tuple[str, str]] = {
    "the official answer": ("{1}", ""),
    "an honest answer in ASCII logic": ("{n : ℕ | 0 < n /\\ n <= 1}", ""),
    "an honest answer with binder groups": ("{n : ℕ | ∃ (m : ℕ) (k : ℕ), m = 1 ∧ k = 0 ∧ n = m + k}", ""),
    "a helper defined before, not used by the value": ("{1}", "def zzHelper : Set ℕ := {1}\n\n"),
}


@pytest.mark.parametrize("case", sorted(VALID_NO_ANSWER))
def test_an_honest_answer_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    value, before = VALID_NO_ANSWER[case]
    assert _no_answer(lean_putnambench, value, before) == {}


ASCRIBED: list[tuple[str, str]] = [
    ("putnam_1987_b2", "choose"),  # (choose s i : ℚ), Nat.choose through `open Nat`
    ("putnam_1985_b1", "X"),  # (X : Polynomial ℝ), Polynomial.X through `open Polynomial`
    ("putnam_2017_a2", "X"),
    ("putnam_1968_b1", "ℙ"),  # [IsProbabilityMeasure (ℙ : Measure Ω)]
]
"""A helper named like a name the statement uses in a type ascription (the second bypass): refused."""
BOUND: list[tuple[str, str]] = [
    ("putnam_1962_a1", "hS"),  # a parameter
    ("putnam_1963_b2", "m"),  # {2 ^ m * 3 ^ n | (m : ℤ) (n : ℤ)}
    ("putnam_1974_b1", "hq"),  # {d q | (q) (hq : ∀ i, ‖q i‖ = 1)}
    ("putnam_1973_a3", "k"),  # {k + (n : ℝ)/(k : ℝ) | k > (0 : ℤ)}
    ("putnam_1980_a6", "u"),  # {(u : ℝ) | ...}
    ("putnam_2005_b2", "k"),  # {((n : ℕ), (k : ℕ → ℤ)) | ...}
    ("putnam_1978_a4", "inst"),  # (S : Type) → [inst : Mul S] → Prop
    ("putnam_1984_a6", "ha"),  # ∀ᵉ (k > 0) (a : Fin k → ℕ) (ha : Injective a), ...
    ("putnam_2018_a3", "hx"),  # {∑ i, ... | (x : Fin 10 → ℝ) (hx : ...)}
]
"""A helper named like a variable the statement binds: harmless, accepted (published proofs name helpers
freely)."""


@pytest.mark.parametrize(("pid", "name"), ASCRIBED)
def test_a_helper_named_like_an_ascribed_name_is_refused(lean_putnambench: Benchmark, pid: str, name: str) -> None:
    verdict = lean_text_verdict(
        lean_putnambench, pid, lean_filled(lean_putnambench, pid, before=f"def {name} : ℕ := 0\n\n")
    )
    assert "is a name the challenge uses" in failures(verdict).get("G2", ""), failures(verdict)


@pytest.mark.parametrize(("pid", "name"), BOUND)
def test_a_helper_named_like_a_bound_variable_is_accepted(lean_putnambench: Benchmark, pid: str, name: str) -> None:
    verdict = lean_text_verdict(
        lean_putnambench, pid, lean_filled(lean_putnambench, pid, before=f"def {name} : ℕ := 0\n\n")
    )
    assert verdict.status == "accepted", failures(verdict)


@pytest.mark.parametrize(("pid", "name"), [*ASCRIBED, *BOUND])
def test_bound_names_follow_binder_positions(lean_putnambench: Benchmark, pid: str, name: str) -> None:
    bound = parse_statement(lean_putnambench.problems[pid].formal_statement).bound_names
    assert (name in bound) == ((pid, name) in BOUND)


def test_one_spelling_reads_lean_alternatives() -> None:
    texts = ["forall", "x", ",", "p", "/", "\\", "q", "\\", "/", "r", "<-", ">", "s", "->", "a", "<=", "b"]
    assert one_spelling(texts, types=True) == ["∀", "x", ",", "p", "∧", "q", "∨", "r", "↔", "s", "→", "a", "≤", "b"]
    grouped = ["∃", "(", "a", ":", "ℕ", ")", "(", "b", ":", "(", "ℕ", ")", ")", ",", "P"]
    assert one_spelling(grouped, types=False) == ["∃", "(", "a", ")", "(", "b", ")", ",", "P"]
    ascription = ["f", "(", "a", ":", "ℕ", ")"]  # not after a binder: untouched
    assert one_spelling(ascription, types=False) == ascription


Edit = dict[str, str] | Callable[[str], str]


def _rep(old: str, new: str) -> Callable[[str], str]:
    return lambda text: text.replace(old, new, 1)


REFUSED: dict[str, Edit] = {
    "compile_inductive%": {"before": "compile_inductive% Nat\n\n"},
    "suppress_compilation": {"before": "suppress_compilation\n\n"},
    "class with a parent": {"before": "class Zz extends Inhabited Nat where\n  x : Nat\n\n"},
    "class inductive": {"before": "class inductive Zz : Prop\n  | mk\n\n"},
    "coinductive": {"before": "coinductive Zz : Prop\n  | mk : Zz → Zz\n\n"},
    "deriving on an abbrev": {"before": "abbrev Zz := ℕ deriving Inhabited\n\n"},
    "deriving Lean.ToJson": {"before": "structure Zz where\n  x : ℕ\nderiving Lean.ToJson\n\n"},
    "deriving ToExpr": {"before": "structure Zz where\n  x : ℕ\nderiving ToExpr\n\n"},
    "«Lean».Elab": {"before": "def zz := «Lean».Elab.admitGoal\n\n"},
    "declare_simp_like_tactic": {"before": 'declare_simp_like_tactic zz "zz " fun _ => pure ()\n\n'},
    "simproc_decl": {"before": "simproc_decl zz (_) := fun _ => return .continue\n\n"},
    "builtin_simproc": {"before": "builtin_simproc zz (_) := fun _ => return .continue\n\n"},
    "declare_config_elab": {"before": "declare_config_elab zz Nat\n\n"},
    "recommended_spelling": {"before": 'recommended_spelling "zz" for "≤" in [LE.le]\n\n'},
    "seal": {"before": "seal Set.ncard\n\n"},
    "reserve infixl": {"before": 'reserve infixl:65 " +++ "\n\n'},
    "instance with a priority": {"before": "instance (priority := high) zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[simp (instance)]": {"before": "@[simp (instance)] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@[specialize instance]": {"before": "@[specialize instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "a comment inside @[": {"before": "@[/- x -/ instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "@ [instance] spaced": {"before": "@ [instance] def zz : Inhabited ℕ := ⟨3⟩\n\n"},
    "an attribute on a constructor": {"before": "inductive Zz\n  | @[match_pattern] a\n\n"},
    "an attribute on a field": {"before": "structure Zz where\n  @[implemented_by id] f : Nat\n\n"},
    "@[instance] on an example": {"before": "@[instance] example : Inhabited ℕ := ⟨3⟩\n\n"},
    "set_option hygiene in": {"before": "set_option hygiene false in\n"},
    "set_option tactic.hygienic in": {"before": "set_option tactic.hygienic false in\n"},
    "set_option synthInstance.maxSize in": {"before": "set_option synthInstance.maxSize 1 in\n"},
    "set_option autoImplicit in mutual": {
        "before": "set_option autoImplicit true in\nmutual\ntheorem zz : True := trivial\nend\n\n"
    },
    "open ... hiding ... in": {"before": "open Real hiding pi in\n"},
    "open _root_ in": {"before": "open _root_ in\n"},
    "open ... in then set_option ... in": {"before": "open Real in\nset_option maxHeartbeats 400000 in\n"},
    "open ... in after the docstring": _rep(NAME, "open Real in\n" + NAME),
    "the theorem in a mutual block": {"before": "mutual\n", "after": "end\n"},
    "noncomputable theorem": _rep(NAME, "noncomputable " + NAME),
    "nonrec theorem": _rep(NAME, "nonrec " + NAME),
    "lemma for theorem": _rep(NAME, "lemma putnam_1962_a1"),
    "instance for theorem": _rep(NAME, "instance putnam_1962_a1"),
    "a universe on the name": _rep(NAME, NAME + ".{u}"),
    "a fullwidth low line": _rep(NAME, "theorem putnam＿1962_a1"),
    "an instance binder added": _rep("(S : Set", "[Inhabited ℕ] (S : Set"),
    "a strict-implicit binder": _rep("(S : Set", "⦃S : Set"),
    "Prod for ×": _rep("(ℝ × ℝ)", "(Prod ℝ ℝ)"),
    "S .ncard": _rep("S.ncard = 5", "S .ncard = 5"),
    "import Lean": _rep("import Mathlib\n", "import Mathlib\nimport Lean\n"),
    "import Plausible": _rep("import Mathlib\n", "import Mathlib\nimport Plausible\n"),
    "import «Mathlib»": _rep("import Mathlib\n", "import «Mathlib»\n"),
    "meta import": _rep("import Mathlib\n", "import Mathlib\nmeta import Mathlib\n"),
    "module": lambda text: "module\n" + text,
    "NUL in code": {"before": "def zz := \x00 3\n\n"},
    "a no-break space": {"before": "def\u00a0zz := 3\n\n"},
    "an ideographic space": {"before": "def\u3000zz := 3\n\n"},
    "a paragraph separator": _rep("\n(S", "\u2029(S"),
    "«run_tac»": {"proof": "by\n  «run_tac» pure ()"},
    "«stop»": {"proof": "by\n  «stop»"},
    "«bv_decide»": {"proof": "by\n  «bv_decide»"},
    "«plausible»": {"proof": "by\n  «plausible»"},
    "decide +«native»": {"proof": "by\n  decide +«native»"},
    "{native := true}": {"proof": "by\n  decide (config := { native := true })"},
    "open Lean in exact ofReduceBool": {"proof": "by\n  open Lean in exact ofReduceBool _ _ rfl"},
    "set_option «debug».skipKernelTC in a tactic": {
        "proof": "by\n  set_option «debug».skipKernelTC true in\n  trivial"
    },
    "macro in a tactic block": {"proof": 'by\n  macro "zz" : tactic => `(tactic| sorry)\n  zz'},
    "#eval in a tactic block": {"proof": "by\n  #eval 1\n  trivial"},
    "sorry in s! interpolation": {"proof": 'by\n  have := s!"{(sorry : Nat)}"\n  trivial'},
    "sorry in m! after spaces": {"proof": 'by\n  have := m!  "{(sorry : Nat)}"\n  trivial'},
    "sorry in s! after a comment": {"proof": 'by\n  have := s! /- c -/ "{(sorry : Nat)}"\n  trivial'},
    "sorry after throwError": {"proof": 'by\n  have := throwError "{sorry}"\n  trivial'},
    "conv => sorry": {"proof": "by\n  conv => sorry"},
    "aesop (add safe (by sorry))": {"proof": "by\n  aesop (add safe (by sorry))"},
    "sorry glued to a numeral": {"proof": "by\n  exact (1e5sorry)"},
    "sorry glued to a hex numeral": {"proof": "by\n  exact (0x1fsorry)"},
    "@[csimp] on let rec": {"proof": "let rec @[csimp] zz : True := trivial; zz"},
    "@[instance] on where": {"proof": "zz\nwhere\n  @[instance] zz : True := trivial"},
    "→rvariable": {"before": "def zzg : ℕ →rvariable (hzz : False)\n\n"},
    "→runiverse": {"before": "def zzg : ℕ →runiverse zzu\n\n"},
    "↪oinclude": {"before": "def zzg : ℕ ↪oinclude hS\n\n"},
    "→rinstance": {"before": "def zzg : ℕ →rinstance : Inhabited ℕ := ⟨3⟩\n\n"},
    "#check ... in": {"before": "#check 1 in\n"},
    "def ... in": {"before": "def zz := 1 in\n"},
    "section in": {"before": "section in\n"},
    "end in": {"before": "section\nend in\n"},
    "open ... in section": {"before": "open Real in\nsection\n", "after": "end\n"},
    "set_option autoImplicit ... in section": {
        "before": "set_option autoImplicit true in\nsection\n",
        "after": "end\n",
    },
}
"""Candidates for ``putnam_1962_a1`` tried and refused by G2 or G3: ``before``/``proof``/``after`` edits of
:func:`lean_filled`, or an edit of the filled text."""


def _candidate(bench: Benchmark, edit: Edit) -> str:
    return edit(lean_filled(bench, PID)) if callable(edit) else lean_filled(bench, PID, **edit)


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_an_attack_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(lean_putnambench, PID, _candidate(lean_putnambench, REFUSED[case]))
    assert verdict.status == "rejected" and {"G2", "G3"} & set(failures(verdict)), failures(verdict)


VALID: dict[str, Edit] = {
    "a class (refused before round 32)": {"before": "class Zz where\n  x : Nat\n\n"},
    "a structure extending a class": {"before": "structure Zz extends Fact False\n\n"},
    "an unclosed noncomputable section": {"before": "noncomputable section\n\n"},
    "two resource options ... in": {"before": "set_option maxHeartbeats 0 in\nset_option maxRecDepth 1000 in\n"},
    "@[simp ←] on a helper": {"before": "@[simp ←] theorem zz : True ↔ True := Iff.rfl\n\n"},
    "a have of an instance in an example": {
        "before": "example : True := by\n  have : Inhabited ℕ := ⟨3⟩\n  trivial\n\n"
    },
    "#check of a tactic term": {"before": "#check (by exact 3 : ℕ)\n\n"},
    "#print of a string": {"before": '#print "hello"\n\n'},
    "decreasing_by without holes": {
        "before": "def zz : ℕ → ℕ\n  | 0 => 0\n  | n+1 => zz n\ndecreasing_by all_goals simp_wf; omega\n\n"
    },
    "a comment inside the statement": _rep("(hS : S.ncard = 5)", "(hS : S.ncard /- five -/ = 5)"),
    "T\\{t} unspaced": _rep("(T \\ {t})", "(T\\{t})"),
}
"""Near-neighbours that change nothing the statement means: accepted."""


@pytest.mark.parametrize("case", sorted(VALID))
def test_a_harmless_neighbour_is_accepted(lean_putnambench: Benchmark, case: str) -> None:
    verdict = lean_text_verdict(lean_putnambench, PID, _candidate(lean_putnambench, VALID[case]))
    assert verdict.status == "accepted", failures(verdict)


LONG_RUNNING: dict[str, tuple[str, Track, dict[str, str]]] = {
    "an instance with 8,000 binders": (
        PID,
        Track.WITH_ANSWER,
        {"before": "instance zz : Zz " + "(a : b) " * 8000 + ":= sorry\n\n"},
    ),
    "a value of 4,000 unclosed binders": (
        f"putnam_{COPY}",
        Track.NO_ANSWER,
        {"value": "{n : ℕ | " + "∃ (" * 4000 + "}"},
    ),
}
"""Inputs that ran the text gates out of their time bound (a rescan per binder, quadratic): each is now judged
by the rules, not by the clock (no timing is asserted: a verdict that says the gates did not finish fails)."""


@pytest.mark.parametrize("case", sorted(LONG_RUNNING))
def test_a_long_input_is_judged_by_the_rules(lean_putnambench: Benchmark, case: str) -> None:
    pid, track, edit = LONG_RUNNING[case]
    verdict = lean_text_verdict(lean_putnambench, pid, lean_filled(lean_putnambench, pid, track=track, **edit), track)
    assert verdict.status != "error" and "did not finish" not in str(failures(verdict)), failures(verdict)


ABBREV = "noncomputable abbrev putnam_2024_a1_solution : Set ℕ := {1}\n"
KEPT_ANSWER = (
    "import Mathlib\n\n" + ABBREV + "/--\nDetermine.\n-/\ntheorem putnam_2024_a1 :\n    {n : ℕ | " + Q + "}\n"
    "      = putnam_2024_a1_solution := by\n  simp\n"
)
ABBREV_EDITS: dict[str, tuple[str, str]] = {
    "{1, 1}": (":= {1}", ":= {1, 1}"),
    "an ascription": (":= {1}", ":= ({1} : Set ℕ)"),
    "by exact": (":= {1}", ":= by exact {1}"),
    "def": ("noncomputable abbrev", "noncomputable def"),
    "@[simp]": ("noncomputable abbrev", "@[simp] noncomputable abbrev"),
    "private": ("noncomputable abbrev", "private noncomputable abbrev"),
    "«»": ("abbrev putnam_2024_a1_solution", "abbrev «putnam_2024_a1_solution»"),
    "where": (":= {1}", ":= zz\nwhere zz : Set ℕ := {1}"),
    "open ... in": ("noncomputable abbrev", "open Nat in\nnoncomputable abbrev"),
}
"""With-answer candidates that keep the ``abbrev`` with the official answer (``{1}``), edited: refused."""


@pytest.mark.parametrize("case", sorted(ABBREV_EDITS))
def test_the_kept_answer_edited_is_refused(lean_putnambench: Benchmark, case: str) -> None:
    old, new = ABBREV_EDITS[case]
    verdict = lean_text_verdict(lean_putnambench, f"putnam_{COPY}", KEPT_ANSWER.replace(old, new, 1))
    assert "G2" in failures(verdict), failures(verdict)


@pytest.mark.parametrize(
    "edit", [("", ""), ("noncomputable abbrev", "abbrev"), ("noncomputable", "/-- the answer -/\nnoncomputable")]
)
def test_the_kept_answer_is_accepted(lean_putnambench: Benchmark, edit: tuple[str, str]) -> None:
    text = KEPT_ANSWER.replace(*edit, 1) if edit[0] else KEPT_ANSWER
    verdict = lean_text_verdict(lean_putnambench, f"putnam_{COPY}", text)
    assert verdict.status == "accepted", failures(verdict)
