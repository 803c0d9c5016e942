"""G2/G3 rules that published proofs need (issue 29): imports in the challenge's closure, printing options,
read-only commands, the header's `open` split over lines, and spacing that Lean's grammar ignores. Each
accepted form has refused neighbours beside it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from putnam_solver.core.provers.lean._preservation import check_preservation
from putnam_solver.core.provers.lean.checks import check_forbidden, leave_to_g2
from putnam_solver.core.provers.lean.imports import closure_for, header_imports
from putnam_solver.core.provers.lean.syntax import parse_statement
from putnam_solver.core.provers.lean.toolchain import ToolchainPaths, lean_release
from putnam_solver.core.verify import Track
from putnam_solver.kits.installing import InstallError
from putnam_solver.kits.lean.closure import build_closure, import_closure_step, unresolved
from tests.helpers import DATA_ROOT

CHALLENGE = """import Mathlib

set_option maxHeartbeats 0

open BigOperators Real Nat Topology Rat

theorem mathd_algebra_107
  (x y : ℝ)
  (h₀ : x^2 + 8 * x + y^2 - 6 * y = 0) :
  (x + 4)^2 + (y-3)^2 = 5^2 := by sorry"""
PROOF = " := by\n  nlinarith [h₀]\n"
CLOSURE = closure_for("v4.24.0", ["Mathlib"])


def g2(candidate: str, semantic: bool = False) -> list[str]:
    return [
        str(v) for v in check_preservation(CHALLENGE, candidate, Track.WITH_ANSWER, semantic=semantic, closure=CLOSURE)
    ]


def candidate(
    header: str,
    statement: str = "(x y : ℝ) (h₀ : x^2 + 8 * x + y^2 - 6 * y = 0) :\n  (x + 4)^2 + (y-3)^2 = 5^2",
    tail: str = "",
) -> str:
    return f"{header}\n\ntheorem mathd_algebra_107 {statement}{PROOF}{tail}"


HEADER = "import Mathlib\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat"


def test_the_challenge_itself_passes() -> None:
    assert g2(candidate(HEADER)) == []


def test_spacing_around_binary_minus_is_layout_application_gluing_is_not() -> None:
    spaced = "(x y : ℝ) (h₀ : x ^ 2 + 8 * x + y ^ 2 - 6 * y = 0) :\n    (x + 4) ^ 2 + (y - 3) ^ 2 = 5 ^ 2"
    assert g2(candidate(HEADER, spaced)) == []
    assert g2(candidate(HEADER, spaced.replace("(y - 3)", "(y -3)"))) == []
    assert g2(candidate(HEADER, spaced.replace("(y - 3)", "(y - -3)")))  # another term
    assert g2(candidate(HEADER, spaced.replace("(h₀ :", "(h₀:"))) == []
    # `)(` keeps its spacing: between binders Lean ignores it, between application arguments `checkWsBefore`
    # makes it count (src/Lean/Parser/Term.lean `argPrec`), and the text rule cannot tell the two apart
    assert g2(candidate(HEADER, spaced.replace("(x y : ℝ) (h₀", "(x y : ℝ)(h₀")))


@pytest.mark.parametrize("module", ["Aesop", "Qq", "Mathlib.Tactic", "Mathlib.Data.Real.Basic", "Init"])
def test_an_import_in_the_closure_of_the_challenges_imports_is_harmless(module: str) -> None:
    assert g2(candidate(HEADER.replace("import Mathlib", f"import Mathlib\nimport {module}"))) == []
    assert g2(candidate(HEADER.replace("import Mathlib", f"import {module}\nimport Mathlib"))) == []


@pytest.mark.parametrize(
    ("header", "why"),
    [
        ("import Mathlib\nimport MyLib", "a new import"),
        ("import Mathlib\nimport Mathlibx", "a new import"),
        ("import Mathlib\nimport all Aesop", "only a plain"),
        ("import Mathlib\nset_option maxHeartbeats 0\nimport Aesop", "after the header"),
    ],
)
def test_other_imports_stay_refused(header: str, why: str) -> None:
    found = g2(candidate(header + "\nopen BigOperators Real Nat Topology Rat"))
    assert any(why in v for v in found), found


def test_no_closure_for_an_unknown_release_refuses_every_new_import() -> None:
    found = check_preservation(
        CHALLENGE,
        candidate(HEADER.replace("import Mathlib", "import Mathlib\nimport Aesop")),
        Track.WITH_ANSWER,
        closure=closure_for("v9.9.9", ["Mathlib"]),
    )
    assert found


def test_printing_options_and_read_only_commands_are_harmless_code_is_not() -> None:
    tail = "\n#print axioms mathd_algebra_107\n#check mathd_algebra_107\n"
    text = candidate(HEADER + "\nset_option pp.numericTypes true", tail=tail)
    assert g2(text) == [] and check_forbidden(text) == []
    for bad in ("#eval 1", "#exit", "#reduce 1"):
        assert g2(candidate(HEADER, tail=f"\n{bad}\n")), bad
        assert check_forbidden(candidate(HEADER, tail=f"\n{bad}\n")), bad


def test_header_heartbeat_option_may_change_hygiene_is_left_to_g6() -> None:
    assert g2(candidate(HEADER.replace("maxHeartbeats 0", "maxHeartbeats 400000"))) == []
    hygiene = candidate(HEADER + "\nset_option tactic.hygienic false")
    assert check_forbidden(hygiene) == []
    assert any("through elaboration" in v for v in g2(hygiene))
    assert g2(hygiene, semantic=True) == []
    assert check_forbidden(candidate(HEADER + "\nset_option debug.skipKernelTC true"))


def test_the_open_line_split_is_harmless_reordered_or_changed_is_left_to_g6() -> None:
    split = HEADER.replace("open BigOperators Real Nat Topology Rat", "open BigOperators Real\nopen Nat Topology Rat")
    assert g2(candidate(split)) == []
    for other in (
        "open Real BigOperators Nat Topology Rat",
        "open BigOperators Real Nat Topology",
        "open BigOperators Real Nat Topology Rat Set",
    ):
        text = candidate(HEADER.replace("open BigOperators Real Nat Topology Rat", other))
        found = g2(text)
        assert found and all("through elaboration" in v for v in found), (other, found)
        assert g2(text, semantic=True) == []


HELPER_TYPE = "structure RunMove where\n  n : ℕ\n\n"


@pytest.mark.parametrize(
    "addition",
    [
        "instance : Inhabited RunMove := ⟨⟨0⟩⟩\n",
        "noncomputable instance (k : ℕ) : Decidable (RunMove.mk k = RunMove.mk k) := Classical.dec _\n",
        "theorem RunMove.append_left (m : RunMove) : m = m := rfl\n",
        'local notation "B" => RunMove\n',
    ],
)
def test_additions_about_the_candidates_own_types_are_left_to_g6(addition: str) -> None:
    """Issue 23 §7: refused on text with the reason that G6 decides, passed to G6 where it runs, and not
    refused on sight by G3 (which G3 would do for `instance`/`notation` anywhere else)."""
    text = candidate(HEADER + "\n" + HELPER_TYPE + addition)
    found = g2(text)
    assert found and all("through elaboration" in v for v in found), found
    assert g2(text, semantic=True) == []
    assert leave_to_g2(check_forbidden(text), text) == []


@pytest.mark.parametrize(
    ("addition", "why"),
    [
        ("instance : Fact (1 < 2) := ⟨by norm_num⟩\n", "does not define"),
        ('notation "B" => RunMove\n', "notation"),
        ("attribute [instance] foo\n", "attribute"),
        ("@[instance] def i : Inhabited RunMove := ⟨⟨0⟩⟩\n", "instance"),
    ],
)
def test_other_instances_and_notations_stay_refused(addition: str, why: str) -> None:
    text = candidate(HEADER + "\n" + HELPER_TYPE + addition)
    refusals = g2(text, semantic=True) + [str(v) for v in leave_to_g2(check_forbidden(text), text)]
    assert any(why in r and "through elaboration" not in r for r in refusals), refusals


def test_header_imports_reads_code_not_comments() -> None:
    assert header_imports(
        "/- import Evil -/\nimport Mathlib\n-- import Evil\nimport Aesop\ntheorem x : True := trivial"
    ) == ["Mathlib", "Aesop"]
    assert header_imports("module\npublic import A.B\nmeta import C\ndef x := 1\nimport D") == ["A.B", "C"]


def test_build_closure_follows_imports_through_every_package(tmp_path: Path) -> None:
    files = {
        "core/Init.lean": "prelude\n",
        "core/Init/Core.lean": "prelude\n",
        "mathlib/Mathlib.lean": "import Mathlib.Tactic.Common\nimport Mathlib.Data.X\n",
        "mathlib/Mathlib/Tactic/Common.lean": "import Aesop\n/- import NotThis -/\nimport Qq\n",
        "mathlib/Mathlib/Data/X.lean": "import Init.Core\n",
        "aesop/Aesop.lean": "import Aesop.Frontend\n",
        "aesop/Aesop/Frontend.lean": "",
        "other/Unrelated.lean": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    search = [tmp_path / d for d in ("core", "mathlib", "aesop", "other")]
    closure = build_closure(search, ["Mathlib"])
    assert set(closure) == {
        "Mathlib",
        "Init",
        "Mathlib.Tactic.Common",
        "Mathlib.Data.X",
        "Aesop",
        "Aesop.Frontend",
        "Qq",
        "Init.Core",
    }
    assert closure["Aesop"] == "imported by Mathlib.Tactic.Common"
    assert unresolved(search, closure) == ["Qq"]


def test_the_bootstrap_step_writes_the_installed_closure_and_checks_the_shipped_one(tmp_path: Path) -> None:
    paths = ToolchainPaths(tmp_path, lean_release("v4.24.0"))
    src = paths.toolchain_bin.parent / "src" / "lean"
    packages = paths.project / ".lake" / "packages"
    common = packages / "mathlib" / "Mathlib" / "Tactic" / "Common.lean"
    files = {
        src / "Init.lean": "prelude\n",
        packages / "mathlib" / "Mathlib.lean": "import Mathlib.Tactic.Common\n",
        packages
        / "mathlib"
        / "Mathlib"
        / "Tactic"
        / "Common.lean": "import Aesop\nimport Qq\nimport ImportGraph.Imports\n",
        packages / "aesop" / "Aesop.lean": "",
        packages / "Qq" / "Qq.lean": "",
        packages / "importGraph" / "ImportGraph" / "Imports.lean": "",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    seen: list[str] = []
    import_closure_step(paths, seen.append)
    written = json.loads((paths.project / "import_closure.json").read_text(encoding="utf-8"))
    assert set(written["roots"]["Mathlib"]["modules"]) >= {"Aesop", "Qq", "ImportGraph.Imports", "Init"}
    assert written["roots"]["Mathlib"]["unresolved"] == [] and seen
    common.write_text("import Qq\n", encoding="utf-8")
    with pytest.raises(InstallError, match="Aesop"):  # the shipped data would claim more than is loaded
        import_closure_step(paths, seen.append)


def _respaced(statement: str) -> tuple[str, str]:
    """The theorem with a space added around every binary `-`, `^`, `*`, `+`, `=` and after `(` (layout:
    must be accepted), and the same with every space before `(` removed after an identifier (which turns an
    application `f (x)` into `f(x)`, a different parse: must be refused; Mathlib's infix `''` is no
    identifier, so `f '' (s)` stays as it is). Two symbols side by side (`uᵀ*u`) stay glued: the rule keeps
    their gluing on purpose, since a library token could join them."""
    harmless = re.sub(r"(?<=[\w)])(?<!ᵀ)\s*([-^*+=])\s*(?=[\w(])", r" \1 ", statement)
    harmful = re.sub(r"(?<=[A-Za-z0-9_₀-₉'])(?<!'') +\((?=[^:]*\))", "(", statement)  # not after `''`
    return harmless, harmful


@pytest.mark.parametrize(
    "path", ["minif2f/minif2f_lean4.jsonl", "proofnet/proofnet_lean4.jsonl", "putnambench/putnam_bench_lean4.jsonl"]
)
def test_every_statement_respaced(path: str) -> None:
    """Every statement of every registered Lean benchmark, re-spaced where Lean ignores it (accepted) and
    where it does not (refused, whenever that re-spacing changed anything)."""
    file = DATA_ROOT / path
    if not file.is_file():
        pytest.skip(f"{file} not found")
    wrong, refused = [], 0
    for line in file.read_text(encoding="utf-8").splitlines():
        text = json.loads(line)["formal_statement"]
        statement = parse_statement(text)
        theorem = statement.theorem
        start, end = theorem.tokens[theorem.head].offset, theorem.tokens[statement.proof_assign].offset
        harmless, harmful = _respaced(text[start:end])
        if check_preservation(text, text[:start] + harmless + text[end:], Track.WITH_ANSWER):
            wrong.append(f"{statement.theorem_name}: harmless re-spacing refused")
        if harmful != text[start:end]:
            refused += 1
            if not check_preservation(text, text[:start] + harmful + text[end:], Track.WITH_ANSWER):
                wrong.append(f"{statement.theorem_name}: `f(x)` for `f (x)` accepted")
    assert not wrong, wrong[:10]
    assert refused > 0
