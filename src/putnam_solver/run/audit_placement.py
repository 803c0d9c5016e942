"""Where ``putnam audit`` re-verifies a pass: never where the ledger's text alone says.

Under ``--ray`` an audit re-runs each pass on another node than the one that produced it (``dispatch.elsewhere``):
a node that forged one verdict must not be the one to confirm it. The producing node is named in the stored
verdict's ``ran_on``, ledger text: read as it is, an editor naming the honest node (of two) sent the audit to
the other, the very node to be kept away from; a name no node has was recorded as "avoided" though nothing
was. So the name steers only when this account's ``putnam solve`` sealed the attempt row that holds it
(``ledger_seals``), and the cluster records it as the node the head sent the task to (``cluster.ray``):

- sealed, and another node can take the task: that node re-verifies; if none can, the head does
  (``audit`` re-runs it here: the producer never confirms its own pass);
- named in a row whose seal does not check: the name is not believed either way, and no node of the cluster
  is known not to be the producer, so the head re-verifies it;
- no node named (the pass was verified where ``solve`` ran): the audit's verifier, as asked.

Ledger text can so only narrow where a pass is re-verified (to the head, which trusts no node), never choose
a node. The audit row records which case it was (``audit.placement``).
"""

from __future__ import annotations

from putnam_solver.run.ledger_rows import AttemptRow
from putnam_solver.verifier.dispatch import LOCAL, Verifier, on_nodes

AS_ASKED = "where the audit was asked to verify (the ledger names no node that produced this pass)"
AWAY_FROM = "on another node than {node}, which produced this pass (as this account's `putnam solve` sealed it)"
ON_HEAD_UNSEALED = (
    "on the head: the ledger names a node that produced this pass, in a row whose seal does not check, so the "
    "name is not believed and no node is known not to be the producer"
)
ON_HEAD_SOLE_NODE = "on the head: no node of the cluster but the one that produced this pass could take it"
NOT_RUN = "not verified: refused before any gate ran"


def produced_on(attempt: AttemptRow) -> str | None:
    """The node the attempt's stored verdict names as the one that produced it (ledger text)."""
    ran_on = (attempt.verdict or {}).get("ran_on")
    named = ran_on.get("node_id") if isinstance(ran_on, dict) else None
    return named if isinstance(named, str) and named else None


def choose(verifier: Verifier, attempt: AttemptRow, sealed: bool) -> tuple[Verifier, str | None, str]:
    """The verifier to re-verify ``attempt`` on, the node to avoid there (None: none) and what the audit row
    says of it; ``sealed``: this account's ``putnam solve`` sealed the attempt's row."""
    named = produced_on(attempt)
    if named is None or not on_nodes(verifier):
        return verifier, None, AS_ASKED if named is None else "on the head (the audit runs no node)"
    if not sealed:
        return LOCAL, None, ON_HEAD_UNSEALED
    return verifier, named, AWAY_FROM.format(node=named[:40])
