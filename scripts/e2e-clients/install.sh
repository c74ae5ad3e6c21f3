#!/usr/bin/env bash
# Installs the real third-party clients the end-to-end tests drive ponder
# with (the Claude Agent SDK, the ACP and MCP TypeScript SDKs) into a cache
# outside the repository, and prints the node_modules directory. Tests find
# it through PONDER_E2E_NODE_MODULES.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${PONDER_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ponder-e2e-clients}"
mkdir -p "$cache"
if ! cmp -s "$here/package-lock.json" "$cache/package-lock.json" || [ ! -d "$cache/node_modules" ]; then
  cp "$here/package.json" "$here/package-lock.json" "$cache/"
  (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error >&2)
fi
echo "$cache/node_modules"
