package api

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// Public reads (API §4.2): a tournament is readable without a token once
// its club makes it public, and not before; the figures are the signed-in
// standings; answers carry an ETag per tournament version.

func TestPublicReads(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		base := "/v1/public/tournaments/" + w.tid
		publicURLs := []string{base, base + "/standings", base + "/rounds/1", base + "/events"}

		// Private (the default): every public URL is a 404, like an unknown id.
		for _, p := range append(publicURLs, "/v1/public/tournaments/t_unknown/standings") {
			r := w.do(request{method: "GET", path: p})
			wantStatus(t, r, http.StatusNotFound, "private "+p)
		}
		r := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: w.club1})
		if got := r.json(t)["public"]; got != false {
			t.Fatalf("a new tournament has public %v, want false", got)
		}

		// Who may switch it: its club or an admin (API §4.2).
		patch := func(token string, body any) response {
			return w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid, token: token, body: body})
		}
		wantStatus(t, patch(w.club2, map[string]any{"public": true}), http.StatusNotFound, "another club")
		wantStatus(t, patch(w.ref1, map[string]any{"public": true}), http.StatusForbidden, "its referee")
		wantStatus(t, patch(w.fed, map[string]any{"public": true}), http.StatusForbidden, "the federation")
		wantStatus(t, patch("", map[string]any{"public": true}), http.StatusUnauthorized, "no token")
		bad := patch(w.club1, map[string]any{})
		wantStatus(t, bad, http.StatusUnprocessableEntity, "no public field")
		if !strings.Contains(string(bad.body), "/public") {
			t.Errorf("the refusal does not name /public: %s", bad.body)
		}
		wantStatus(t, patch(w.club1, `{"public": "yes"}`), http.StatusUnprocessableEntity, "public not a boolean")
		wantStatus(t, w.do(request{method: "GET", path: base}), http.StatusNotFound, "still private after refusals")

		r = patch(w.club1, map[string]any{"public": true})
		wantStatus(t, r, http.StatusOK, "club makes it public")
		if r.json(t)["public"] != true {
			t.Fatalf("PATCH answered %s, want public true", r.body)
		}
		for _, p := range publicURLs[:3] {
			wantStatus(t, w.do(request{method: "GET", path: p}), http.StatusOK, "public "+p)
		}
		wantStatus(t, w.do(request{method: "GET", path: base + "/rounds/2"}), http.StatusNotFound, "a round not published")
		wantStatus(t, w.do(request{method: "GET", path: base + "/rounds/x"}), http.StatusBadRequest, "a round that is no number")

		// ETag and 304.
		first := w.do(request{method: "GET", path: base + "/standings"})
		etag := first.header.Get("ETag")
		if etag == "" || !strings.HasPrefix(first.header.Get("Cache-Control"), "public") {
			t.Fatalf("public standings: ETag %q, Cache-Control %q", etag, first.header.Get("Cache-Control"))
		}
		again := w.do(request{method: "GET", path: base + "/standings", header: map[string]string{"If-None-Match": etag}})
		wantStatus(t, again, http.StatusNotModified, "same version")
		if len(again.body) != 0 {
			t.Errorf("304 with a body: %s", again.body)
		}

		// A stored sheet changes the version, the round and the standings,
		// and the public standings are the signed-in ones.
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
		after := w.do(request{method: "GET", path: base + "/standings", header: map[string]string{"If-None-Match": etag}})
		wantStatus(t, after, http.StatusOK, "standings after a sheet")
		if after.header.Get("ETag") == etag {
			t.Errorf("the ETag did not change with a stored sheet: %s", etag)
		}
		signedIn := w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/standings", token: w.fed})
		pub, auth := after.json(t), signedIn.json(t)
		// The same figures; only what the public page shows (no
		// membership numbers, adjustments' notes, tie-break wording).
		figures := func(doc map[string]any) []string {
			var out []string
			for _, r := range doc["standings"].([]any) {
				row := r.(map[string]any)
				out = append(out, fmt.Sprint(row["rank"], row["entrant"], row["vp"], row["mp"]))
				for _, key := range []string{"adjustments", "discrepancies", "tiebreak", "wins"} {
					if _, ok := row[key]; ok && doc["provisional"] != nil {
						t.Errorf("public standings row carries %q", key)
					}
				}
			}
			return out
		}
		if diff := cmp.Diff(figures(auth), figures(pub)); diff != "" || auth["after_round"] != pub["after_round"] {
			t.Errorf("public standings differ from the signed-in ones (-auth +public):\n%s", diff)
		}
		if strings.Contains(string(after.body), "membership") {
			t.Error("public standings carry membership numbers")
		}
		if pub["provisional"] != true {
			t.Errorf("round 1 is being played: standings should be provisional, got %v", pub["provisional"])
		}
		round := w.do(request{method: "GET", path: base + "/rounds/1"}).json(t)
		tb := round["tables"].([]any)[0].(map[string]any)
		res, _ := tb["result"].(map[string]any)
		if res == nil || res["ns"].(map[string]any)["vp"] != float64(11) || tb["complete"] != true {
			t.Errorf("round 1 table 1 = %v, want the stored sheet's result NS 11 VP, complete", tb)
		}
		// after_round is checked like the signed-in one.
		wantStatus(t, w.do(request{method: "GET", path: base + "/standings?after_round=9"}), http.StatusBadRequest, "after_round beyond the plan")

		// false hides it again.
		wantStatus(t, patch(w.club1, map[string]any{"public": false}), http.StatusOK, "private again")
		for _, p := range publicURLs {
			wantStatus(t, w.do(request{method: "GET", path: p}), http.StatusNotFound, "private again "+p)
		}
	})
}

