#!/usr/bin/env bash
# The README's main-job command: installs, builds, then runs the main job
# (tools/scripts/main-job.sh: the `bridle` command line on its demo grant).
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/pnpm.sh install --frozen-lockfile >&2
bash tools/scripts/pnpm.sh run --silent build >&2
exec bash tools/scripts/main-job.sh
