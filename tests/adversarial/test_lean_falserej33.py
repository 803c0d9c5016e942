"""False rejections of honest Lean proofs by G2, round 33, and the near-twins that stay refused (text profile).

A dotted ``namespace Zy.Zz`` (or ``section Zy.Zz``) opens one scope per component, and ``end`` closes as many
scopes as its name has components, each checked against its own header (leanprover/lean4
src/Lean/Elab/BuiltinCommand.lean: ``addScopes`` pushes a scope per ``.str`` part of the name, ``elabEnd``
drops ``getNumParts`` scopes after ``nameOfScopes`` matched them). G2 compared the whole name of the
innermost opener with the whole name after ``end``, so ``end Zz`` then ``end Zy`` around a helper was "does not
close"; it now stacks one scope per component (``_blocks.scopes_of``). An ``end`` that names other scopes, in
another order, too many components, or that leaves a component open before the theorem, is still refused.

One case of each class runs in CI; the others are slow.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.benchmark import Benchmark
from tests.adversarial.test_lean_falserej29 import assert_verdict, honest_and_refused
from tests.adversarial.test_lean_redteam22_g2g3 import Edit
from tests.adversarial.test_scoped_additions import _toy_run
from tests.toylean.build import ToyLean

NS = "Putnam1962A1"
"""A namespace named after the problem: surely fresh, so a helper in it needs no G6."""
HELPER = "theorem zz_h : 1 = 1 := rfl\n"

VALID: dict[str, dict[str, Edit]] = {
    "dotted namespaces": {
        "closed one component at a time": {"before": f"namespace {NS}.Zz\n{HELPER}end Zz\nend {NS}\n\n"},
        "closed whole": {"before": f"namespace {NS}.Zz\n{HELPER}end {NS}.Zz\n\n"},
        "two openers closed by one end": {"before": f"namespace {NS}\nnamespace Zz\n{HELPER}end {NS}.Zz\n\n"},
        "three components, closed two then one": {"before": f"namespace {NS}.Zy.Zz\n{HELPER}end Zy.Zz\nend {NS}\n\n"},
        "an escaped component": {"before": f"namespace {NS}.«Zz»\n{HELPER}end Zz\nend {NS}\n\n"},
    },
    "dotted sections": {
        "closed one component at a time": {"before": f"section Zy.Zz\n{HELPER}end Zz\nend Zy\n\n"},
        "with a section variable": {
            "before": "section Zy.Zz\nvariable (n : ℕ)\ntheorem zz_h : n = n := rfl\nend Zz\nend Zy\n\n"
        },
        "the inner component's variable, ended with it; the outer left open": {
            "before": "section Zy.Zz\nvariable (n : ℕ)\nend Zz\n\n"
        },
    },
}
REFUSED: dict[str, dict[str, tuple[Edit, str, str]]] = {
    # class: case: (edit, gate, the words of its refusal)
    "dotted namespaces": {
        "the outer component alone": (
            {"before": f"namespace {NS}.Zz\n{HELPER}end {NS}\n\n"},
            "G2",
            "does not close",
        ),
        "the inner component alone: the outer still open": (
            {"before": f"namespace {NS}.Zz\n{HELPER}end Zz\n\n"},
            "G2",
            "namespace not closed before the theorem",
        ),
        "never closed": ({"before": f"namespace {NS}.Zz\n{HELPER}\n"}, "G2", "namespace"),
        "components in the wrong order": (
            {"before": f"namespace {NS}.Zz\n{HELPER}end {NS}\nend Zz\n\n"},
            "G2",
            "does not close",
        ),
        "a dotted end in the wrong order": (
            {"before": f"namespace {NS}.Zz\n{HELPER}end Zz.{NS}\n\n"},
            "G2",
            "does not close",
        ),
        "too many components": (
            {"before": f"namespace {NS}.Zz\n{HELPER}end Zx.{NS}.Zz\n\n"},
            "G2",
            "does not close",
        ),
        "an unnamed end": ({"before": f"namespace {NS}.Zz\n{HELPER}end\nend {NS}\n\n"}, "G2", "does not close"),
    },
    "dotted sections": {
        "a section variable in the outer component, open at the theorem": (
            {"before": "section Zy.Zz\nend Zz\nvariable (n : ℕ)\n\n"},
            "G2",
            "section variables",
        ),
        "one dotted end over an unnamed section": (
            {"before": f"section Zy\nsection\n{HELPER}end Zy\nend\n\n"},
            "G2",
            "does not close",
        ),
    },
}


@pytest.mark.parametrize(("edit", "gate", "word"), honest_and_refused(VALID, REFUSED))
def test_honest_proofs_pass_and_their_twins_stay_refused(
    lean_putnambench: Benchmark, edit: Edit, gate: str, word: str
) -> None:
    assert_verdict(lean_putnambench, edit, gate, word)


def test_lean_closes_a_dotted_namespace_one_component_at_a_time(toy_lean: ToyLean, tmp_path: Path) -> None:
    """The premises, on Lean 4.35: ``end Zz`` then ``end Zy``, and ``end Zy.Zz`` over two openers, close
    ``namespace Zy.Zz``; ``end Zz`` alone leaves ``Zy`` open (a name declared after it lands in ``Zy``);
    the outer component first is an error."""
    text = (
        "namespace Zy.Zz\ndef a : Nat := Nat.zero\nend Zz\nend Zy\n"
        "namespace Zy\nnamespace Zz\ndef b : Nat := Nat.zero\nend Zy.Zz\n"
        "namespace Zy.Zz\nend Zz\ndef c : Nat := Nat.zero\nend Zy\n"
        "#check Zy.Zz.a\n#check Zy.Zz.b\n#check Zy.c\n"
    )
    (tmp_path / "Zz.lean").write_text(text, encoding="utf-8")
    run = _toy_run(toy_lean, tmp_path, "Zz.lean")
    assert run.returncode == 0, run.stdout + run.stderr
    assert all(f"{name} : Nat" in run.stdout for name in ("Zy.Zz.a", "Zy.Zz.b", "Zy.c")), run.stdout
    (tmp_path / "Zz.lean").write_text("namespace Zy.Zz\nend Zy\nend Zz\n", encoding="utf-8")
    assert "Invalid name after `end`" in _toy_run(toy_lean, tmp_path, "Zz.lean").stdout
