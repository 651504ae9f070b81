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
	"segnapunti/importers/sheetjson"
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
	for _, dir := range []string{"../web", "../api", "../app", "../cmd", "../exporters", "../domain", "../importers"} {
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

// A page words an operation's detail its own way and names the row of a
// list where the API names a pointer or an index (the entrants pasted on
// lines 3, 7 and 9: index 2 is line 9).
func TestOnPageNamesTheRow(t *testing.T) {
	lines := func(i int) int { return []int{3, 7, 9}[i] }
	for _, c := range []struct {
		m      M
		row    func(int) int
		it, en string
	}{
		{New("field.entrant_twice", "7", 2), lines, `il numero "7" compare due volte (anche alla riga 9)`, `number "7" is listed twice (also on row 9)`},
		{New("field.seated_twice", "7", "/tables/1/ns/id"), nil, `il numero "7" è già in questo turno (riga 2): si gioca una volta per turno`, `number "7" is already in this round (row 2): an entrant plays once a round`},
		{New("field.players_range", "teams", 4, 8, 3), nil, "servono da 4 a 8 giocatori, non 3", "4 to 8 players are needed, not 3"},
		{New("prize.places", 0, 10), nil, "un numero di premi da 1 a 10", "a number of prizes from 1 to 10"},
		// No page wording: the API's, in the page's language.
		{New("field.no_round", "t1", 4), nil, `il torneo "t1" non ha il turno 4`, `tournament "t1" has no round 4`},
	} {
		p := c.m.OnPage(c.row)
		if got := p.In(domain.Italian); got != c.it {
			t.Errorf("%s in Italian: %q, want %q", c.m.Key, got, c.it)
		}
		if got := p.In(domain.English); got != c.en {
			t.Errorf("%s in English: %q, want %q", c.m.Key, got, c.en)
		}
	}
}

// Every page wording names a code of the catalogue, and takes arguments
// the operation's detail has.
func TestPageVariantsAreCodes(t *testing.T) {
	for from, v := range pageVariants {
		if !Has(from) || !Has(v.key) {
			t.Errorf("page variant %s → %s: not both codes", from, v.key)
			continue
		}
		_, en, _ := Both(from)
		n := len(strings.Fields(verbs(en)))
		for _, k := range v.args {
			if k < 1 || k > n {
				t.Errorf("page variant %s takes argument %d of %d", from, k, n)
			}
		}
		_, pen, _ := Both(v.key)
		if got := len(strings.Fields(verbs(pen))); got != len(v.args) {
			t.Errorf("page variant %s → %s: %d arguments for %d verbs", from, v.key, len(v.args), got)
		}
	}
}

// The sheet decoder words its errors in English without linking the
// catalogue (it runs on the phones): its formats are the catalogue's
// English, code by code.
func TestSheetFormatsAreTheCatalogues(t *testing.T) {
	for code, format := range sheetjson.Formats() {
		_, en, ok := Both(code)
		if !ok {
			t.Errorf("sheetjson code %s is not in the catalogue", code)
		} else if en != format {
			t.Errorf("sheetjson code %s: %q, catalogue %q", code, format, en)
		}
	}
}
