package migrations

import (
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var fileName = regexp.MustCompile(`^(\d{5})_[a-z0-9_]+\.sql$`)

// versions lists a folder's version numbers, failing on a badly named file.
func versions(t *testing.T, dialect string) []string {
	t.Helper()
	dir, err := Dir(dialect)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		m := fileName.FindStringSubmatch(e.Name())
		if m == nil {
			t.Errorf("%s/%s: want NNNNN_name.sql", dialect, e.Name())
			continue
		}
		out = append(out, m[1])
	}
	return out
}

// One SQL file cannot serve both databases, so each version exists twice;
// goose numbers them by file name, and the two folders must agree or one
// database would skip a change (DEPENDENCIES.md, goose).
func TestBothDialectsHaveTheSameVersions(t *testing.T) {
	pg, lite := versions(t, "postgres"), versions(t, "sqlite")
	if len(pg) == 0 {
		t.Fatal("no migrations")
	}
	if !slices.Equal(pg, lite) {
		t.Fatalf("postgres versions %v, sqlite versions %v", pg, lite)
	}
	for i, v := range pg {
		if want := fmt.Sprintf("%05d", i+1); v != want {
			t.Errorf("version %s at position %d: want consecutive versions from 00001", v, i+1)
		}
	}
}

// Every file can be applied and reverted: goose needs both annotations.
func TestEveryFileHasUpAndDown(t *testing.T) {
	for _, dialect := range Dialects {
		dir, err := Dir(dialect)
		if err != nil {
			t.Fatal(err)
		}
		names, _ := fs.Glob(dir, "*.sql")
		for _, name := range names {
			b, err := fs.ReadFile(dir, name)
			if err != nil {
				t.Fatal(err)
			}
			text := string(b)
			up, down := strings.Index(text, "-- +goose Up"), strings.Index(text, "-- +goose Down")
			if up < 0 || down < 0 || down < up {
				t.Errorf("%s/%s: want '-- +goose Up' then '-- +goose Down'", dialect, name)
			}
			if strings.Count(text, "-- +goose StatementBegin") != strings.Count(text, "-- +goose StatementEnd") {
				t.Errorf("%s/%s: unbalanced StatementBegin/StatementEnd", dialect, name)
			}
		}
	}
}

func TestDirRejectsUnknownDialect(t *testing.T) {
	for _, d := range []string{"", "mysql", "Postgres", "sqlite3"} {
		if _, err := Dir(d); err == nil {
			t.Errorf("Dir(%q): want an error", d)
		}
	}
}
