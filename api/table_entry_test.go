package api

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"segnapunti/store/dbtest"
)

var shortCodeRE = regexp.MustCompile(`^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$`)

func (w *world) issueLink(token string, round, table int) (code, short string) {
	w.t.Helper()
	r := w.do(request{method: "POST", path: fmt.Sprintf("/v1/tournaments/%s/rounds/%d/tables/%d/entry-link", w.tid, round, table), token: token})
	wantStatus(w.t, r, http.StatusCreated, "issue entry link")
	m := r.json(w.t)
	code, short = m["code"].(string), m["short"].(string)
	if m["url"] != "/table/"+code {
		w.t.Errorf("url = %v, want /table/<code>", m["url"])
	}
	if len(code) < 22 || strings.ContainsAny(code, "+/=") { // 128 bits in base64url are 22 characters
		w.t.Errorf("code %q is not ≥128 bits of URL-safe text", code)
	}
	if !shortCodeRE.MatchString(short) {
		w.t.Errorf("short %q: want 8 characters without look-alikes", short)
	}
	return code, short
}

// UI.md §6, API §4.2: a table code writes its own table's hands, reads its
// sheet, signs it — nothing else; re-issuing or delivering the round kills it.
func TestTableEntryScope(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		code, _ := w.issueLink(w.club1, 1, 1)
		w.issueLink(w.ref1, 1, 2) // the referee may issue too

		for _, c := range []struct {
			token  string
			status int
		}{{w.club2, 404}, {w.fed, 403}, {w.ref2, 404}, {code, 401}} {
			r := w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds/1/tables/1/entry-link", token: c.token})
			wantStatus(t, r, c.status, "issue link")
		}

		r := w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/hands", token: code, body: goodHands[0]})
		wantStatus(t, r, http.StatusCreated, "own table")
		r = w.do(request{method: "GET", path: w.sheetPath(1, 1), token: code})
		wantStatus(t, r, http.StatusOK, "read own sheet")
		r = w.do(request{method: "POST", path: w.sheetPath(1, 2) + "/hands", token: code, body: goodHands[0]})
		wantStatus(t, r, http.StatusForbidden, "another table")
		r = w.do(request{method: "GET", path: w.sheetPath(1, 2), token: code})
		wantStatus(t, r, http.StatusForbidden, "read another table")
		r = w.do(request{method: "GET", path: w.sheetPath(2, 1), token: code})
		wantStatus(t, r, http.StatusForbidden, "another round")
		r = w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: code, body: goodSheet()})
		wantStatus(t, r, http.StatusForbidden, "a whole sheet")
		for _, path := range []string{"/v1/tournaments/" + w.tid, "/v1/tournaments/" + w.tid + "/standings", "/v1/tournaments"} {
			r = w.do(request{method: "GET", path: path, token: code})
			wantStatus(t, r, http.StatusUnauthorized, path)
		}
		other := w.createTournament(w.club2, tournamentBody("Altro", "club"))
		r = w.do(request{method: "GET", path: "/v1/tournaments/" + other + "/rounds/1/tables/1/sheet", token: code})
		wantStatus(t, r, http.StatusNotFound, "another tournament")

		// Re-issuing revokes the old code.
		fresh, _ := w.issueLink(w.club1, 1, 1)
		r = w.do(request{method: "GET", path: w.sheetPath(1, 1), token: code})
		wantStatus(t, r, http.StatusUnauthorized, "revoked code")
		r = w.do(request{method: "GET", path: w.sheetPath(1, 1), token: fresh})
		wantStatus(t, r, http.StatusOK, "new code")

		// The round delivered: dead.
		w.fillSheets(w.tid, 1)
		r = w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid + "/rounds/1", token: w.ref1, body: map[string]any{"state": "sheets_delivered"}})
		wantStatus(t, r, http.StatusOK, "deliver round")
		r = w.do(request{method: "GET", path: w.sheetPath(1, 1), token: fresh})
		wantStatus(t, r, http.StatusUnauthorized, "code of a delivered round")
		r = w.do(request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds/1/tables/1/entry-link", token: w.club1})
		wantStatus(t, r, http.StatusConflict, "link for a delivered round")
	})
}

