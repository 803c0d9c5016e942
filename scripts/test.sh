#!/usr/bin/env bash
# Install everything the test suite needs and run it: lint, types, then every test.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh test
export PUTNAM_BENCHMARK="${PUTNAM_BENCHMARK:-$(cd .. && pwd)/shared/data/putnambench}"
.venv/bin/ruff check src tests bench
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
