#!/usr/bin/env bash
# Install putnambench-solver into ./.venv, with the system tools its gates run.
# Usage: bash scripts/install.sh [EXTRAS]   (EXTRAS e.g. "test" or "axle"; default none)
set -euo pipefail
cd "$(dirname "$0")/.."

# bubblewrap (the sandbox), Coq 8.16 with the PutnamBench libraries (the Rocq gates), ripgrep (the
# agent's search tool), socat (Claude Code's command sandbox, for --agent claude-code), gcc and git.
need_apt=0
for tool in bwrap coqc coqchk rg socat gcc git; do command -v "$tool" >/dev/null || need_apt=1; done
coqlib=$(coqc -where 2>/dev/null || true)
for lib in mathcomp/ssreflect mathcomp/analysis Coquelicot; do
  [ -n "$coqlib" ] && [ -d "$coqlib/user-contrib/$lib" ] || need_apt=1
done
if [ "$need_apt" = 1 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing system packages with apt-get (bubblewrap, coq and its libraries, ripgrep, gcc)" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      bubblewrap coq libcoq-mathcomp libcoq-mathcomp-analysis libcoq-coquelicot \
      ripgrep socat gcc libc6-dev git ca-certificates >/dev/null
  else
    echo "warning: bubblewrap, coq, ripgrep or gcc is missing and apt-get cannot run here;" \
      "install them (see README) or the gates that need them report 'unavailable'" >&2
  fi
fi

# Chromium renders the HTML report headless in the tests (screenshots, the page offline): test setups only.
case ",${1:-}," in
  *,test,*)
    if ! command -v chromium >/dev/null; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing chromium with apt-get (the report's browser tests)" >&2
        [ "$need_apt" = 1 ] || apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
      else
        echo "warning: chromium is missing and apt-get cannot run here; the report's browser tests are skipped" >&2
      fi
    fi
    ;;
esac

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
# requirements.lock holds the exact versions the tests run with; pyproject.toml the ranges.
.venv/bin/python -m pip install -q -e ".${1:+[$1]}" -c requirements.lock
# An editable install leaves our sources uncompiled: compile them now, so that no command (an MCP client
# waits for `putnam mcp` to answer) compiles them at start, nor needs to write into the checkout to cache
# them (PYTHONDONTWRITEBYTECODE, a read-only checkout). pip compiles what it installs from wheels itself.
.venv/bin/python -m compileall -q src