// FITAB art. 19, FIBur-INT art. 18 (UI.md §6, API §4.2): the other line's
// one confirmation ends and delivers the sheet, both lines' signatures
// stored; an error finding or missing hands refuse it (409); the wrong
// entrant is a 422.
func TestTableEntryConfirm(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		code, _ := w.issueLink(w.club1, 1, 1)
		confirm := func(token string, line, entrant string) response {
			return w.do(request{method: "POST", path: w.sheetPath(1, 1) + "/confirm", token: token, body: map[string]any{"line": line, "entrant": entrant}})
		}
		hands := w.sheetPath(1, 1) + "/hands"
		r := w.do(request{method: "POST", path: hands, token: code, body: goodHands[0]})
		wantStatus(t, r, http.StatusCreated, "hand 1")
		wantProblem(t, confirm(code, "ns", "1"), http.StatusConflict, "")

		// Hand 2 with a sum error: the written total is not base + points.
		bad := hand("closed", 0, -55, 400, 180)
		bad["eo"].(map[string]any)["total"] = 590
		r = w.do(request{method: "POST", path: hands, token: code, body: bad})
		wantStatus(t, r, http.StatusCreated, "hand 2")
		if !strings.Contains(string(r.body), "HAND_TOTAL_MISMATCH") {
			t.Fatalf("hand 2 report lacks HAND_TOTAL_MISMATCH: %s", r.body)
		}
		r = w.do(request{method: "POST", path: hands, token: code, body: goodHands[2]})
		wantStatus(t, r, http.StatusCreated, "hand 3")
		p := wantProblem(t, confirm(code, "ns", "1"), http.StatusConflict, "")
		if !strings.Contains(p.Detail, "error") {
			t.Errorf("409 detail %q does not name the error finding", p.Detail)
		}

		// The club fixes the sheet; the players sign.
		r = w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: map[string]any{"hands": goodHands}})
		wantStatus(t, r, http.StatusOK, "club fixes the sheet")
		wantProblem(t, confirm(code, "eo", "1"), http.StatusUnprocessableEntity, "/entrant")
		wantProblem(t, confirm(code, "we", "3"), http.StatusUnprocessableEntity, "/line")
		// One call, by the other line, ends and delivers the sheet; the
		// scorer's line (NS) is stored as the line that ended it.
		r = confirm(code, "eo", "3")
		wantStatus(t, r, http.StatusOK, "EO confirms")
		if r.json(t)["delivered"] != true {
			t.Errorf("the other line's confirmation did not deliver the sheet: %s", r.body)
		}
		if list, _ := r.json(t)["confirmations"].([]any); len(list) != 2 {
			t.Errorf("confirm answer confirmations = %v, want the ending and the confirming line", r.json(t)["confirmations"])
		}
		r = w.do(request{method: "POST", path: hands, token: code, body: goodHands[0]})
		wantStatus(t, r, http.StatusConflict, "a hand after delivery")
		wantStatus(t, confirm(code, "eo", "3"), http.StatusConflict, "EO confirms twice")
		wantStatus(t, confirm(code, "ns", "1"), http.StatusConflict, "NS confirms a delivered sheet")
		r = w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: map[string]any{"hands": goodHands}})
		wantStatus(t, r, http.StatusConflict, "club rewrites a signed sheet")

		r = w.do(request{method: "GET", path: w.sheetPath(1, 1), token: w.club1})
		wantStatus(t, r, http.StatusOK, "read signed sheet")
		list, _ := r.json(t)["confirmations"].([]any)
		if len(list) != 2 {
			t.Fatalf("confirmations = %v, want both lines", r.json(t)["confirmations"])
		}
		// The export carries the signature (FITAB art. 19): EO signed at
		// its confirmation; NS did not sign (the confirmation alone ended
		// the sheet), so it is not given that time as its own.
		r = w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid + "/export.json", token: w.club1})
		wantStatus(t, r, http.StatusOK, "export")
		if n := strings.Count(string(r.body), `"confirmed_at"`); n != 1 {
			t.Errorf("export.json has %d confirmed_at, want 1 (EO of table 1)", n)
		}
		if n := strings.Count(string(r.body), `"ended_by_confirmation":true`); n != 1 {
			t.Errorf("export.json has %d ended_by_confirmation, want 1 (NS of table 1)", n)
		}
		// Both rows, one per line, stored at the time of the confirmation:
		// NS's end first, signed by EO; then EO's confirmation.
		entrants := map[any]any{}
		for i, x := range list {
			c := x.(map[string]any)
			entrants[c["line"]] = c["entrant"]
			if c["at"] == "" || c["at"] == nil || c["at"] != list[0].(map[string]any)["at"] {
				t.Errorf("confirmation %d = %v, want the confirmation's time", i, c)
			}
			if want := [][2]string{{"end", "eo"}, {"confirm", "eo"}}[i]; c["kind"] != want[0] || c["signed_by"] != want[1] {
				t.Errorf("confirmation %d = %v, want kind %s signed by %s", i, c, want[0], want[1])
			}
		}
		if entrants["ns"] != "1" || entrants["eo"] != "3" {
			t.Errorf("confirmations %v, want NS 1 and EO 3", list)
		}
	})
}

