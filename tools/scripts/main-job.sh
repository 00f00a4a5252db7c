#!/usr/bin/env bash
# The main job, on an installed and built checkout: the `bridle` command line on its demo
# grant (read and write this directory, a short list of everyday programs, no network),
# announced on stderr: what this host can enforce, an allowed call and a call whose escape
# attempts the kernel refuses (both on the default engine, the bash engine), the safe-subset
# engine refusing a substitution before anything runs, and a read through the read_file
# tool. tools/scripts/demo.sh installs and builds first; a test runs this file as is.
# bridle prints the content on stdout and its summary on stderr; the runs below show both
# in order (2>&1), the read pipes its content alone.
set -euo pipefail
cd "$(dirname "$0")/../.."
bridle() { node packages/mcp/dist/bin/bridle.js "$@"; }
echo "== bridle doctor"
bridle doctor
echo
echo "== bridle run -- 'ls packages | wc -l'"
bridle run -- 'ls packages | wc -l' 2>&1
echo
echo "== bridle run -- 'cat /etc/shadow; echo escaped > /tmp/bridle-demo-escape'"
bridle run -- 'cat /etc/shadow; echo escaped > /tmp/bridle-demo-escape' 2>&1 || true
echo
echo "== bridle run --engine safe -- 'echo \$(id)'"
bridle run --engine safe -- 'echo $(id)' 2>&1 || true
echo
echo "== bridle read README.md (first lines, via the read_file tool)"
bridle read README.md | head -n 12
