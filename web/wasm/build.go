package wasm

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// EntryPackage is the engine's entry, built for GOOS=js GOARCH=wasm.
const EntryPackage = "segnapunti/cmd/engine-wasm"

// LoaderPath is where the page's copy of the toolchain's wasm_exec.js
// lives, relative to the module root.
const LoaderPath = "web/static/vendor/wasm_exec.js"

// Flags are the build's flags: -trimpath so the bytes do not depend on
// where the module sits, -s -w for size (no symbol table, no DWARF).
var Flags = []string{"-trimpath", "-ldflags=-s -w"}

// wasmEnv is the environment of the js/wasm go commands, run in the
// module root.
func wasmEnv() []string {
	return append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0", "GOFLAGS=")
}

// Build compiles the engine in the module at root and returns the .wasm.
func Build(ctx context.Context, root string) ([]byte, error) {
	dir, err := os.MkdirTemp("", "engine-wasm-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "engine.wasm")
	args := append([]string{"build"}, Flags...)
	args = append(args, "-o", out, EntryPackage)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir, cmd.Env = root, wasmEnv()
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build (js/wasm): %v: %s", err, msg)
	}
	return os.ReadFile(out)
}

// SourceHash is a hash of everything the engine is built from: the Go
// version, go.mod and go.sum, and every Go and embedded file of the
// module's and its dependencies' packages the entry imports (the standard
// library is the Go version). A change to any of them changes the hash.
func SourceHash(ctx context.Context, root string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps",
		"-f", "{{if not .Standard}}{{.ImportPath}}\t{{.Dir}}\t{{join .GoFiles \" \"}} {{join .EmbedFiles \" \"}}{{end}}", EntryPackage)
	cmd.Dir, cmd.Env = root, wasmEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	list, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list (js/wasm): %v: %s", err, stderr.Bytes())
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s %v\n", runtime.Version(), Flags)
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, root, name); err != nil {
			return "", err
		}
	}
	lines := strings.Split(strings.TrimSpace(string(list)), "\n")
	sort.Strings(lines)
	for _, line := range lines {
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			continue
		}
		files := strings.Fields(parts[2])
		sort.Strings(files)
		for _, f := range files {
			fmt.Fprintf(h, "%s/%s\n", parts[0], f)
			if err := hashFile(h, parts[1], f); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h interface{ Write([]byte) (int, error) }, dir, name string) error {
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%d\n", len(b))
	_, err = h.Write(b)
	return err
}

// Compress is the served form of a .wasm: gzip at the best level, with no
// name or time in the header, so the same .wasm gives the same bytes.
func Compress(wasm []byte) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(wasm); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Sum is the hex SHA-256 of a .wasm: its URL and the committed record.
func Sum(wasm []byte) string {
	s := sha256.Sum256(wasm)
	return hex.EncodeToString(s[:])
}

// Record is the content of engine.sum: what the committed engine was
// built from and what it is.
func Record(source string, wasm []byte) string {
	return fmt.Sprintf("source %s\nwasm %s\ngo %s\n", source, Sum(wasm), runtime.Version())
}
