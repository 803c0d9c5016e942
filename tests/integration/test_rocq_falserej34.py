"""Round 34, false rejections: ``Comments`` and a ``Fail``'d theorem, measured with coqc 8.16.1.

``Comments "..." t 12.`` (a note for documentation tools) was refused by G2 as an addition that is not
permitted: coqc 8.16 parses its words and keeps nothing (``vernacentries.ml``), in a proof as out of one.
Its one dangerous form, ``Comments From lib Extra Dependency "file"``, which coqc runs as the command
``From lib Extra Dependency "file"``, passed unseen inside a proof; it is now refused everywhere
(``vernacular._comments``). ``Fail Theorem <the theorem's name> : <a statement that does not elaborate>.``
before the real theorem was read as the theorem, changed: a rolled-back declaration declares nothing, and
coqc stops when the command does not fail, so it is an addition like any other ``Fail`` sentence
(``checks.check_preservation``). No published proof was found with either form (the
sources of ``tests/fixtures/conformance/README.md`` hold none); the cases are written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from putnam_solver.core.verify import Profile
from tests.adversarial.test_rocq_redteam31 import PROOF, THEOREM, _verdict
from tests.helpers import failures, needs_coq, sampled

_REAL = f"{THEOREM}Proof. {PROOF} Qed.\n"
_NAME = "zz_redteam31"
ACCEPTED = {
    "Comments before the theorem": f'Comments "a note" 12 {_NAME}.\n{_REAL}',
    "Comments after the proof": f'{_REAL}Comments "done".\n',
    "Comments in the proof": f'{THEOREM}Proof. Comments "step". {PROOF} Qed.\n',
    "Fail Theorem of an ill-typed statement": f"Fail Theorem {_NAME} : forall n : nat, n + 0 = m.\n{_REAL}",
    "Fail Goal before": f"Fail Goal forall n : nat, n = m.\n{_REAL}",
}
"""Each keeps nothing in the environment: accepted on every profile."""
REFUSED = {
    "Comments Extra Dependency in a proof": (
        f'{THEOREM}Proof. Comments From Coq Extra Dependency "Init/Prelude.vo". {PROOF} Qed.\n',
        Profile.TEXT,
        "G2",
    ),
    "Comments Extra Dependency with a parenthesized word": (
        f'Comments (From) Coq (Extra) Dependency "Init/Prelude.vo".\n{_REAL}',
        Profile.TEXT,
        "G2",
    ),
    "Fail Theorem followed by a proof": (
        f"Fail Theorem {_NAME} : forall n : nat, n = m. Proof. auto. Qed.\n{_REAL}",
        Profile.TEXT,
        "G2",
    ),
    "Fail Theorem alone, the real one missing": (
        f"Fail Theorem {_NAME} : forall n : nat, n + 0 = n.\n",
        Profile.TEXT,
        "G2",
    ),
    "Fail Theorem that does not fail": (
        f"Fail Theorem {_NAME} : forall n : nat, n + 0 = n.\n{_REAL}",
        Profile.FULL,
        "G4",
    ),
}
"""A file dependency of the machine's, or no real theorem (G2); a ``Fail`` whose command does not fail passes
the text gates, but coqc stops there (``The command has not failed!``: G4)."""


@needs_coq
@pytest.mark.parametrize("candidate", sampled(ACCEPTED, {"Fail Theorem of an ill-typed statement"}))
def test_comments_and_failed_declarations_are_accepted(tmp_path: Path, candidate: str) -> None:
    for profile in (Profile.TEXT, Profile.FULL):
        verdict = _verdict(tmp_path, candidate, profile)
        assert verdict.status == "accepted", (profile, failures(verdict))


@needs_coq
@pytest.mark.parametrize(
    ("candidate", "profile", "gate"),
    sampled(REFUSED, {"Comments Extra Dependency in a proof", "Fail Theorem that does not fail"}),
)
def test_extra_dependency_a_missing_theorem_and_a_fail_that_does_not_fail_are_refused(
    tmp_path: Path, candidate: str, profile: Profile, gate: str
) -> None:
    verdict = _verdict(tmp_path, candidate, profile)
    assert verdict.status == "rejected" and gate in failures(verdict), failures(verdict)
