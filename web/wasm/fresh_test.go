package wasm

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// moduleRoot is the directory of go.mod.
func moduleRoot(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// TestEngineFresh: the committed engine is what its sources build today
// ("a test rebuilds it (-trimpath) and fails when the committed
// file is stale"). The source hash says so in a second; the rebuild, tens
// of seconds, checks the bytes themselves.
func TestEngineFresh(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	root := moduleRoot(t)
	src, err := SourceHash(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if src != recorded("source") {
		t.Fatalf("web/wasm/engine.wasm.gz is stale: its sources changed (source hash %s, recorded %s); run `go generate ./web/wasm` and commit the result", src, recorded("source"))
	}
	plain, err := Plain()
	if err != nil {
		t.Fatalf("engine.wasm.gz does not decompress: %v", err)
	}
	want, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(root, LoaderPath)); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is not the toolchain's wasm_exec.js (%v): run `go generate ./web/wasm`", LoaderPath, err)
	}
	if Sum(plain) != recorded("wasm") {
		t.Fatalf("engine.wasm.gz (sha256 %s) is not the .wasm engine.sum records (%s)", Sum(plain), recorded("wasm"))
	}
	if testing.Short() {
		t.Skip("-short: the rebuild is skipped")
	}
	built, err := Build(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, plain) {
		t.Fatalf("a fresh -trimpath build (%d bytes, sha256 %s) differs from the committed engine (%d bytes, sha256 %s): run `go generate ./web/wasm`",
			len(built), Sum(built), len(plain), Sum(plain))
	}
	gz, err := Compress(built)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(gz, Gzip()) {
		t.Fatalf("the committed engine.wasm.gz is not the compressed build: run `go generate ./web/wasm`")
	}
	t.Logf("engine: %d bytes, %d gzip", len(plain), len(gz))
}

// TestRecordedFields: Version reads engine.sum and a missing field is
// zeros, never a panic.
func TestRecordedFields(t *testing.T) {
	if v := Version(); len(v) != 12 || v != recorded("wasm")[:12] {
		t.Errorf("Version() = %q", v)
	}
	if got := recorded("nothing"); got != strings.Repeat("0", 64) {
		t.Errorf("recorded(missing) = %q", got)
	}
}
