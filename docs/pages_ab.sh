#!/bin/sh
# A/B of the secretary's and referee's pages (issue 26): builds the
# browsertest benchmarks of two revisions and runs them alternately,
# printing the load average before each run.
#   docs/pages_ab.sh BASE [HEAD] [PAIRS]
# BASE and HEAD are revisions of this repository (HEAD: the work tree's
# HEAD); the benchmarks of HEAD's web/browsertest are copied into BASE's
# tree so that both measure the same pages. Output: /tmp/pages-ab/*.txt.
set -eu
base=$1 head=${2:-HEAD} pairs=${3:-2}
out=/tmp/pages-ab
rm -rf "$out" && mkdir -p "$out"
repo=$(git rev-parse --show-toplevel)
for side in base head; do
	rev=$base
	[ "$side" = head ] && rev=$head
	git -C "$repo" worktree add --detach "$out/$side-tree" "$rev" >/dev/null
	for f in heavy_pages_bench_test.go secretary_bench_test.go secretary_bench_helpers_test.go; do
		git -C "$repo" show "$head:web/browsertest/$f" >"$out/$side-tree/web/browsertest/$f"
	done
	(cd "$out/$side-tree" && go test -c -o "$out/$side.test" ./web/browsertest)
	git -C "$repo" worktree remove --force "$out/$side-tree"
done
cd "$out"
for i in $(seq "$pairs"); do
	for side in base head; do
		{ uptime; ./$side.test -test.run '^$' -test.bench HeavyPages -test.benchtime 20x -test.benchmem; } >"heavy-$side-$i.txt" 2>&1
		{ uptime; ./$side.test -test.run '^$' -test.bench SecretaryPages -test.benchtime 1x; } >"secretary-$side-$i.txt" 2>&1
	done
done
grep -H 'load average' ./*.txt || true
