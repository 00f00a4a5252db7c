#!/usr/bin/env bash
# The README's main-job command: installs, builds, then runs the `bridle` command line on
# its demo grant (read and write this directory, a short list of everyday programs, no
# network): what this host can enforce, an allowed call, and a call whose escape attempts
# the grant stops.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash tools/scripts/pnpm.sh install --frozen-lockfile >&2
bash tools/scripts/pnpm.sh run --silent build >&2
bridle() { node packages/mcp/dist/bin/bridle.js "$@"; }
echo "== bridle doctor"
bridle doctor
echo
echo "== bridle run --engine host -- 'ls packages | wc -l'"
bridle run --engine host -- 'ls packages | wc -l'
echo
echo "== bridle run --engine host -- 'cat /etc/shadow; echo escaped > /tmp/bridle-demo-escape'"
bridle run --engine host -- 'cat /etc/shadow; echo escaped > /tmp/bridle-demo-escape' || true
echo
echo "== bridle read README.md (first lines, via the read_file tool)"
bridle read README.md | head -n 12
