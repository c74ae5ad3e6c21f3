#!/usr/bin/env bash
# Runs ponder's benchmarks against their baselines and rewrites
# docs/benchmarks.md. Needs curl, and ripgrep for the Grep comparison
# (apt-get install ripgrep). Usage: bench/run.sh [extra report flags]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The release build: static, without the C library (see the README).
CGO_ENABLED=0 go build -o "$out/ponder" ./cmd/ponder
CGO_ENABLED=0 go build -o "$out/sdkfloor" ./bench/cmd/sdkfloor
go run ./bench/cmd/report -ponder "$out/ponder" -floor "$out/sdkfloor" "$@" > "$out/benchmarks.md"
mkdir -p docs
# Sections added by other measurements (rendering, resume) are kept.
if [ -f docs/benchmarks.extra.md ]; then cat docs/benchmarks.extra.md >> "$out/benchmarks.md"; fi
mv "$out/benchmarks.md" docs/benchmarks.md
echo "wrote docs/benchmarks.md"
