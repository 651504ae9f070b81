package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"
)

func verifyFile(t *testing.T, f tournamentfile.File) string {
	t.Helper()
	b, err := tournamentfile.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	return writeFile(t, "tournament.json", b)
}

// API §4.4: `segnapunti verify` exits 0 when every figure re-derives, 1
// with differences (hand-edited standings named by entrant and article,
// and the one-line verdict), 2 on an unreadable file.
func TestVerifyCommandExitStatus(t *testing.T) {
	systems := []domain.PairingSystem{domain.SystemEntryOrder, domain.SystemDanese}
	good := filetest.Generate(t, 8, systems, 1)
	edited := filetest.Generate(t, 8, systems, 1)
	edited.Standings.Rows[0].MP += 50
	entrant := edited.Standings.Rows[0].Entrant
	hostile := writeFile(t, "hostile.json", []byte(`{"format": "segnapunti-tournament", "version": 1, "rounds": [{"number": "x"}]}`))
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"all re-derived", []string{"verify", verifyFile(t, good)}, exitOK, []string{"re-derive"}},
		{"hand-edited standings (FITAB art. 18)", []string{"verify", verifyFile(t, edited)}, exitFindings,
			[]string{"STANDINGS_DIFFER", "entrant " + entrant, "FITAB art. 18", "NOT right"}},
		{"hand-edited standings, JSON", []string{"verify", "--format", "json", verifyFile(t, edited)}, exitFindings,
			[]string{`"standings_ok": false`, `"entrant": "` + entrant + `"`}},
		{"Italian", []string{"verify", "--lang", "it", verifyFile(t, edited)}, exitFindings, []string{"iscritto " + entrant, "NON è corretta"}},
		{"a hostile file", []string{"verify", hostile}, exitUsage, []string{"/rounds/0/number"}},
		{"no file", []string{"verify"}, exitUsage, []string{"exactly one FILE"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, func(string) string { return "" }, strings.NewReader(""), &out, &errOut)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
			all := out.String() + errOut.String()
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			if tc.code == exitUsage && strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("exit 2 without a one-line reason: %q", errOut.String())
			}
			if len(tc.args) > 2 && tc.args[1] == "--format" && !json.Valid(out.Bytes()) {
				t.Errorf("--format json is not one JSON document: %s", out.String())
			}
		})
	}
}
