#!/usr/bin/env bash
# Install putnambench-solver (with the agent extra `putnam solve` needs) and run the main job on its
# defaults: verify published proofs of real benchmark problems against the pinned statements that ship
# with the package. Nothing here needs the network after the install.
# Usage: bash scripts/quickstart.sh [--no-install]   (--no-install: use the `putnam` already on PATH)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-install" ]; then
  bash scripts/install.sh agent
  export PATH="$PWD/.venv/bin:$PATH"
fi
status=0
step() { echo "+ putnam $*" >&2; putnam "$@" || status=$?; }
# The pinned benchmark files: which copy is used (the packaged one on a fresh install), each against its pin.
step check
# PutnamBench Rocq: proofs published by others, full profile (real coqc, the trusted type check, coqchk).
step verify --prover rocq --benchmark putnambench samples/published/putnambench-rocq
# miniF2F Rocq (valid split), full profile: proofs written for this project (17 in samples/minif2f/rocq).
step verify --prover rocq --benchmark minif2f:valid \
  samples/minif2f/rocq/{mathd_algebra_104,mathd_algebra_455,mathd_numbertheory_81,numbertheory_2dvd4expn}.v
# PutnamBench Lean: proofs published by others, through the text gates (G1-G3: nothing is compiled here).
step verify --prover lean --benchmark putnambench --gates text samples/published/putnambench-lean
step list --benchmark minif2f:test --max-problems 3
cat >&2 <<'NEXT'

Next, depending on what you want:
  a model run    export OPENAI_API_KEY=...   (or ANTHROPIC_API_KEY)
                 putnam solve --model openai/gpt-5 --prover rocq --benchmark minif2f:test --max-problems 5
                 (the gates' selftest runs first; `putnam report runs/<run>` draws the result)
  a service      pip install 'putnambench-solver[serve]'   then  putnam serve --keys keys.txt
                 pip install 'putnambench-solver[mcp]'     then  putnam mcp   (the gates as MCP tools)
  Lean           putnam bootstrap --benchmark putnambench   (Lean v4.27.0, Mathlib cache, comparator: a few GB)
                 putnam verify --prover lean --benchmark putnambench samples/published/putnambench-lean
  what runs here putnam doctor
NEXT
exit "$status"
