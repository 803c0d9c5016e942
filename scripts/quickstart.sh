#!/usr/bin/env bash
# Install putnambench-solver and run the main job on its defaults: verify the proofs in samples/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
export PATH="$PWD/.venv/bin:$PATH"
status=0
putnam verify --prover rocq --benchmark samples/rocq/benchmark.jsonl samples/rocq/proofs || status=$?
# miniF2F: build its pinned files from the upstream repositories (once), then verify the shipped proofs.
putnam check --benchmark minif2f >/dev/null 2>&1 || putnam dataset fetch --benchmark minif2f || status=$?
putnam verify --prover rocq --benchmark minif2f samples/minif2f/rocq || status=$?
putnam verify --prover lean --benchmark samples/lean/benchmark.jsonl --gates text samples/lean/proofs || status=$?
# The gates judge known-good and known-bad canaries on this machine's toolchain (exit 2 on a surprise).
putnam selftest --prover rocq || status=$?
putnam selftest --prover lean || status=$?
echo "putnam is installed in .venv/bin; next: putnam doctor, putnam dataset fetch --benchmark NAME, putnam bootstrap --benchmark NAME" >&2
exit "$status"