// Wrong codes are throttled per address: 10,000 tries from one address
// meet a 429 long before the end; the right code still works elsewhere.
func TestTableEntryThrottle(t *testing.T) {
	t.Parallel()
	w := newWorld(t, backend{db: dbtest.Postgres(t)})
	code, _ := w.issueLink(w.club1, 1, 1)
	w.checkSpec = false // 10,000 answers: the contract is checked elsewhere
	first429 := 0
	for i := 1; i <= 10000; i++ {
		r := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: fmt.Sprintf("wrong-code-%06d-xxxxxxxxxxxxxxxxxxxxxxxxxxx", i)})
		if r.status == http.StatusTooManyRequests {
			if r.header.Get("Retry-After") == "" {
				t.Error("429 without Retry-After")
			}
			first429 = i
			break
		}
		wantStatus(t, r, http.StatusUnauthorized, "wrong code")
	}
	if first429 == 0 || first429 > 100 {
		t.Fatalf("first 429 after %d wrong codes, want within 100", first429)
	}
	r := w.do(request{method: "GET", path: w.sheetPath(1, 1), token: code})
	wantStatus(t, r, http.StatusTooManyRequests, "even the right code from the throttled address")

	// From another loopback address the right code works.
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return d.DialContext(ctx, network, addr)
	}}}
	req, _ := http.NewRequest("POST", w.srv.URL+w.sheetPath(1, 1)+"/hands", strings.NewReader(`{"end":"closed","ns":{"base":300,"points":235},"eo":{"base":100,"points":-120}}`))
	req.Header.Set("Authorization", "Bearer "+code)
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("from 127.0.0.2: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("right code from another address: %d, want 201", res.StatusCode)
	}
}

// Typed (short) codes have a global budget on top of the per-address one:
// guessing from 500 addresses gets no more answers than the budget
// (app/limits.go codeAll: 300 a minute for the whole service), while a
// phone opening its 256-bit link is never slowed by someone else's
// guessing. Figures for the note: one address gets 20 wrong codes a
// minute; 500 addresses together get 300 a minute.
func TestTableCodeGlobalBudget(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		code, short := w.issueLink(w.club1, 1, 1)
		w.checkSpec = false
		from := func(i int) *http.Client {
			d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 1, byte(i/250), byte(1+i%250))}}
			return &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			}}}
		}
		get := func(c *http.Client, token string) int {
			req, _ := http.NewRequest("GET", w.srv.URL+w.sheetPath(1, 1), nil)
			req.Header.Set("Authorization", "Bearer "+token)
			res, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			return res.StatusCode
		}
		// A wrong short code differs from the real one in its last letter.
		wrong := func(i int) string {
			alphabet := "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
			g := []byte(short)
			g[7] = alphabet[(strings.IndexByte(alphabet, g[7])+1+i%20)%len(alphabet)]
			g[6] = alphabet[(i/20)%len(alphabet)]
			if string(g) == short {
				g[5] = alphabet[(strings.IndexByte(alphabet, g[5])+1)%len(alphabet)]
			}
			return string(g)
		}
		answered, throttled := 0, 0
		for i := range 500 {
			switch get(from(i), wrong(i)) {
			case http.StatusTooManyRequests:
				throttled++
			default:
				answered++
			}
		}
		if answered != 300 || throttled != 200 {
			t.Errorf("500 addresses guessing: %d answered, %d throttled; want 300 and 200", answered, throttled)
		}
		if s := get(from(600), code); s != http.StatusNotFound { // opened: the table has no sheet yet
			t.Errorf("a phone's 256-bit link during the guessing: %d, want 404 (no sheet yet)", s)
		}
		if s := get(from(601), short); s != http.StatusTooManyRequests {
			t.Errorf("a typed code while the global budget is spent: %d, want 429 (the price of the budget)", s)
		}
	})
}

// A revoked code names its tournament: replaying old codes of one
// tournament from many addresses spends that tournament's budget
// (app/limits.go codeByTournament: 60 a minute), after which even a fresh
// address is throttled on its revoked codes.
func TestTableCodeTournamentBudget(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		old, _ := w.issueLink(w.club1, 1, 1)
		w.issueLink(w.club1, 1, 1) // revokes old
		w.checkSpec = false
		statuses := map[int]int{}
		for i := range 80 {
			d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 2, 0, byte(1+i))}}
			c := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				return d.DialContext(ctx, network, addr)
			}}}
			req, _ := http.NewRequest("GET", w.srv.URL+w.sheetPath(1, 1), nil)
			req.Header.Set("Authorization", "Bearer "+old)
			res, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			statuses[res.StatusCode]++
		}
		if statuses[http.StatusTooManyRequests] != 20 {
			t.Errorf("80 replays of a revoked code from 80 addresses: %v; want 60 answered, 20 throttled", statuses)
		}
	})
}
