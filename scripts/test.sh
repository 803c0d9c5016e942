#!/usr/bin/env bash
# Install everything the test suite needs and run it: lint, types, then every test.
# Usage: bash scripts/test.sh [pytest args...]
# Without a -m marker expression the whole-benchmark sweeps (marked slow) are left out; they run on a
# fixed sample instead. `bash scripts/test.sh -m slow` runs the sweeps in full.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh test
# Claude Code for the --agent claude-code tests (they skip with the reason where npm cannot install it).
claude_prefix=.venv/claude-code
if [ ! -x "$claude_prefix/node_modules/.bin/claude" ] && command -v npm >/dev/null; then
  version=$(.venv/bin/python -c "from putnam_solver.run.agent.cli_worker import CLAUDE_CODE_VERSION as v; print(v)")
  npm install --silent --no-audit --no-fund --prefix "$claude_prefix" "@anthropic-ai/claude-code@$version" \
    >/dev/null || echo "warning: could not install Claude Code; its tests will be skipped" >&2
fi
if [ -x "$claude_prefix/node_modules/.bin/claude" ]; then
  export PUTNAM_CLAUDE_CODE="$PWD/$claude_prefix/node_modules/.bin/claude"
fi
# The benchmark files are the copies packaged with putnam unless PUTNAM_BENCHMARK names others: a fresh
# clone needs nothing beside it.
.venv/bin/ruff check src tests bench examples
.venv/bin/ruff format --check src tests bench examples
.venv/bin/mypy
# The distribution builds and its metadata renders (what PyPI would show).
dist=$(mktemp -d)
.venv/bin/python -m build --outdir "$dist" . >"$dist/build.log" 2>&1 || { cat "$dist/build.log" >&2; exit 1; }
.venv/bin/twine check --strict "$dist"/*.whl "$dist"/*.tar.gz
rm -rf "$dist"
case " $* " in
  *" -m "*) ;;
  *) set -- -m "not slow" "$@" ;;
esac
# Two worker processes (pytest-xdist), each test file whole on one of them so that a module's fixtures
# (a Ray cluster, a warm checker session) start once; `-n 0` after the test command runs in one process.
.venv/bin/python -m pytest -n 2 --dist loadfile "$@"
