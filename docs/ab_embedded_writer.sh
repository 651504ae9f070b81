#!/bin/sh
# A/B of the embedded writer: BenchmarkPutOpenSheet32Embedded (store) of a
# base commit and of the working tree, as two test binaries run
# alternately in the same minutes, with the load average before each run
# and /usr/bin/time around it (docs/performance.md, issue 26).
#
#   docs/ab_embedded_writer.sh [base-ref] [pairs] [sheets]
#
# Defaults: base-ref main, 3 pairs, 3000 sheets. CPU per sheet is
# (user + sys - 2 x setup) / sheets, setup being the CPU of a -benchtime 1x
# run of the same binary (a benchmark's setup runs twice: b.N=1, then N).
set -eu
base=${1:-main}
pairs=${2:-3}
sheets=${3:-3000}
root=$(git rev-parse --show-toplevel)
out=$(mktemp -d)
mkdir "$out/base"
git -C "$root" archive "$base" | tar -x -C "$out/base"
(cd "$out/base" && go test -c -o "$out/old.test" ./store)
(cd "$root" && go test -c -o "$out/new.test" ./store)
cpu() { # binary benchtime -> "user+sys seconds" and the benchmark's line
	/usr/bin/time -f '%U %S' -o "$out/time" "$1" -test.run '^$' -test.bench 'PutOpenSheet32Embedded$' \
		-test.benchtime "$2" >"$out/bench" 2>&1 || { cat "$out/bench"; exit 1; }
	awk '{print $1 + $2}' "$out/time"
}
cd "$root/store"
setup_old=$(cpu "$out/old.test" 1x)
setup_new=$(cpu "$out/new.test" 1x)
echo "setup CPU: old ${setup_old}s, new ${setup_new}s"
i=0
while [ "$i" -lt "$pairs" ]; do
	for v in old new; do
		load=$(cut -d' ' -f1 /proc/loadavg)
		t=$(cpu "$out/$v.test" "${sheets}x")
		setup=$setup_old
		[ "$v" = new ] && setup=$setup_new
		per=$(echo "$t $setup $sheets" | awk '{printf "%.2f", ($1 - 2 * $2) / $3 * 1000}')
		line=$(grep 'PutOpenSheet32Embedded' "$out/bench" | tail -1)
		echo "$v load=$load cpu=${t}s cpu/sheet=${per}ms | $line"
	done
	i=$((i + 1))
done
rm -rf "$out"
