//go:build linux

package main

import (
	"context"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the CPU time the process has used, GC workers included. On a
// shared machine it is a fairer clock than the wall: time spent waiting
// for a core is not counted.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCLIRatio measures the goal directly: CPU time of
// `segnapunti validate --format json` on the 100,000-sheet batch against a
// bare encoding/json v1 decode of the same file, alternating in the same
// run so that both see the same machine. x-bare is the ratio (target at or
// below 1.0); compare runs with benchstat:
//
//	go test ./cmd/segnapunti -run '^$' -bench CLIRatio -benchtime 3x -count 6
func BenchmarkCLIRatio(b *testing.B) {
	path, err := batchFile()
	if err != nil {
		b.Fatal(err)
	}
	if err := bareDecode(path); err != nil { // warm the page cache
		b.Fatal(err)
	}
	var cli, bare time.Duration
	for b.Loop() {
		t0 := cpuTime()
		code := run(context.Background(), []string{"validate", "--format", "json", path}, func(string) string { return "" },
			strings.NewReader(""), io.Discard, io.Discard)
		if code != exitOK {
			b.Fatalf("exit %d", code)
		}
		t1 := cpuTime()
		if err := bareDecode(path); err != nil {
			b.Fatal(err)
		}
		t2 := cpuTime()
		cli, bare = cli+t1-t0, bare+t2-t1
	}
	b.ReportMetric(float64(cli)/float64(bare), "x-bare")
	b.ReportMetric(cli.Seconds()/float64(b.N), "cli-cpu-s/op")
	b.ReportMetric(bare.Seconds()/float64(b.N), "bare-cpu-s/op")
}
