#!/usr/bin/env bash
# Runs the pinned pnpm (package.json "packageManager") without a global install:
# fetched once by npx into npm's cache. Needs only Node 20 and npm.
set -euo pipefail
version=$(node -p 'require("./package.json").packageManager.split("@")[1]')
exec npx --yes "pnpm@${version}" "$@"
