package api

import (
	"bytes"
	"encoding/csv"
	"net/http"
	"testing"
	"time"

	"segnapunti/store"
)

// TestTournamentTimeZone: a tournament's time zone (issue 22), Europe/Rome
// unless set, is the wall clock of every time its exports show. The
// instants are set behind the store's back on both sides of a change of
// daylight saving time: the same wall-clock time twice, an hour apart, told
// apart by the offset.
func TestTournamentTimeZone(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		w := exportWorld(t, b)
		T := "/v1/tournaments/" + w.tid

		t.Run("Europe/Rome unless set; a zone given when created is kept", func(t *testing.T) {
			r := w.do(request{method: "GET", path: T, token: w.club1})
			wantStatus(t, r, http.StatusOK, "tournament")
			if got := r.json(t)["time_zone"]; got != "Europe/Rome" {
				t.Errorf("time_zone %v, want Europe/Rome", got)
			}
			body := tournamentBody("Torneo di Londra", "club")
			body["time_zone"] = "Europe/London"
			r = w.do(request{method: "POST", path: "/v1/tournaments", token: w.club1, body: body})
			wantStatus(t, r, http.StatusCreated, "create")
			id := r.json(t)["id"].(string)
			r = w.do(request{method: "GET", path: "/v1/tournaments/" + id, token: w.club1})
			if got := r.json(t)["time_zone"]; got != "Europe/London" {
				t.Errorf("time_zone %v, want Europe/London", got)
			}
		})
		t.Run("a zone the database does not know is refused naming the field", func(t *testing.T) {
			for _, bad := range []string{"Mars/Olympus_Mons", "Local", "", " Europe/Rome", "CEST"} {
				body := tournamentBody("Torneo", "club")
				body["time_zone"] = bad
				if bad == "" {
					continue // absent and "" are the default
				}
				wantProblem(t, w.do(request{method: "POST", path: "/v1/tournaments", token: w.club1, body: body}), http.StatusUnprocessableEntity, "/time_zone")
				before := w.snapshot()
				wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"time_zone": bad}}), http.StatusUnprocessableEntity, "/time_zone")
				w.wantUnchanged(before)
			}
			wantProblem(t, w.do(request{method: "PATCH", path: T, token: w.club2, body: map[string]any{"time_zone": "UTC"}}), http.StatusNotFound, "") // another club does not see it
		})

		for _, body := range []map[string]any{
			{"entrant": "5", "reason": "warning"},
			{"entrant": "2", "round": 1, "reason": "warning"},
		} {
			wantStatus(t, w.do(request{method: "POST", path: T + "/adjustments", token: w.ref1, body: body}), http.StatusCreated, "adjustment")
		}
		// setAt puts the two adjustments at these instants (in id order).
		setAt := func(t *testing.T, at ...string) {
			t.Helper()
			q := `UPDATE adjustments SET created_at = $1 WHERE id = (SELECT id FROM adjustments WHERE tournament_id = $2 ORDER BY id LIMIT 1 OFFSET $3)`
			if b.db.Dialect() == store.DialectSQLite {
				q = `UPDATE adjustments SET created_at = ?1 WHERE id = (SELECT id FROM adjustments WHERE tournament_id = ?2 ORDER BY id LIMIT 1 OFFSET ?3)`
			}
			for i, s := range at {
				u, err := time.Parse(time.RFC3339, s)
				if err != nil {
					t.Fatal(err)
				}
				var v any = u
				if b.db.Dialect() == store.DialectSQLite {
					v = u.UTC().Format("2006-01-02T15:04:05.000000Z07:00")
				}
				if _, err := b.raw.Exec(q, v, w.tid, i); err != nil {
					t.Fatalf("set created_at: %v", err)
				}
			}
		}
		// csvTimes is the "Data e ora" column of Rettifiche as CSV.
		csvTimes := func(t *testing.T) []string {
			t.Helper()
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx?format=csv&sheet=Rettifiche"), token: w.ref1})
			wantStatus(t, r, http.StatusOK, "CSV")
			recs, err := csv.NewReader(bytes.NewReader(r.body)).ReadAll()
			if err != nil || len(recs) != 3 {
				t.Fatalf("Rettifiche: %d records, %v\n%s", len(recs), err, r.body)
			}
			return []string{recs[1][7], recs[2][7]}
		}
		// xlsxTimes is the same column of the workbook, as a spreadsheet shows it.
		xlsxTimes := func(t *testing.T) []string {
			t.Helper()
			r := w.do(request{method: "GET", path: w.exportPath("export.xlsx"), token: w.ref1})
			wantStatus(t, r, http.StatusOK, "workbook")
			_, rows := rowsOf(t, openWorkbook(t, r.body), "Rettifiche", false)
			return []string{rows[0][7], rows[1][7]}
		}
		want := func(t *testing.T, what string, got []string, want ...string) {
			t.Helper()
			if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
				t.Errorf("%s: %q, want %q", what, got, want)
			}
		}

		t.Run("Europe/Rome: the last Sunday of October 2026, 02:30 twice", func(t *testing.T) {
			// 25 October 2026, 03:00 CEST (01:00 UTC) becomes 02:00 CET.
			setAt(t, "2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z")
			want(t, "CSV", csvTimes(t), "2026-10-25T02:30:00+02:00", "2026-10-25T02:30:00+01:00")
			x := xlsxTimes(t)
			if x[0] != x[1] || !bytes.Contains([]byte(x[0]), []byte("02:30")) {
				t.Errorf("workbook: %q, want 02:30 twice (the hall's wall clock)", x)
			}
		})
		t.Run("Europe/Rome: the last Sunday of March 2027, no 02:30", func(t *testing.T) {
			// 28 March 2027, 02:00 CET (01:00 UTC) becomes 03:00 CEST.
			setAt(t, "2027-03-28T00:59:00Z", "2027-03-28T01:00:00Z")
			want(t, "CSV", csvTimes(t), "2027-03-28T01:59:00+01:00", "2027-03-28T03:00:00+02:00")
		})
		t.Run("another zone, set any time: America/New_York's first Sunday of November", func(t *testing.T) {
			r := w.do(request{method: "PATCH", path: T, token: w.club1, body: map[string]any{"time_zone": "America/New_York"}})
			wantStatus(t, r, http.StatusOK, "patch")
			if got := r.json(t)["time_zone"]; got != "America/New_York" {
				t.Errorf("time_zone %v", got)
			}
			// 1 November 2026, 02:00 EDT (06:00 UTC) becomes 01:00 EST.
			setAt(t, "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z")
			want(t, "CSV", csvTimes(t), "2026-11-01T01:30:00-04:00", "2026-11-01T01:30:00-05:00")
			x := xlsxTimes(t)
			if x[0] != x[1] || !bytes.Contains([]byte(x[0]), []byte("01:30")) {
				t.Errorf("workbook: %q, want 01:30 twice", x)
			}
		})
	})
}
