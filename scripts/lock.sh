#!/usr/bin/env bash
# Regenerate requirements.lock: the newest versions within pyproject.toml's ranges, for Linux and the
# Python the project targets, every extra included. Review the diff, then run the tests.
# Usage: bash scripts/lock.sh
set -euo pipefail
cd "$(dirname "$0")/.."
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools/venv"
"$tools/venv/bin/python" -m pip install -q uv
{
  sed -n '1,4p' requirements.lock
  "$tools/venv/bin/uv" pip compile pyproject.toml --all-extras --python-version 3.11.7 --no-header -q -o -
} > "$tools/lock"
mv "$tools/lock" requirements.lock
