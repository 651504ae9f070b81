// Package wasm holds the table page's rules engine compiled to WebAssembly
// (the entry is cmd/engine-wasm, the code engine.Check): the
// .wasm gzip-compressed as it is served (engine.wasm.gz) and engine.sum,
// the hash of the sources it was built from and of the .wasm itself.
// `go generate ./web/wasm` rebuilds both; TestEngineFresh fails when they
// are stale, so `go run ./cmd/segnapunti serve` needs no build step.
package wasm

//go:generate go run ./gen

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"io"
	"strings"
)

//go:embed engine.wasm.gz
var engineGzip []byte

//go:embed engine.sum
var engineSum string

// Gzip is the engine as served to a browser that accepts gzip.
func Gzip() []byte { return engineGzip }

// Plain is the engine uncompressed, for a browser that does not accept
// gzip (rare: every browser able to run WebAssembly does).
func Plain() ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(engineGzip))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// Version is the first 12 hex digits of the .wasm's SHA-256: the engine's
// URL changes with its content, so it can be cached for good.
func Version() string { return recorded("wasm")[:12] }

// recorded is a field of engine.sum ("source", "wasm", "go").
func recorded(field string) string {
	for _, line := range strings.Split(engineSum, "\n") {
		if k, v, ok := strings.Cut(line, " "); ok && k == field {
			return v
		}
	}
	return strings.Repeat("0", 64)
}
