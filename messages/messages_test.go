package messages

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
)

// Every code has both texts with the same arguments, and no code is
// defined twice (the merge panics on a twice-defined code; this test says
// which).
func TestEveryCodeInBothLanguages(t *testing.T) {
	seen := map[string]int{}
	for i, c := range catalogues {
		for code, m := range c {
			if j, dup := seen[code]; dup {
				t.Errorf("code %s is defined in areas %d and %d", code, j, i)
			}
			seen[code] = i
			if strings.TrimSpace(m.it) == "" || strings.TrimSpace(m.en) == "" {
				t.Errorf("code %s lacks a language: %+v", code, m)
			}
			if verbs(m.it) != verbs(m.en) {
				t.Errorf("code %s: the two texts take different arguments: %q, %q", code, verbs(m.it), verbs(m.en))
			}
		}
	}
	if len(seen) != len(Keys()) {
		t.Errorf("%d codes in the areas, %d in the catalogue", len(seen), len(Keys()))
	}
}

var verbRe = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// verbs is the fmt verb of each argument of a text, by argument number
// (explicit indexes like %[2]s included): "1:d 2:q".
func verbs(s string) string {
	byArg := map[int]string{}
	next := 1
	for _, m := range verbRe.FindAllStringSubmatch(s, -1) {
		if strings.HasSuffix(m[0], "%") {
			continue
		}
		if m[1] != "" {
			next, _ = strconv.Atoi(strings.Trim(m[1], "[]"))
		}
		byArg[next] = m[0][len(m[0])-1:]
		next++
	}
	var out []string
	for i := 1; i <= len(byArg); i++ {
		out = append(out, strconv.Itoa(i)+":"+byArg[i])
	}
	return strings.Join(out, " ")
}

// Every code is used: named as a string literal in a Go file or a
// template of the packages that render messages, or built from a prefix
// they name ("role." + role).
func TestEveryCodeUsed(t *testing.T) {
	var sources strings.Builder
	// This package's own code, without the catalogue's entries.
	entry := regexp.MustCompile(`(?m)^\s*"[^"]+":\s*\{.*$`)
	own, _ := filepath.Glob("*.go")
	for _, f := range own {
		if !strings.HasSuffix(f, "_test.go") {
			b, _ := os.ReadFile(f)
			sources.Write(entry.ReplaceAll(b, nil))
		}
	}
	for _, dir := range []string{"../web", "../api", "../app", "../cmd", "../exporters", "../domain"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			if strings.HasSuffix(path, ".go") || strings.HasSuffix(path, ".html") || strings.HasSuffix(path, ".tmpl") {
				b, _ := os.ReadFile(path)
				sources.Write(b)
				sources.WriteByte('\n')
			}
			return nil
		})
	}
	// A prefix a key is built from: "area.some_" + value.
	prefixes := regexp.MustCompile(`"([a-z_]+\.[a-zA-Z_.-]*)(?:"\s*\+|%[sdv])`).FindAllStringSubmatch(sources.String(), -1)
	text := sources.String()
	for _, code := range Keys() {
		if strings.Contains(text, `"`+code+`"`) {
			continue
		}
		used := false
		for _, p := range prefixes {
			if strings.HasPrefix(code, p[1]) {
				used = true
				break
			}
		}
		if !used {
			t.Errorf("code %s is not used", code)
		}
	}
}

// A tie-break's notes (RULES §8) read in both languages, nested notes and
// lists of notes included.
func TestNotesInBothLanguages(t *testing.T) {
	notes := []domain.Note{
		{Code: "tie.h2h_not_met", Args: []any{"1", "3"}},
		{Code: "tie.best_vp", Args: []any{[]domain.Note{{Code: "tie.had", Args: []any{"3", "14"}}, {Code: "tie.had", Args: []any{"1", domain.Note{Code: "tie.no_win"}}}}}},
		{Code: "tie.shared", Args: []any{domain.Note{Code: "tie.ids_more", Args: []any{"1, 2", 3}}}},
	}
	for lang, want := range map[domain.Lang]string{
		domain.English: "head-to-head not applicable (1 and 3 did not meet); highest VP in a won match: 3 had 14, 1 had no win; shared place: 1, 2, and 3 more level on VP, MP and every tie-break",
		domain.Italian: "scontro diretto non applicabile (1 e 3 non si sono incontrati); più VP in un incontro vinto: 3 con 14, 1 con nessuna vittoria; pari merito: 1, 2 e altri 3 pari in VP, MP e ogni spareggio",
	} {
		if got := Notes(lang, notes); got != want {
			t.Errorf("%s:\n got %q\nwant %q", lang, got, want)
		}
	}
}
