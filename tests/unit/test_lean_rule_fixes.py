"""False rejections of sound proofs by the Lean text rules (G2/G3), each fixed against what Lean does, with
the near-misses beside it that must stay refused: helpers after the theorem, helpers in blocks and
namespaces, ``set_option autoImplicit ... in`` on a helper or inside a proof, imports of Mathlib modules,
and Lean's identifier characters in the answer rules (``_idchars``)."""

from __future__ import annotations

import re
import sys

import pytest

from putnam_solver.core.benchmark import Benchmark
from putnam_solver.core.provers.lean import _lexer
from putnam_solver.core.provers.lean._answer_terms import make_token
from putnam_solver.core.provers.lean._idchars import is_digit, is_letter, starts_alnum, starts_digit
from putnam_solver.core.provers.lean._preservation import check_preservation
from putnam_solver.core.provers.lean.syntax import IDENT, NUMBER, SYMBOL
from putnam_solver.core.verify import Track
from tests.helpers import LEAN_BENCH, LEAN_PROVER, failures, lean_filled, lean_text_verdict

BENCHMARK = LEAN_BENCH
B5 = "putnam_1997_b5"  # `def tetration`, binders `n`, `hn`, no solution
A2 = "putnam_2020_a2"  # a solution `ℕ → ℕ`
W, N = Track.WITH_ANSWER, Track.NO_ANSWER
LEMMA = "lemma helper_fact (m : ℕ) : m + 0 = m := rfl\n"


def outcome(bench: Benchmark, candidate: str, problem: str = B5, track: Track = W) -> tuple[str, dict[str, str]]:
    """``accepted``, ``deferred`` (refused on text only for what G6 decides) or ``rejected``, and why."""
    verdict = lean_text_verdict(bench, problem, candidate, track)
    if verdict.status == "accepted":
        return "accepted", {}
    return ("deferred" if verdict.needs_full_profile else "rejected"), failures(verdict)


def accepted_with_g6(bench: Benchmark, candidate: str, problem: str = B5, track: Track = W) -> bool:
    """G2 as an acceptance that runs G6 judges it."""
    challenge = LEAN_PROVER.challenge(bench.problems[problem], track)
    return check_preservation(challenge, candidate, track, semantic=True) == []


# 1. Helpers after the theorem: Lean elaborates commands in order, the statement first.

AFTER_VALID = {
    "a lemma": LEMMA,
    "an example": "example : True := trivial\n",
    "a documented def and #print axioms": f"/-- doc -/\ndef later := 1\n#print axioms {B5}\n",
    "a section with a variable": "section\nvariable (m : ℕ)\n" + LEMMA + "end\n",
    "a namespace the statement names (no longer reachable)": "namespace Nat\n" + LEMMA + "end Nat\n",
    "a dotted name": "theorem Nat.helper_fact' (m : ℕ) : m * 1 = m := by simp\n",
    "a helper with autoImplicit": "set_option autoImplicit true in\nlemma helper_auto (h : x = y) : y = x := h.symm\n",
    "a global printing option": "set_option pp.all true\n",
}


@pytest.mark.parametrize("case", sorted(AFTER_VALID))
def test_a_helper_after_the_theorem_is_harmless(bench: Benchmark, case: str) -> None:
    assert outcome(bench, lean_filled(bench, B5, after=AFTER_VALID[case])) == ("accepted", {})


AFTER_REFUSED = {
    "the theorem declared again": (f"theorem {B5} : True := trivial\n", "G2", "collides with a challenge"),
    "an instance of a library class": ("instance : Inhabited ℕ := ⟨0⟩\n", "G2", "does not define"),
    "a notation": ('notation "tet" => tetration\n', "G3", "notation"),
    "an axiom": ("axiom cheat : False\n", "G3", "axiom"),
    "#eval": ("#eval 1\n", "G3", "#eval"),
    "#exit": ("#exit\n", "G3", "#exit"),
    "a global autoImplicit": ("set_option autoImplicit true\n", "G3", "autoImplicit"),
    "an import": ("import Mathlib.Tactic\n", "G2", "after the header"),
    "an attribute": ("attribute [simp] Nat.add_comm\n", "G3", "attribute"),
    "sorry in the helper": ("lemma later : False := sorry\n", "G3", "sorry"),
}


@pytest.mark.parametrize("case", sorted(AFTER_REFUSED))
def test_what_is_refused_before_the_theorem_is_refused_after_it(bench: Benchmark, case: str) -> None:
    addition, gate, needle = AFTER_REFUSED[case]
    status, why = outcome(bench, lean_filled(bench, B5, after=addition))
    assert status == "rejected" and needle in why.get(gate, ""), why