// TestPublicEventStream: an open event stream hears a stored sheet (on
// PostgreSQL through LISTEN/NOTIFY, on SQLite in the process).
func TestPublicEventStream(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid, token: w.club1, body: map[string]any{"public": true}}), http.StatusOK, "public")
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", w.srv.URL+"/v1/public/tournaments/"+w.tid+"/events", nil)
		res, err := w.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		lines := make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// The stream is subscribed once its first comment arrives; on
		// PostgreSQL the LISTEN may take a moment more: write until heard.
		<-lines
		seen := map[string]bool{}
		var data map[string]any
		last := ""
		deadline := time.After(5 * time.Second)
		written := time.Now()
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 2), token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
		for !(seen["sheet"] && seen["standings"]) {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatal("the stream ended")
				}
				if name, ok := strings.CutPrefix(l, "event: "); ok {
					last = name
				}
				if d, ok := strings.CutPrefix(l, "data: "); ok {
					var m map[string]any
					if err := json.Unmarshal([]byte(d), &m); err != nil {
						t.Fatalf("event data %q: %v", d, err)
					}
					if m["kind"] == "resync" || m["kind"] == "tournament" {
						// The listener (re)started, or the setup's own
						// change (the tournament made public) arrives now:
						// the events are sent after the request, batched.
						continue
					}
					seen[last] = true
					if last == "sheet" {
						data = m
					}
				}
			case <-time.After(500 * time.Millisecond):
				if time.Since(written) > time.Second && !seen["sheet"] {
					// The listener was not up yet for the first write: a hand
					// of the other table is another write.
					wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 2), token: w.club1, body: goodSheet(),
						header: map[string]string{"If-Match": "*"}}), http.StatusOK, "sheet again")
					written = time.Now()
				}
			case <-deadline:
				t.Fatalf("no sheet and standings events within 5 s; seen %v", seen)
			}
		}
		if data["round"] != float64(1) || data["table"] != float64(2) {
			t.Errorf("sheet event data %v, want round 1 table 2", data)
		}
	})
}

// TestPublicEventStreamEndsOnShutdown: app.Close (registered with the
// server's RegisterOnShutdown) ends the open streams cleanly, so a
// shutdown does not wait for them.
func TestPublicEventStreamEndsOnShutdown(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	ops := app.New(db, nil, nil)
	srv := httptest.NewServer(NewServer(Config{App: ops}, db, nil))
	defer srv.Close()
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Uno"}); err != nil {
		t.Fatal(err)
	}
	own := app.Principal{Role: domain.RoleClub, Name: "Segreteria", ClubID: "c1"}
	tr, err := ops.CreateTournament(ctx, own, app.TournamentInput{Name: "Coppa", Date: "2026-11-21", Level: "club",
		Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 2, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	if _, err := ops.PatchTournament(ctx, own, tr.ID, app.PublicPatch{Public: &yes}); err != nil {
		t.Fatal(err)
	}
	res, err := srv.Client().Get(srv.URL + "/v1/public/tournaments/" + tr.ID + "/events")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	ended := make(chan error, 1)
	go func() { _, err := io.Copy(io.Discard, res.Body); ended <- err }()
	time.Sleep(100 * time.Millisecond)
	ops.Close()
	select {
	case err := <-ended:
		if err != nil {
			t.Errorf("the stream broke instead of ending: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the stream is still open 2 s after app.Close")
	}
}

// An open event stream ends when its tournament stops being public: after
// PATCH {"public": false} no sheet event reaches it.
func TestPublicEventStreamEndsWhenPrivate(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid, token: w.club1, body: map[string]any{"public": true}}), http.StatusOK, "public")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", w.srv.URL+"/v1/public/tournaments/"+w.tid+"/events", nil)
		res, err := w.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("events: %d", res.StatusCode)
		}
		lines := make(chan string, 100)
		go func() {
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		<-lines // subscribed
		wantStatus(t, w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid, token: w.club1, body: map[string]any{"public": false}}), http.StatusOK, "private")
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 2), token: w.club1, body: goodSheet()}), http.StatusCreated, "sheet")
		// Events of the setup (sent batched, after their requests) may
		// still arrive before the PATCH; the sheet of table 2 is stored
		// only after it, so its event must never arrive.
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					return // the stream ended
				}
				if strings.HasPrefix(l, "data: ") && strings.Contains(l, `"kind":"sheet"`) && strings.Contains(l, `"table":2`) {
					t.Fatalf("the sheet stored after PATCH public:false reached the stream: %s", l)
				}
			case <-ctx.Done():
				t.Fatal("the stream of a tournament made private is still open")
			}
		}
	})
}
