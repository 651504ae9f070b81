//go:build linux

package sheetjson

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"

	"segnapunti/domain"
)

// cpuTime is the CPU time the process has used, GC workers included. On a
// shared machine it is a fairer clock than the wall: time spent waiting
// for a core is not counted.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRatio measures the target directly: decode + validate
// against bare encoding/json decodes of the same sheets, in alternating
// blocks of 100 sheets timed by CPU time, so both sides see the same
// machine. Metrics: x-wire and x-map are the ratios (target x-wire <= 1.5).
func BenchmarkRatio(b *testing.B) {
	_, batch := benchData()
	var wrapper struct{ Sheets []json.RawMessage }
	if err := json.Unmarshal(batch, &wrapper); err != nil {
		b.Fatal(err)
	}
	elems := wrapper.Sheets
	const block = 100
	var ours, wire, anyMap time.Duration
	n := 0
	for b.Loop() {
		from := (n * block) % len(elems)
		part := elems[from : from+block]
		n++
		t0 := cpuTime()
		for _, data := range part {
			sheets, _, err := Decode(data)
			if err != nil {
				b.Fatal(err)
			}
			_ = domain.Validate(sheets[0])
		}
		t1 := cpuTime()
		for _, data := range part {
			var w wireSheet
			if err := json.Unmarshal(data, &w); err != nil {
				b.Fatal(err)
			}
		}
		t2 := cpuTime()
		for _, data := range part {
			var m map[string]any
			if err := json.Unmarshal(data, &m); err != nil {
				b.Fatal(err)
			}
		}
		t3 := cpuTime()
		ours, wire, anyMap = ours+t1-t0, wire+t2-t1, anyMap+t3-t2
	}
	sheets := float64(n * block)
	b.ReportMetric(float64(ours)/float64(wire), "x-wire")
	b.ReportMetric(float64(ours)/float64(anyMap), "x-map")
	b.ReportMetric(float64(ours.Nanoseconds())/sheets, "ours-cpu-ns/sheet")
	b.ReportMetric(float64(wire.Nanoseconds())/sheets, "wire-cpu-ns/sheet")
	b.ReportMetric(float64(anyMap.Nanoseconds())/sheets, "map-cpu-ns/sheet")
}
