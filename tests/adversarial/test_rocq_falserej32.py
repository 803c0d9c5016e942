"""Red team 32, false rejections: typeclass debug options, measured with coqc 8.16.1.

``Set Typeclasses Debug.``, ``Unset Typeclasses Debug.`` and ``Set Typeclasses Debug Verbosity 2.`` were
refused twice, by G2 (an option not known to leave the statement alone) and by G3 (the word
``Typeclasses``). Measured: they make typeclass resolution print its search and change nothing it finds
(24 shipped proofs, lia, lra, nra and setoid rewriting among them, elaborate to the same terms with
verbosity 2), and a file that ``Require``s the candidate keeps them off. They now pass on every profile,
``Test Typeclasses ...`` (a query) too. Every ``Typeclasses`` option or command that changes what
resolution finds (``Strict Resolution``, ``Unique Instances``, ``Depth``, ``Iterative Deepening``,
``Filtered Unification``, ``Typeclasses Opaque``/``Transparent``, ``Typeclasses eauto :=``, which also resets
the search depth) stays refused, as does a ``Global`` debug option, which ``Require`` replays (an ``Export``
one only ``Import`` does: refused alike, as every exported option is).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from putnam_solver.core.verify import Profile
from tests.adversarial.test_rocq_falserej31 import _loaded
from tests.adversarial.test_rocq_redteam23_refused import _text_status
from tests.adversarial.test_rocq_redteam31 import THEOREM, _verdict
from tests.helpers import failures, needs_coq, sampled

ACCEPTED = {
    "Set Typeclasses Debug before": ("Set Typeclasses Debug.", ""),
    "Unset Typeclasses Debug after": ("", "Unset Typeclasses Debug."),
    "Verbosity 2 before": ("Set Typeclasses Debug Verbosity 2.", ""),
    "Local Set before": ("Local Set Typeclasses Debug.", ""),
    "#[local] Set after": ("", "#[local] Set Typeclasses Debug."),
    "in a helper's proof": ("Lemma zz : True. Proof. Set Typeclasses Debug. exact I. Qed.", ""),
    "Test of a resolution option": ("Test Typeclasses Strict Resolution.", ""),
}
"""Each only prints, in the candidate's file alone: accepted on every profile."""
REFUSED = {
    "Global Set Typeclasses Debug": ("Global Set Typeclasses Debug.", ""),
    "Export Set Typeclasses Debug": ("", "Export Set Typeclasses Debug."),
    "#[export] Set Typeclasses Debug": ("", "#[export] Set Typeclasses Debug."),
    "Strict Resolution": ("Set Typeclasses Strict Resolution.", ""),
    "Unique Instances": ("", "Set Typeclasses Unique Instances."),
    "Depth": ("", "Set Typeclasses Depth 3."),
    "Iterative Deepening": ("Set Typeclasses Iterative Deepening.", ""),
    "Filtered Unification": ("", "Unset Typeclasses Filtered Unification."),
    "Typeclasses Opaque": ("Typeclasses Opaque Rplus.", ""),
    "Typeclasses Transparent": ("", "Typeclasses Transparent Rplus."),
    "Typeclasses eauto := debug": ("", "Typeclasses eauto := debug."),
    "a debug option beside one that matters": ("Set Typeclasses Debug.\nSet Typeclasses Unique Instances.", ""),
}
"""Each changes what resolution finds, or reaches every file that loads the candidate."""


@pytest.mark.parametrize(("before", "after"), sampled(ACCEPTED, {"Verbosity 2 before"}))
def test_typeclass_debug_options_pass_the_text_gates(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "accepted" and not failed, failed


@pytest.mark.parametrize(("before", "after"), sampled(REFUSED, {"Global Set Typeclasses Debug", "Depth"}))
def test_typeclass_options_that_change_resolution_or_reach_other_files_are_refused(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "rejected" and set(failed) & {"G2", "G3"}, failed


REWRITE = "intros P Q h p. rewrite <- h. exact p."
"""A proof whose ``rewrite`` under ``iff`` resolves a ``Symmetric iff`` instance (it prints under debug)."""


@needs_coq
def test_the_debug_option_only_prints(tmp_path: Path) -> None:
    terms = []
    for option in ("", "Set Typeclasses Debug Verbosity 2."):
        (tmp_path / "p.v").write_text(
            f"Require Import Setoid.\n{option}\nLemma zz : forall P Q : Prop, (P <-> Q) -> P -> Q.\n"
            f"Proof. {REWRITE} Qed.\nUnset Typeclasses Debug.\nPrint zz.\n"
        )
        run = subprocess.run(["coqc", "p.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        assert ("Debug:" in run.stdout) is bool(option), run.stdout
        terms.append(run.stdout[run.stdout.index("zz =") :])
    assert terms[0] == terms[1]


@needs_coq
@pytest.mark.parametrize(
    ("command", "replayed"), [("Set Typeclasses Debug.", False), ("#[global] Set Typeclasses Debug.", True)]
)
def test_only_a_global_debug_option_reaches_a_file_that_requires_the_candidate(
    tmp_path: Path, command: str, replayed: bool
) -> None:
    runs = _loaded(tmp_path, f"Theorem zz : True. Proof. exact I. Qed.\n{command}\n", "Test Typeclasses Debug.\n")
    assert runs[0].returncode == 0 and runs[1].returncode == 0, runs
    assert ("Typeclasses Debug is on" in runs[1].stdout) is replayed, runs[1].stdout


@needs_coq
def test_a_debug_option_passes_the_full_profile(tmp_path: Path) -> None:
    candidate = (
        "Require Import Setoid.\nSet Typeclasses Debug Verbosity 2.\n"
        f"Lemma zz_h : forall P Q : Prop, (P <-> Q) -> P -> Q.\nProof. {REWRITE} Qed.\nUnset Typeclasses Debug.\n"
        f"{THEOREM}Proof. Set Typeclasses Debug. intros n. induction n; simpl; auto. Qed.\n"
    )
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)


@needs_coq
def test_typeclasses_eauto_debug_also_resets_the_search_depth(tmp_path: Path) -> None:
    """Why ``Typeclasses eauto := debug.`` stays refused though it turns the same printing on."""
    (tmp_path / "d.v").write_text(
        "Set Typeclasses Depth 1.\nTypeclasses eauto := debug.\nTest Typeclasses Depth.\nTest Typeclasses Debug.\n"
    )
    run = subprocess.run(["coqc", "d.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 0 and "Depth is undefined" in run.stdout and "Debug is on" in run.stdout, run