def test_a_statement_changed_to_use_a_helper_declared_after_it_is_refused(bench: Benchmark) -> None:
    text = lean_filled(bench, B5, after="def tetration' : ℕ → ℕ → ℕ := fun _ _ => 0\n")
    changed = text.replace(": tetration 2 n ≡", ": tetration' 2 n ≡")
    status, why = outcome(bench, changed)
    assert status == "rejected" and "differs from the challenge" in why["G2"], why


def test_a_namespace_around_the_theorem_closed_after_it_is_refused(bench: Benchmark) -> None:
    status, why = outcome(bench, lean_filled(bench, B5, before="namespace Foo\n", after="end Foo\n"))
    assert status == "rejected" and "inside a namespace: renamed" in why["G2"], why


# 2. Helpers in blocks and namespaces before the theorem.


def test_helpers_in_a_closed_section_or_the_problems_own_namespace_are_harmless(bench: Benchmark) -> None:
    section = "section Helpers\n" + LEMMA + "end Helpers\n"
    own = "namespace Putnam1997B5\n" + LEMMA + "end Putnam1997B5\n"
    opened = own + "open Putnam1997B5 in\nlemma helper_two (m : ℕ) : m + 0 = m := helper_fact m\n"
    for before in (section, own, opened):
        assert outcome(bench, lean_filled(bench, B5, before=before)) == ("accepted", {}), before


def test_a_helper_in_another_namespace_is_left_to_g6(bench: Benchmark) -> None:
    """Mathlib's notations expand to field accesses (``x.f``) that the statement's text does not show, so a
    declaration added to a namespace that may exist in the library is decided by G6, not by text."""
    for namespace in ("Foo", "Nat"):
        text = lean_filled(bench, B5, before=f"namespace {namespace}\n{LEMMA}end {namespace}\n")
        status, why = outcome(bench, text)
        assert status == "deferred" and f"namespace `{namespace}`" in why["G2"], why
        assert accepted_with_g6(bench, text)


def test_open_in_the_theorem_is_left_to_g6_and_a_helper_named_like_the_statement_is_refused(
    bench: Benchmark,
) -> None:
    opened = lean_filled(bench, B5, before="namespace Foo\n" + LEMMA + "end Foo\n\nopen Foo in\n")
    assert outcome(bench, opened)[0] == "deferred" and accepted_with_g6(bench, opened)
    shadow = lean_filled(bench, B5, before="namespace Foo\ndef tetration := 0\nend Foo\n")
    assert outcome(bench, shadow)[0] == "rejected" and not accepted_with_g6(bench, shadow)
    unclosed = lean_filled(bench, B5, before="namespace Putnam1997B5\n" + LEMMA)
    assert outcome(bench, unclosed)[0] == "rejected"


# 3. `set_option autoImplicit ... in`: a helper's own signature, or a proof, never the statement.

AUTO_VALID = {
    "before a helper": {"before": "set_option autoImplicit true in\nlemma helper_auto (h : x = y) : y = x := h.symm\n"},
    "relaxed, before a helper": {"before": "set_option relaxedAutoImplicit false in\n" + LEMMA},
    "with an allowed option before a helper": {
        "before": "set_option maxHeartbeats 400000 in\nset_option autoImplicit false in\n" + LEMMA
    },
    "inside the proof": {"proof": "by\n  set_option autoImplicit true in\n  simp"},
    "inside a helper's proof": {
        "before": "lemma helper_in (m : ℕ) : m + 0 = m := by\n  set_option autoImplicit false in\n  simp\n"
    },
}


@pytest.mark.parametrize("case", sorted(AUTO_VALID))
def test_autoimplicit_on_a_helper_or_in_a_proof_is_harmless(bench: Benchmark, case: str) -> None:
    assert outcome(bench, lean_filled(bench, B5, **AUTO_VALID[case])) == ("accepted", {})


AUTO_REFUSED = {
    "before the theorem": {"before": "set_option autoImplicit true in\n"},
    "global, before the theorem": {"before": "set_option autoImplicit true\n"},
    "before an instance": {"before": "set_option autoImplicit true in\ninstance : Inhabited ℕ := ⟨0⟩\n"},
}


@pytest.mark.parametrize("case", sorted(AUTO_REFUSED))
def test_autoimplicit_where_it_reaches_the_statement_is_refused(bench: Benchmark, case: str) -> None:
    status, why = outcome(bench, lean_filled(bench, B5, **AUTO_REFUSED[case]))
    assert status == "rejected" and "autoImplicit" in why.get("G3", "") + why.get("G2", ""), why


def test_autoimplicit_in_a_pinned_declaration_or_an_answer_is_refused(bench: Benchmark) -> None:
    pinned = lean_filled(bench, B5).replace("def tetration", "set_option autoImplicit true in\ndef tetration")
    status, why = outcome(bench, pinned)
    assert status == "rejected" and "`tetration`: differs from the challenge" in why["G2"], why
    statement = lean_filled(bench, B5).replace(": tetration 2 n", ": (set_option autoImplicit true in tetration 2 n)")
    assert outcome(bench, statement)[0] == "rejected"
    answer = lean_filled(bench, A2, N, value="set_option autoImplicit true in fun k => 4 ^ k")
    status, why = outcome(bench, answer, A2, N)
    assert status == "rejected" and "autoImplicit" in why["G3"], why


