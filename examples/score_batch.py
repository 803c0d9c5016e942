"""Score a batch of proofs with ``putnam serve``, as RL code computes rewards.

Usage: PUTNAM_API_KEY=KEY python examples/score_batch.py URL PROOFS.jsonl [--prover lean] [--profile full]

Each line of PROOFS.jsonl is ``{"problem": "putnam_1962_a2", "proof": "<the whole file>"}``. Prints one
JSON line per proof (``problem``, ``status``, ``reward``: 1.0 only when every gate accepted it, the
first failing gate otherwise) and the pass rate last.
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
    args = parser.parse_args()
    items = [json.loads(line) for line in args.proofs.read_text(encoding="utf-8").splitlines() if line.strip()]
    requests = [Request(i["problem"], i["proof"], args.prover, args.profile) for i in items]
    with PutnamClient(args.url) as client:
        verdicts = client.verify_many(requests)
    for verdict in verdicts:
        failing = next((g["id"] for g in verdict["gates"] if g["status"] != "passed"), None)
        reward = 1.0 if verdict["status"] == "accepted" else 0.0
        print(
            json.dumps(
                {"problem": verdict["problem"], "status": verdict["status"], "reward": reward, "failing": failing}
            )
        )
    print(json.dumps({"pass_rate": sum(v["status"] == "accepted" for v in verdicts) / max(len(verdicts), 1)}))


if __name__ == "__main__":
    main()
