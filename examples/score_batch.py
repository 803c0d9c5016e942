"""Score a batch of proofs with ``putnam serve``, as RL code computes rewards.

Usage: PUTNAM_API_KEY=KEY python examples/score_batch.py URL PROOFS.jsonl [--prover lean] [--profile full]

Each line of PROOFS.jsonl is ``{"problem": "putnam_1962_a2", "proof": "<the whole file>"}``. Prints one
JSON line per proof (``problem``, ``status``, ``reward``: 1.0 only when every gate accepted it,
``failing``: the first gate that did not pass, with its first error line) and the pass rate last. The
server answers compact verdicts (a few hundred bytes each); ``--full`` asks for whole ones.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from putnam_solver.client import PutnamClient, Request


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("proofs", type=Path)
    parser.add_argument("--prover", default=None)
    parser.add_argument("--profile", default="full")
    parser.add_argument("--full", action="store_true", help="ask for whole verdicts (every gate's evidence)")
    args = parser.parse_args()
    items = [json.loads(line) for line in args.proofs.read_text(encoding="utf-8").splitlines() if line.strip()]
    requests = [Request(i["problem"], i["proof"], args.prover, args.profile) for i in items]
    with PutnamClient(args.url) as client:
        verdicts = client.verify_many(requests, full=args.full)
    for verdict in verdicts:
        reward = 1.0 if verdict["status"] == "accepted" else 0.0
        failing = verdict.get("failing_gate") or next(
            (f"{g['id']} {g['name']}" for g in verdict.get("gates", []) if g["status"] != "passed"), None
        )
        first = (verdict.get("errors") or [None])[0]
        shown = {"problem": verdict["problem"], "status": verdict["status"], "reward": reward, "failing": failing}
        print(json.dumps(shown | ({"error": first} if first else {})))
    print(json.dumps({"pass_rate": sum(v["status"] == "accepted" for v in verdicts) / max(len(verdicts), 1)}))


if __name__ == "__main__":
    main()
