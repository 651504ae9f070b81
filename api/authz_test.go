package api

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// The roles of the authorization matrix (API §4).
type role int

const (
	none role = iota
	clubOwn
	clubOther
	refAssigned
	refOther
	federation
	admin
	nRoles
)

var roleNames = [nRoles]string{"none", "club own", "club other", "referee assigned", "referee not assigned", "federation", "admin"}

func (w *world) tokenOf(r role) string {
	return [nRoles]string{"", w.club1, w.club2, w.ref1, w.ref2, w.fed, w.admin}[r]
}

// ok stands for any 2xx in the matrix: which success (200, 201, 204) is the
// flow test's business; here only who may do what matters.
const ok = 2

var (
	open     = [nRoles]int{ok, ok, ok, ok, ok, ok, ok}
	readT    = [nRoles]int{401, ok, 404, ok, 404, ok, ok}   // read a tournament
	manageT  = [nRoles]int{401, ok, 404, 403, 404, 403, ok} // the organising club's work
	refereeT = [nRoles]int{401, 403, 404, ok, 404, 403, ok} // round states, non-club level
)

// TestAuthorizationMatrix sends every route with every role and checks the
// status (API §4 roles): no token 401; another club's tournament, or one a
// referee is not assigned to, 404 (not 403, so ids cannot be probed);
// allowed-to-read-but-not-to-do 403.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		T := "/v1/tournaments/" + w.tid
		// The sheet read by GET exists beforehand.
		wantStatus(t, w.do(request{method: "PUT", path: w.sheetPath(1, 1), token: w.club1, body: goodSheet()}), http.StatusCreated, "seed sheet")
		// Rounds 2..4 exist for the PATCH column (one per successful role).
		for n := 2; n <= 4; n++ {
			r := w.do(request{method: "POST", path: T + "/rounds", token: w.club1, body: map[string]any{
				"number": n, "phase": "danese", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "2"}}}})
			wantStatus(t, r, http.StatusCreated, "seed round")
		}
		w.fillSheets(w.tid, 2, 3, 4) // RULES §12.2: deliverable
		// Entrants for the POST rounds column.
		w.enterPairs(w.club1, w.tid, "51", "52", "53", "54", "55", "56", "57", "58", "59", "60", "61", "62", "63", "64")
		// A round number per role for POST rounds; PATCH targets per role.
		roundFor := func(r role) int {
			if r == admin {
				return 6
			}
			return 5 // only the organising club succeeds among the others
		}
		patchRound := map[role]int{refAssigned: 2, admin: 3}

		type route struct {
			method, path string
			body         func(r role) any
			want         [nRoles]int
		}
		validate := goodSheet()
		validate["ruleset"], validate["hands_planned"] = "fitab-2025", 3
		routes := []route{
			{"GET", "/healthz", nil, open},
			{"GET", "/readyz", nil, open},
			{"GET", "/v1/openapi.yaml", nil, open},
			{"GET", "/v1/rulesets", nil, open},
			{"GET", "/v1/vp?table=fitab-3&diff=365", nil, open},
			{"POST", "/v1/validate", func(role) any { return validate }, open},
			{"POST", "/v1/clubs", func(role) any { return map[string]any{"name": "Nuovo circolo"} },
				[nRoles]int{401, 403, 403, 403, 403, 403, ok}},
			{"GET", "/v1/clubs", nil, [nRoles]int{401, 403, 403, 403, 403, ok, ok}},
			{"GET", "/v1/clubs/" + w.c1, nil, [nRoles]int{401, ok, 404, 403, 403, ok, ok}},
			{"POST", "/v1/tokens", func(role) any { return map[string]any{"role": "referee", "name": "Nuovo Arbitro"} },
				[nRoles]int{401, 403, 403, 403, 403, 403, ok}},
			// A club creates its own only: naming club 1 is fine for club 1,
			// forbidden to club 2; admin and federation may name it.
			{"POST", "/v1/tournaments", func(role) any {
				b := tournamentBody("Torneo", "club")
				b["club"] = w.c1
				return b
			}, [nRoles]int{401, ok, 403, 403, 403, ok, ok}},
			{"GET", "/v1/tournaments", nil, [nRoles]int{401, ok, ok, ok, ok, ok, ok}},
			{"GET", T, nil, readT},
			{"PUT", T + "/referees/Altro%20Arbitro", nil, manageT},
			{"POST", T + "/entrants", func(r role) any {
				return map[string]any{"entrants": []map[string]any{{"id": fmt.Sprintf("m%d", r),
					"players": []map[string]any{{"name": "A"}, {"name": "B"}}}}}
			}, manageT},
			{"GET", T + "/entrants", nil, readT},
			{"POST", T + "/rounds", func(r role) any {
				return map[string]any{"number": roundFor(r), "phase": "danese",
					"tables": []map[string]any{{"table": 1, "ns": fmt.Sprint(50 + 2*int(r)), "eo": fmt.Sprint(51 + 2*int(r))}}}
			}, [nRoles]int{401, ok, 404, 403, 404, 403, ok}},
			{"GET", T + "/rounds", nil, readT},
			{"GET", T + "/rounds/1", nil, readT},
			{"PATCH", "", func(role) any { return map[string]any{"state": "sheets_delivered"} }, refereeT},
			{"PUT", T + "/rounds/1/tables/1/sheet", func(role) any { return goodSheet() }, manageT},
			{"GET", T + "/rounds/1/tables/1/sheet", nil, readT},
			{"POST", T + "/rounds/1/tables/2/sheet/hands", func(role) any { return goodHands[0] }, manageT},
		}
		for _, rt := range routes {
			for r := none; r < nRoles; r++ {
				path := rt.path
				if rt.method == "PATCH" {
					n, okRole := patchRound[r]
					if !okRole {
						n = 4 // the roles that fail never move it
					}
					path = fmt.Sprintf("%s/rounds/%d", T, n)
				}
				name := fmt.Sprintf("%s %s as %s", rt.method, path, roleNames[r])
				if rt.path == "" {
					name = fmt.Sprintf("PATCH round state as %s", roleNames[r])
				}
				t.Run(name, func(t *testing.T) {
					var body any
					if rt.body != nil {
						body = rt.body(r)
					}
					res := w.do(request{method: rt.method, path: path, token: w.tokenOf(r), body: body})
					want := rt.want[r]
					if want == ok {
						if res.status < 200 || res.status > 299 {
							t.Errorf("status %d, want success\n%s", res.status, res.body)
						}
					} else if res.status != want {
						t.Errorf("status %d, want %d\n%s", res.status, want, res.body)
					}
				})
			}
		}

		// Unknown or malformed tokens are 401 everywhere a token is needed.
		for _, tok := range []string{"sp_notarealtoken", "x", strings.Repeat("a", 300)} {
			r := w.do(request{method: "GET", path: T, header: map[string]string{"Authorization": "Bearer " + tok}})
			wantProblem(t, r, http.StatusUnauthorized, "")
			if r.header.Get("WWW-Authenticate") != `Bearer realm="segnapunti", error="invalid_token"` {
				t.Errorf("WWW-Authenticate %q", r.header.Get("WWW-Authenticate"))
			}
		}
		for _, h := range []string{"Basic dXNlcjpwYXNz", "Bearer", "bearer " + w.admin + " extra"} {
			r := w.do(request{method: "GET", path: T, header: map[string]string{"Authorization": h}})
			wantProblem(t, r, http.StatusUnauthorized, "")
		}
		// The scheme is case-insensitive (RFC 9110 §11.1).
		wantStatus(t, w.do(request{method: "GET", path: T, header: map[string]string{"Authorization": "bearer " + w.admin}}), http.StatusOK, "lower-case scheme")

		// What the list shows follows the same rules.
		count := func(tok string) int {
			r := w.do(request{method: "GET", path: "/v1/tournaments", token: tok})
			return len(r.json(t)["tournaments"].([]any))
		}
		all := count(w.admin)
		for _, c := range []struct {
			who  string
			tok  string
			want int
		}{
			{"club 2 owns none", w.club2, 0},
			{"referee 2 is assigned none", w.ref2, 0},
			{"referee 1 is assigned one", w.ref1, 1},
			{"federation sees all", w.fed, all},
		} {
			if got := count(c.tok); got != c.want {
				t.Errorf("%s: lists %d, want %d", c.who, got, c.want)
			}
		}
	})
}