# 4. Imports of Mathlib's own modules.


def test_a_mathlib_module_import_is_judged_by_the_closure(bench: Benchmark) -> None:
    """Every file under Mathlib/ is imported by Mathlib.lean (mathlib4 scripts/mk_all.lean, checked in CI),
    so any existing ``Mathlib.X`` adds nothing; one that does not exist adds nothing either and fails to
    load, which G4 reports on the profiles that compile. A module outside Mathlib's tree stays refused."""
    for module in ("Mathlib.Data.Real.Basic", "Mathlib.Tactic", "Mathlib.No.Such.Module"):
        text = lean_filled(bench, B5).replace("import Mathlib\n", f"import Mathlib\nimport {module}\n", 1)
        verdict = lean_text_verdict(bench, B5, text)
        assert verdict.status == "accepted", failures(verdict)
        g2 = next(g for g in verdict.gates if g.id == "G2")
        assert "in the closure of `Mathlib`" in g2.evidence["imports_in_closure"][module]
    for module in ("MathlibExtra.Foo", "mathlib.Data.Real.Basic", "Mathlib2"):
        text = lean_filled(bench, B5).replace("import Mathlib\n", f"import Mathlib\nimport {module}\n", 1)
        status, why = outcome(bench, text)
        assert status == "rejected" and "a new import" in why["G2"], (module, why)


# 5. Lean's identifier characters, not Python's.

LEAN_DEF = """import Mathlib

def {f} (n : ℕ) : ℕ := n + 1

abbrev putnam_x_solution : ℕ → ℕ := sorry

theorem putnam_x : ∀ n : ℕ, {f} ({f} n) = putnam_x_solution n := by sorry"""


@pytest.mark.parametrize("name", ["g", "℘", "℧", "ℓ", "𝔣"])
def test_a_copy_is_refused_whatever_letters_its_names_use(name: str) -> None:
    """``℘`` (U+2118) and ``℧`` (U+2127) are Lean letters (the Letterlike Symbols block) that Python's
    ``str.isalpha`` calls symbols: a copied side named with them read as no question and was accepted."""
    challenge = LEAN_DEF.format(f=name)
    copy = challenge.replace(":= sorry", f":= fun n => {name} ({name} n)").replace("by sorry", "fun n => rfl")
    found = check_preservation(challenge, copy, N)
    assert any("the answer is the other side" in str(v) for v in found), found
    honest = challenge.replace(":= sorry", ":= fun n => n + 2").replace("by sorry", "fun n => rfl")
    assert check_preservation(challenge, honest, N) == []


def test_answer_tokens_get_leans_kinds() -> None:
    kinds = {text: make_token(text, None).kind for text in ("λ", "Π", "Σ", "²", "₂", "١", "℘", "ℕ", "x₁", "7", "«a b»")}
    assert kinds == {
        "λ": SYMBOL,
        "Π": SYMBOL,
        "Σ": SYMBOL,
        "²": SYMBOL,
        "₂": SYMBOL,
        "١": SYMBOL,
        "℘": IDENT,
        "ℕ": IDENT,
        "x₁": IDENT,
        "7": NUMBER,
        "«a b»": IDENT,
    }
    assert not starts_digit("²") and not starts_alnum("λ") and starts_alnum("℘")


def is_subscript_alnum(c: str) -> bool:
    """Lean's ``isSubScriptAlnum`` (src/Init/Meta/Defs.lean at 024d2419, lines 114-118): subscript digits
    and letters, which may continue a name, never start it."""
    v = ord(c)
    return 0x2080 <= v <= 0x2089 or 0x2090 <= v <= 0x209C or 0x1D62 <= v <= 0x1D6A or v == 0x2C7C


def is_id_first(c: str) -> bool:
    """Lean's ``isIdFirst`` (lines 120-121): what may begin an identifier (besides the escape ``«``)."""
    return c == "_" or is_letter(c)


def is_id_rest(c: str) -> bool:
    """Lean's ``isIdRest`` (lines 133-134): what may continue an identifier."""
    return is_id_first(c) or is_digit(c) or c in "'!?" or is_subscript_alnum(c)


def test_the_predicate_and_the_lexer_agree_on_every_code_point() -> None:
    first = re.compile(f"[{_lexer._ID_FIRST}]")
    rest = re.compile(f"[{_lexer._ID_REST}]")
    for code in range(sys.maxunicode + 1):
        c = chr(code)
        assert is_id_first(c) == bool(first.fullmatch(c)), hex(code)
        assert is_id_rest(c) == bool(rest.fullmatch(c)), hex(code)
