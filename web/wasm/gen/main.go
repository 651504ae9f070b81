// Command gen rebuilds the table page's engine (run by `go generate
// ./web/wasm`): engine.wasm.gz and engine.sum in the current directory.
package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"segnapunti/web/wasm"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx := context.Background()
	gomod, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		return err
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	src, err := wasm.SourceHash(ctx, root)
	if err != nil {
		return err
	}
	bin, err := wasm.Build(ctx, root)
	if err != nil {
		return err
	}
	gz, err := wasm.Compress(bin)
	if err != nil {
		return err
	}
	if err := os.WriteFile("engine.wasm.gz", gz, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile("engine.sum", []byte(wasm.Record(src, bin)), 0o644); err != nil {
		return err
	}
	// The page's loader must be the one of the toolchain that built the
	// engine (web/static/vendor/README.md).
	loader, err := os.ReadFile(filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(root, wasm.LoaderPath), loader, 0o644); err != nil {
		return err
	}
	fmt.Printf("engine.wasm: %d bytes, %d gzip\n", len(bin), len(gz))
	return nil
}
