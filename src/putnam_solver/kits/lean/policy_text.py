"""The Lean policy as text: the Markdown ``putnam policy`` prints and the brief a worker's prompt carries.

The rules themselves are data in the trusted package (``core.provers.lean._policy``), next to the gates
that apply them; rendering them decides nothing, so it lives here.
"""

from __future__ import annotations

from putnam_solver.core.provers.lean._policy import ADDITIONS, LeanPolicy
from putnam_solver.kits.policy_doc import Difference, Forbidden, PolicyDocument, Section


def brief(policy: LeanPolicy) -> str:
    """The rules a worker writing a proof needs, without the reasons (``describe`` has them; a
    rejection names the rule it applies)."""
    helpers = "; ".join(f"{p.construct}" for p in policy.permitted)
    forbidden = ", ".join(dict.fromkeys(f"`{r.construct}`" for r in policy.forbidden))
    return "\n".join(
        [
            f"- After the header and before the theorem you may add: {helpers}. A helper's name must be "
            "a plain identifier the challenge neither declares nor mentions.",
            "- Nothing else may change: no new `import`, `open` at the theorem, `variable`, `instance`, "
            "`notation`, namespace left open at the theorem, or code after the theorem.",
            f"- Forbidden anywhere outside comments and strings: {forbidden}.",
        ]
    )


def describe(policy: LeanPolicy) -> str:
    """The policy as Markdown, for users and docs (the format every prover's policy shares)."""
    return PolicyDocument(
        language="Lean",
        intro=(
            "A candidate is the challenge file with each hole filled: the theorem's proof and, on the",
            "no-answer track, the value of each `*_solution` declaration. On with-answer the challenge is",
            "PutnamBench's own text (answer inlined as `((<answer>) : <type>)`); a candidate that keeps",
            "`abbrev putnam_X_solution : T := <official answer>` is judged against that form instead.",
        ),
        semantic_check="G6 (profile `full`)",
        differences=tuple(Difference(a.kind, a.verdict, a.reason) for a in ADDITIONS),
        permitted=Section(
            "Permitted helpers (after the header, before the theorem)",
            tuple(f"- {p.construct}: {p.note}" for p in policy.permitted),
        ),
        sections=(
            Section(
                "No-answer track: the solution values",
                (
                    "A value must state the answer. It may not mention the theorem, nor name a choice operator",
                    f"({', '.join(f'`{c}`' for c in policy.choice_operators)}): `Classical.choose (h : ∃ x, P x)`",
                    "restates the problem instead of answering it. Forms the text cannot tell apart from",
                    "ordinary names (`h.choose`, `choose h` after `open Classical`, which could be `Nat.choose`)",
                    "and values that restate the problem in other words (`{x | P x}`) are not stopped by the",
                    "gates: the verdict records every value beside the official answer for review.",
                ),
            ),
        ),
        forbidden_where="anywhere outside comments and strings",
        forbidden=tuple(Forbidden(r.construct, r.rule, r.reason) for r in policy.forbidden),
    ).render()
