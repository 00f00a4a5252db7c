#!/usr/bin/env bash
# The README's test command: installs everything (pinned pnpm, locked dependencies),
# builds every package, type-checks, lints, checks layer boundaries and runs every
# vitest suite. Works on a fresh machine with only Node 20 and npm.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CI="${CI:-true}"
bash tools/scripts/pnpm.sh install --frozen-lockfile
bash tools/scripts/pnpm.sh run test
