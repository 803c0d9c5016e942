"""The Rocq policy as text: the Markdown ``putnam policy`` prints and the brief a worker's prompt carries.

The rules themselves are data in the trusted package (``core.provers.rocq.policy``), next to the gates
that apply them; rendering them decides nothing, so it lives here.
"""

from __future__ import annotations

from putnam_solver.core.provers.rocq.policy import STATEMENT_CHECK, RocqPolicy
from putnam_solver.core.verify import Profile
from putnam_solver.kits.policy_doc import Difference, Forbidden, PolicyDocument, Section


def brief(policy: RocqPolicy, refuse_recursion: bool) -> str:
    """The rules a worker writing a proof needs, without the reasons (``describe`` has them; a
    rejection names the rule it applies)."""
    forbidden = [
        *policy.forbidden_words,
        *policy.forbidden_phrases,
        *(policy.recursion_words if refuse_recursion else ()),
    ]
    lines = [
        f"- Before the theorem you may add: {', '.join(policy.permitted_additions)} (each with its proof), and "
        f"Require of {', '.join(policy.permitted_libraries)} or standard-library names (Lia, Psatz, ...).",
        f"- Proofs may not use the commands: {', '.join(policy.proof_commands_denied)}.",
        "- Forbidden anywhere outside the challenge's own sentences: "
        + ", ".join(dict.fromkeys(f"`{r.construct}`" for r in forbidden))
        + ".",
    ]
    if refuse_recursion:
        lines.append(
            "- This Coq has guard checker bugs, so your own recursion is refused, in the text and in the "
            "compiled terms (a mutual Lemma ... with ..., the fix/cofix tactics, Scheme count too): prove by "
            "induction or library recursors (induction, elim, destruct, nat_rect)."
        )
    return "\n".join(lines)


def describe(policy: RocqPolicy) -> str:
    """The policy as Markdown, for users, prompts and docs (the format every prover's policy shares)."""
    return PolicyDocument(
        language="Rocq",
        intro=(
            "A candidate is the challenge file with each hole filled: the placeholder proof",
            "`Proof. Admitted.` replaced by a proof ending in `Qed.` or `Defined.` and, on the no-answer",
            "track, the solution's `_` replaced by a term. Every other sentence of the challenge must",
            "appear unchanged and in order (same tokens; whitespace and comments are free).",
        ),
        semantic_check=f"{STATEMENT_CHECK} (profile `{Profile.FULL}`)",
        differences=tuple(Difference(f"{a.construct} ({a.where})", a.accepted, a.reason) for a in policy.additions),
        permitted=Section(
            "Permitted helpers (before the theorem)",
            (
                f"- {', '.join(policy.permitted_additions)}: each with its proof, named apart from every "
                "word of the challenge",
                f"- `Require` of {', '.join(f'`{lib}`' for lib in policy.permitted_libraries)} or bare "
                "standard-library names (`Lia`, `Psatz`, ...)",
                f"- inside proofs, none of the commands {', '.join(policy.proof_commands_denied)}",
            ),
        ),
        forbidden_where="anywhere outside the challenge's own sentences",
        forbidden=tuple(
            Forbidden(r.construct, r.rule, r.reason) for r in (*policy.forbidden_words, *policy.forbidden_phrases)
        ),
        notes=(
            Section(
                "Forbidden on a Coq with known guard checker bugs, unless --allow-recursion",
                (
                    "Coq 8.16 to 9.2 have them; `putnam doctor` and the line below say whether this one does.",
                    "",
                    "| construct | rule | reason |",
                    "|---|---|---|",
                    *(f"| `{r.construct}` | {r.rule} | {r.reason} |" for r in policy.recursion_words),
                    "",
                    "Still allowed: induction through library recursors (`induction`, `elim`, `destruct`,",
                    "`nat_rect`, `Wf.Fix`), the library's own induction principles, and the challenge's own",
                    "definitions. These words are a first line only: on the full profile G5 prints the kernel",
                    "term of every constant the compiled candidate defines and refuses any `fix` or `cofix`",
                    "in them, however it was written (a mutual theorem with `with`, the `fix`/`cofix` tactics,",
                    "Ltac, `Function`, `Program Fixpoint`, `Scheme`, a plugin); the challenge's own fixpoints",
                    "pass only when their terms equal those of the pinned statement.",
                ),
            ),
        ),
    ).render()
