package app_test

import (
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The layers (README "Layout"): the two doors, api/ and web/, reach the
// database only through the operations of this package, so that a rule of
// access or workflow is kept in one place and both doors obey it; domain/
// is the rules alone and is compiled to WebAssembly for the phones, so it
// imports nothing of the module. Test files may seed a database directly.
func TestLayers(t *testing.T) {
	for _, c := range []struct {
		root      string
		forbidden func(imp string) bool
		why       string
	}{
		{"../api", func(imp string) bool { return imp == "segnapunti/store" || strings.HasPrefix(imp, "segnapunti/store/") },
			"the doors call app, never the store"},
		{"../web", func(imp string) bool { return imp == "segnapunti/store" || strings.HasPrefix(imp, "segnapunti/store/") },
			"the doors call app, never the store"},
		{"../domain", func(imp string) bool { return imp == "segnapunti" || strings.HasPrefix(imp, "segnapunti/") },
			"domain is pure: it imports nothing of ours"},
	} {
		for dir, imports := range packageImports(t, c.root) {
			for _, imp := range imports {
				if c.forbidden(imp) {
					t.Errorf("%s imports %s: %s", dir, imp, c.why)
				}
			}
		}
	}
}

// packageImports maps every Go package under root (testdata, static files
// and the like skipped) to the imports of its non-test files.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		out[path] = slices.Clone(pkg.Imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) == 0 {
		t.Fatalf("no packages under %s", root)
	}
	return out
}
