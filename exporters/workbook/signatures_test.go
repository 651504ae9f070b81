package workbook

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// FITAB art. 19 (UI.md §6): the Turni "Firma NS/EO" columns and the
// JSON confirmed_at carry a line's own signing time only; a line whose
// end was implied by the other line's confirmation gets no time (not the
// confirmation's) but says so.
func TestSignaturesInTurniAndJSON(t *testing.T) {
	exp := sample(t)
	var ms []MatchRow
	for m, err := range exp.Matches {
		if err != nil {
			t.Fatal(err)
		}
		ms = append(ms, m)
	}
	ended, confirmed := time.Date(2026, 11, 21, 21, 0, 0, 0, time.UTC), time.Date(2026, 11, 21, 21, 5, 0, 0, time.UTC)
	ms[0].Confirmed = [2]*time.Time{&ended, &confirmed}                 // NS ended, EO confirmed
	ms[1].Confirmed[1], ms[1].EndedByConfirmation[0] = &confirmed, true // EO confirmed alone
	exp.Matches = Slice(ms)

	var buf bytes.Buffer
	if err := WriteCSV(&buf, exp, SheetTurni); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	firma := func(row int) [2]string { return [2]string{recs[row][col["Firma NS"]], recs[row][col["Firma EO"]]} }
	at := func(s string, want time.Time) bool {
		got, err := time.Parse(time.RFC3339, s)
		return err == nil && got.Equal(want)
	}
	if f := firma(1); !at(f[0], ended) || !at(f[1], confirmed) {
		t.Errorf("end then confirm: Firma %q", f)
	}
	if f := firma(2); f[0] != "con la conferma EO" || !at(f[1], confirmed) {
		t.Errorf("confirm alone: Firma %q, want NS \"con la conferma EO\" and EO's time", f)
	}

	exp.Matches = Slice(ms)
	var doc struct {
		Matches []struct {
			NS, EO struct {
				ConfirmedAt         *string `json:"confirmed_at"`
				EndedByConfirmation bool    `json:"ended_by_confirmation"`
			}
		}
	}
	data := writeJSON(t, exp)
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	m0, m1 := doc.Matches[0], doc.Matches[1]
	if m0.NS.ConfirmedAt == nil || *m0.NS.ConfirmedAt != "2026-11-21T21:00:00Z" || m0.EO.ConfirmedAt == nil || *m0.EO.ConfirmedAt != "2026-11-21T21:05:00Z" || m0.NS.EndedByConfirmation {
		t.Errorf("end then confirm: %+v", m0)
	}
	if m1.NS.ConfirmedAt != nil || !m1.NS.EndedByConfirmation || m1.EO.ConfirmedAt == nil || m1.EO.EndedByConfirmation {
		t.Errorf("confirm alone: %+v", m1)
	}
	var v any
	json.Unmarshal(data, &v)
	if errs := loadSchema(t).validate(v); len(errs) > 0 {
		t.Errorf("schema violations:\n%s", strings.Join(errs, "\n"))
	}
}
