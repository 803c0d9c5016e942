"""Making ahead what a problem's compiled gates need, before any candidate exists (``putnam solve`` does it
while the model works; a cluster backend on the node that will judge).

It lives outside the trusted package because nothing here decides a verdict: no candidate takes part, and
a verification reads what is kept only under its producer's own rules (``core.pinned_store``: an entry's key
and hashes), so a wrong or missing preparation only costs time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from putnam_solver.core.artifacts import Artifacts
from putnam_solver.core.verify import TEXT_GATES, ScratchDir, Submission, Track, VerifyOptions, gate_ids

if TYPE_CHECKING:
    from putnam_solver.core.benchmark import Benchmark, Problem
    from putnam_solver.core.provers import Prover


def prepare_problem(
    prover: Prover, benchmark: Benchmark, problem: Problem, track: Track, options: VerifyOptions
) -> dict[str, str | None]:
    """Make, before any candidate exists, what the compiled gates of ``options.profile`` need that comes
    from the pinned record and the toolchain alone (``Artifact.pinned``: the Rocq reference's compile, the
    Lean challenge's build), so that the first candidate finds it kept (``pinned_store``).

    Nothing here decides a verdict: no candidate takes part (the challenge stands in for one), and a
    verification reads what is kept only under its producer's own rules (an entry's key and hashes).
    Returns each artifact's name with None when its producer returned, else why it raised: a failure
    here is reported again by the gate that needs it, when a candidate is judged, and is never the
    caller's error.
    """
    wanted = set(gate_ids(options)) - set(TEXT_GATES)
    pinned = {a.name: a for gate in prover.gates() if gate.id in wanted for a in gate.needs if a.pinned}
    outcome: dict[str, str | None] = {}
    if not pinned:
        return outcome
    scratch = ScratchDir(prefix=f"putnam-prepare-{problem.id}-")
    artifacts = Artifacts()
    try:
        challenge = prover.challenge(problem, track)
        # the challenge stands in for the candidate: where the challenge's form follows the candidate's
        # text (a Lean answer kept as an `abbrev` or written inline), the form a model is shown is likeliest
        given = challenge.encode("utf-8")
        sub = Submission(problem, benchmark, track, given, challenge, challenge, scratch, options, artifacts=artifacts)
        for artifact in pinned.values():
            artifacts.start(artifact, sub)
        for name, artifact in pinned.items():
            try:
                artifacts.get(artifact, sub)
                outcome[name] = None
            except Exception as exc:  # the gate that needs it reports it with a candidate
                outcome[name] = f"{type(exc).__name__}: {exc}"
    except (KeyboardInterrupt, SystemExit):
        artifacts.abandon()
        raise
    except Exception as exc:  # a challenge that cannot be formed: G2 says so with a candidate
        outcome = {name: f"{type(exc).__name__}: {exc}" for name in pinned}
    finally:
        artifacts.close()
        scratch.cleanup()
    return outcome
