#!/usr/bin/env bash
# The README's main-job command: installs, builds and runs the registry demo on a demo grant.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/pnpm.sh install --frozen-lockfile >&2
bash tools/scripts/pnpm.sh run --silent demo
