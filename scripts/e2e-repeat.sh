#!/usr/bin/env bash
# The proof that no browser test is flaky: the whole browser suite (Playwright's e2e specs, then
# the engine matrix) N times in a row, stopping at the first failure.
#
#   scripts/e2e-repeat.sh [N] [--fresh]
#
# N defaults to 5. --fresh runs it in a fresh clone of HEAD (in a temporary folder, removed
# afterwards) after `npm ci`, as CI does; without it, in this work tree. Slow on two cores (about
# ten minutes a run): start it and walk away.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
fresh=false
for arg in "$@"; do
  case "$arg" in
    --fresh) fresh=true ;;
    ''|*[!0-9]*) echo "usage: scripts/e2e-repeat.sh [N] [--fresh]" >&2; exit 2 ;;
    *) runs="$arg" ;;
  esac
done

if $fresh; then
  clone="$(mktemp -d)"
  trap 'rm -rf "$clone"' EXIT
  git clone --quiet . "$clone"
  cd "$clone"
  echo "== fresh clone of $(git rev-parse --short HEAD) in $clone: npm ci"
  npm ci --no-audit --no-fund >/dev/null
fi

echo "== build"
npm run build >/dev/null
# The framework fixtures' packed tarball, which frameworks.spec.ts loads.
npm run test:frameworks >/dev/null
# The examples' install of the same tarball, which examples.spec.ts runs.
npm run examples:install >/dev/null

for i in $(seq 1 "$runs"); do
  started=$(date +%s)
  echo "== run $i of $runs"
  npx playwright test
  npm run test:engines
  echo "== run $i of $runs passed in $(( $(date +%s) - started )) s"
done
echo "== $runs runs in a row passed"
