"""Whether the reference loads the standard library's reals, asked of Coq in the answer check's own file (round 46).

The answer check's attempts with the reals' facts (``answers.DIFFERENT_REALS``, ``DIFFERENT_COMPUTED``) and
its real sample points (``answers.POINTS``, ``answer_sets.member_points``) apply where the official answer
can be one of Coq's reals. That was read in the statement's *text* (the words ``Reals``, ``Coquelicot``):
but a statement loads the reals through other libraries too (MathComp analysis's ``Rstruct`` and ``exp``
``Require`` them), and names them without loading them in a comment. A statement that imports ``Rstruct``
and answers ``3 : R`` got no attempt that knows ``PI``: the wrong answer ``PI``, soundly proved on a vacuous
statement, stayed ``unknown`` and its verdict ``accepted``; a comment's ``Reals`` bought two attempts that
load the reals and run their tactics to no purpose.

Now the first attempt with the reals' facts asks Coq: its file's second line, right after the reference is
``Require``d and before the candidate is (so only the reference answers), is :data:`GUARD`, which names
``R`` by its full path and stops the file where the reference has not loaded it. The question costs no run
of its own: where the reals are loaded the attempt goes on as before; where they are not, the file stops
there (an error located on :data:`GUARD_LINE`, which only the guard can raise) and the check skips the rest
of the reals (:func:`stopped_at_guard`). Reading that location can only ever withhold attempts that could
not apply; any other failure of the file counts as loaded, so the reals' attempts still run.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.build import Built

GUARD = "Check @Coq.Reals.Rdefinitions.R."
"""Coq's reals named by their full path: found only where a loaded library has ``Require``d them."""
GUARD_LINE = 2
"""The guard's line in the attempt's file (after ``Require Putnam.Reference.``, before the candidate's
``Require``)."""


def stopped_at_guard(built: Built) -> bool:
    """Whether the attempt's file stopped at :data:`GUARD` (its first error located on its line): the reference
    does not load the reals. A cached or successful build, or one that failed elsewhere, did not."""
    errors = [m for m in built.messages if m.level == "Error"]
    return built.vo is None and bool(errors) and errors[0].line == GUARD_LINE
