"""Whether the reference loads the standard library's reals, asked of Coq in the answer check's own file (round 46).

The answer check's attempts with the reals' facts (``answers.DIFFERENT_REALS``, ``DIFFERENT_COMPUTED``) and
its real sample points (``answers.POINTS``, ``answer_sets.member_points``) apply where the official answer
can be one of Coq's reals. That was read in the statement's *text* (the words ``Reals``, ``Coquelicot``):
but a statement loads the reals through other libraries too (MathComp analysis's ``Rstruct`` and ``exp``
``Require`` them), and names them without loading them in a comment. A statement that imports ``Rstruct``
and answers ``3 : R`` got no attempt that knows ``PI``: the wrong answer ``PI``, soundly proved on a vacuous
statement, stayed ``unknown`` and its verdict ``accepted``; a comment's ``Reals`` bought two attempts that
load the reals and run their tactics to no purpose.

Now the first attempt with the reals' facts asks Coq: its file's fourth line is :data:`GUARD`, which names
``R`` by its full path and stops the file where nothing loaded has loaded it. Round 46 asked before the
candidate was ``Require``d, so that only the reference answered; but a candidate that loads the reals itself
can write an answer of the reference's type through them (a ``Z`` answer ``up PI``), and the attempts that
know ``PI`` were then never run on it. Asking after both are loaded only ever runs more attempts (each
can only prove the answers different, by a proof Coq checks): round 47. The question costs no run
of its own: where the reals are loaded the attempt goes on as before; where they are not, the file stops
there (an error located on :data:`GUARD_LINE`, which only the guard can raise; or on :data:`TYPE_LINE`,
where :func:`type_guard` finds the answers' type unreadable to the attempts). Round 47 also asks both
questions in the second attempt's file, built before any reals attempt, without stopping it
(:func:`query`): where its words say no, no reals attempt is built at all; the guards stay for a run in
which that file said nothing and the check skips the rest
of the reals (:func:`stopped_at_guard`). Reading that location can only ever withhold attempts that could
not apply; any other failure of the file counts as loaded, so the reals' attempts still run.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.build import Built

GUARD = "Check @Coq.Reals.Rdefinitions.R."
"""Coq's reals named by their full path: found only where a loaded library has ``Require``d them."""
GUARD_LINE = 4
"""The guard's line in the attempt's file (after ``Require Putnam.Reference.``, the candidate's ``Require`` and
the line that instantiates the reference)."""
TYPE_LINE = GUARD_LINE + 1
"""The second guard's line (:func:`type_guard`)."""
READABLE = ("Coq.Reals.Rdefinitions.R", "Coq.Numbers.BinNums.Z", "Coq.Init.Datatypes.nat")
"""Types whose equations the reals' attempts can use: Coq's reals (``lra``/``nra`` read only equations over
them), and, kept for safety, the integers and naturals ``up``, ``Int_part`` and ``INR`` link them to."""
TYPE_SECONDS = 5


def type_guard(official: str) -> str:
    """The second guard (round 47): the file stops here only when Coq shows that the official answer's type
    (``official``: the answer applied to its arguments), computed, names none of :data:`READABLE`.

    The reals' attempts end in ``lra``/``nra`` (and ``exp`` applied to both sides of a real equation): they
    refute ``candidate = official`` only from an equation over Coq's reals, which their rewrites (each keeps
    the type) never make of an equation over another type; facts about the reals alone are true, so they
    refute nothing. On MathComp's ``realType`` (an abstract field: ``putnam_1975_a3``'s ``R``) with
    ``Rstruct`` loaded, the attempts ran their tactics on every answer neither proved equal nor different,
    to no purpose. The sentence is a ``Fail`` of a definition that succeeds only when the type is
    unreadable: anything else (a readable type, a ``Timeout``, an error) is a failure, which ``Fail`` turns
    into a success, and the attempt goes on."""
    return _unreadable(official, "exact Coq.Init.Logic.I")


def _unreadable(official: str, then: str) -> str:
    """A ``Fail`` of a definition whose tactic runs ``then`` only where the type of ``official``, computed,
    names none of :data:`READABLE`, and fails otherwise."""
    found = " ".join(f"| context [{name}] => fail " for name in READABLE)
    return (
        f"Fail Timeout {TYPE_SECONDS} Definition __putnam_unreadable := ltac:(let T := type of ({official}) in "
        f"let T' := eval cbv in T in lazymatch T' with {found}| _ => {then} end)."
    )


QUERY, QUERY_END, UNREADABLE = "__putnam_reals_query", "__putnam_reals_query_end", "__putnam_reals_unreadable"
NOT_LOADED = "No object of suffix Coq.Reals.Rdefinitions.R"
"""What ``Locate`` prints for Coq's reals where nothing loaded has loaded them."""


def query(official: str) -> str:
    """The same two questions asked in the second attempt's file (``answers.DIFFERENT``, built before any
    reals attempt), without stopping it: after a line :data:`QUERY`, ``Locate`` prints :data:`NOT_LOADED`
    where the reals are not loaded, and a ``Fail`` prints :data:`UNREADABLE` (then fails, which ``Fail``
    absorbs) where the answers' type is none the attempts read (where ``R`` is not loaded it fails to
    read, which ``Fail`` absorbs too), then a line :data:`QUERY_END`. Where either says so the reals'
    attempts are not built at all: the guards of their own files cost a load of the statement's libraries
    (4 s under MathComp) to stop."""
    return (
        f'Goal Coq.Init.Logic.True. idtac "{QUERY}". Abort. Locate Coq.Reals.Rdefinitions.R. '
        + _unreadable(official, f'idtac "{UNREADABLE}"; fail')
        + f' Goal Coq.Init.Logic.True. idtac "{QUERY_END}". Abort.'
    )


def answered_no(built: Built) -> bool:
    """Whether the second attempt's file printed that the reals' attempts cannot apply (:func:`query`): only
    positive words count, read only between :data:`QUERY` and :data:`QUERY_END` (what the harness's own
    sentences printed: the proof after them may run the candidate's hints, which can print anything); a
    cached build, or output without both markers, says nothing, and the attempts run."""
    lines = [] if built.result is None else built.result.stdout.splitlines()
    if QUERY not in lines or QUERY_END not in lines[lines.index(QUERY) :]:
        return False
    asked = lines[lines.index(QUERY) + 1 : lines.index(QUERY_END, lines.index(QUERY))]
    return (bool(asked) and asked[0].startswith(NOT_LOADED)) or UNREADABLE in asked


def stopped_at_guard(built: Built) -> bool:
    """Whether the attempt's file stopped at :data:`GUARD` or :func:`type_guard` (its first error located on
    their lines): the reals are not loaded, or the answers' type is none they can read. A cached or successful
    build, or one that failed elsewhere, did not."""
    errors = [m for m in built.messages if m.level == "Error"]
    return built.vo is None and bool(errors) and errors[0].line in (GUARD_LINE, TYPE_LINE)
