#!/usr/bin/env bash
# Install everything the test suite needs and run it: lint, types, then every test.
# Usage: bash scripts/test.sh [pytest args...]
set -euo pipefail
cd "$(dirname "$0")/.."

# System tools the real-part tests use: bubblewrap (sandbox), Coq with the PutnamBench libraries,
# ripgrep, gcc (links the toy Lean used by the Lean compile tests).
need_apt=0
for tool in bwrap coqc coqchk rg gcc git; do command -v "$tool" >/dev/null || need_apt=1; done
[ -d /usr/lib/ocaml/coq-core ] || [ -d /usr/lib/coq ] || need_apt=1
if [ "$need_apt" = 1 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      bubblewrap coq libcoq-mathcomp libcoq-mathcomp-analysis libcoq-coquelicot ripgrep gcc libc6-dev git >/dev/null
  else
    echo "warning: bubblewrap/coq/ripgrep/gcc missing and cannot apt-get install them; those tests will skip" >&2
  fi
fi

python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"

export PUTNAM_BENCHMARK="${PUTNAM_BENCHMARK:-$(cd .. && pwd)/shared/data/putnambench}"
.venv/bin/ruff check src tests bench
.venv/bin/mypy
.venv/bin/python -m pytest "$@"
