#!/usr/bin/env bash
# A/B test of the working tree against a git revision with go test -bench
# and benchstat: both test binaries are built first, then run alternately
# COUNT times each (interleaving spreads a shared machine's noise over both
# sides), and benchstat prints the comparison.
#
#   bench/abtest.sh HEAD~1 'SDPAF32' ./bench
#   COUNT=10 BENCHTIME=5x bench/abtest.sh main 'MicroKernel' ./backends/cpu
#
# benchstat: go install golang.org/x/perf/cmd/benchstat@latest (found on
# PATH or in $(go env GOPATH)/bin).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/abtest.sh REV BENCH-REGEX PACKAGE}
pat=${2:?usage: bench/abtest.sh REV BENCH-REGEX PACKAGE}
pkg=${3:?usage: bench/abtest.sh REV BENCH-REGEX PACKAGE}
COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-1s}
bs=$(command -v benchstat || echo "$(go env GOPATH)/bin/benchstat")
[ -x "$bs" ] || { echo "benchstat not found: go install golang.org/x/perf/cmd/benchstat@latest" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'git worktree remove --force "$tmp/old" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add -q --detach "$tmp/old" "$rev"
(cd "$tmp/old" && go test -c -o "$tmp/old.test" "$pkg")
go test -c -o "$tmp/new.test" "$pkg"
dir=$(go list -f '{{.Dir}}' "$pkg")
for _ in $(seq "$COUNT"); do
  (cd "$dir" && "$tmp/old.test" -test.run '^$' -test.bench "$pat" -test.benchtime "$BENCHTIME" -test.count 1 >>"$tmp/old.txt")
  (cd "$dir" && "$tmp/new.test" -test.run '^$' -test.bench "$pat" -test.benchtime "$BENCHTIME" -test.count 1 >>"$tmp/new.txt")
done
"$bs" "old=$tmp/old.txt" "new=$tmp/new.txt"
