#!/usr/bin/env bash
# The long fault runs that CI keeps short: many SIGKILLs at random points
# of a multi-turn session (each followed by a resume that must give the
# model a valid conversation), a longer run of the transcript fuzzer, and
# Grep's peak memory on a large generated file.
#
# Usage: bench/faults.sh [kills per API, default 200] [fuzz time, default 2m] [file MB, default 1024]
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-200}
fuzztime=${2:-2m}
mb=${3:-1024}
echo "== $kills kill -9 rounds per API"
PONDER_KILL_LOOPS="$kills" go test -count=1 -timeout 2h -run '^TestKill9Loop$' -v ./internal/e2e | grep -E '^(---|ok|FAIL)|    ---'
echo "== transcript fuzzer for $fuzztime"
go test -run '^$' -fuzz '^FuzzParse$' -fuzztime "$fuzztime" ./internal/session
echo "== Grep on a $mb MB file"
PONDER_GREP_MEMORY_MB="$mb" go test -count=1 -run '^TestGrepLargeFileMemory$' -v ./internal/tool/builtin | grep -E 'peak RSS|^(ok|FAIL)'
