"""Round 33, false rejections: Ltac profiling and batch debugging, measured with coqc 8.16.1.

``Set``/``Unset Ltac Profiling.`` and ``Set Ltac Batch Debug.`` were refused by G2 (an option not known to
leave the statement alone), ``Reset Ltac Profile.`` by G2 and G3 (read as the ``Reset`` that rewinds the
document). Measured: profiling times tactics for ``Show Ltac Profile`` (already a query) and batch debugging
only stops the Ltac debugger (itself off unless ``Ltac Debug``) from reading input; proofs elaborate to the
same terms, and a file that ``Require``s the candidate keeps both off. They now pass where the other debug
options do (``vernacular.DEBUG_OPTIONS``, ``vernacular.resets_profile``); the ``Global`` forms, which
``Require`` replays, the ``Export`` ones, which ``Import`` replays, ``Set Ltac Debug`` (an interactive
debugger) and any other ``Reset`` stay refused.
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
    "Set Ltac Profiling before": ("Set Ltac Profiling.", ""),
    "Unset Ltac Profiling after": ("", "Unset Ltac Profiling."),
    "Set Ltac Batch Debug before": ("Set Ltac Batch Debug.", ""),
    "Reset Ltac Profile after": ("", "Reset Ltac Profile."),
    "Show Ltac Profile after": ("", "Show Ltac Profile."),
    "Local Set Ltac Profiling": ("Local Set Ltac Profiling.", ""),
    "all in a helper's proof": (
        "Lemma zz : True. Proof. Set Ltac Profiling. Reset Ltac Profile. exact I. Show Ltac Profile. Qed.",
        "",
    ),
}
"""Each only times or prints, in the candidate's file alone: accepted on every profile."""
REFUSED = {
    "Global Set Ltac Profiling": ("Global Set Ltac Profiling.", ""),
    "#[global] Set Ltac Batch Debug": ("", "#[global] Set Ltac Batch Debug."),
    "Export Set Ltac Profiling": ("", "Export Set Ltac Profiling."),
    "Set Ltac Debug": ("Set Ltac Debug.", ""),
    "Reset of a name": ("", "Reset zz."),
    "Reset Ltac Profile with more words": ("Lemma zz : True. Proof. Reset Ltac Profile zz. exact I. Qed.", ""),
}
"""Each reaches every file that loads the candidate, runs a debugger, or rewinds the document."""


@pytest.mark.parametrize(("before", "after"), sampled(ACCEPTED, {"all in a helper's proof"}))
def test_ltac_profiling_and_batch_debug_pass_the_text_gates(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "accepted" and not failed, failed


@pytest.mark.parametrize(("before", "after"), sampled(REFUSED, {"Global Set Ltac Profiling", "Reset of a name"}))
def test_their_global_forms_and_other_resets_are_refused(before: str, after: str) -> None:
    status, failed = _text_status(before, after)
    assert status == "rejected" and set(failed) & {"G2", "G3"}, failed


PROOF = "Lemma zz : forall n : nat, n + 0 = n.\nProof. intros n. induction n; simpl; auto. Qed.\n"


@needs_coq
def test_profiling_and_batch_debug_leave_the_proof_term_alone(tmp_path: Path) -> None:
    terms = []
    for options in ("", "Set Ltac Profiling.\nSet Ltac Batch Debug.\n"):
        (tmp_path / "p.v").write_text(f"{options}{PROOF}Show Ltac Profile.\nReset Ltac Profile.\nPrint zz.\n")
        run = subprocess.run(["coqc", "p.v"], cwd=tmp_path, capture_output=True, text=True, check=False)
        assert run.returncode == 0, run.stderr
        assert ("induction n" in run.stdout) is bool(options), run.stdout  # the profile's table
        terms.append(run.stdout[run.stdout.index("zz =") : run.stdout.index("Arguments zz")])  # the profile follows
    assert terms[0] == terms[1]


@needs_coq
@pytest.mark.parametrize(
    ("command", "replayed"),
    sampled(
        {
            "Set Ltac Profiling.": ("Set Ltac Profiling.", ""),
            "Set Ltac Batch Debug.": ("Set Ltac Batch Debug.", ""),
            "Global Set Ltac Profiling.": ("Global Set Ltac Profiling.", "Ltac Profiling"),
            "Global Set Ltac Batch Debug.": ("Global Set Ltac Batch Debug.", "Ltac Batch Debug"),
        },
        {"Set Ltac Profiling.", "Global Set Ltac Profiling."},
    ),
)
def test_only_the_global_forms_reach_a_file_that_requires_the_candidate(
    tmp_path: Path, command: str, replayed: str
) -> None:
    runs = _loaded(tmp_path, f"{PROOF}{command}\n", "Test Ltac Profiling.\nTest Ltac Batch Debug.\n")
    assert runs[0].returncode == 0 and runs[1].returncode == 0, runs
    on = {option for option in ("Ltac Profiling", "Ltac Batch Debug") if f"{option} is on" in runs[1].stdout}
    assert on == ({replayed} if replayed else set()), runs[1].stdout


@needs_coq
def test_profiling_passes_the_full_profile(tmp_path: Path) -> None:
    candidate = (
        f"Set Ltac Profiling.\nSet Ltac Batch Debug.\n{PROOF}Show Ltac Profile.\nReset Ltac Profile.\n"
        f"{THEOREM}Proof. intros n. induction n; simpl; auto. Qed.\nUnset Ltac Profiling.\n"
    )
    verdict = _verdict(tmp_path, candidate, Profile.FULL)
    assert verdict.status == "accepted", failures(verdict)
