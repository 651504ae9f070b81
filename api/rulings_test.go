package api

import (
	"net/http"
	"strings"
	"testing"

	"segnapunti/store/dbtest"
)

// rulingBody is a consistent FITAB situation: a sum error of round 1 found
// while round 2 is being paired in a Danish phase, nothing published yet.
func rulingBody(kv ...any) map[string]any {
	b := map[string]any{"ruleset": "fitab-2025", "kind": "sum", "level": "club", "phase": "danese",
		"error_round": 1, "current_round": 2, "current_round_started": false, "tournament_closed": false,
		"standings_published": false, "standings_contested": false, "positions_published": false,
		"both_lines_acknowledge": false, "referee_countersigned": false}
	for i := 0; i < len(kv); i += 2 {
		b[kv[i].(string)] = kv[i+1]
	}
	return b
}

// RULES §9: "A stateless request (POST /v1/rulings) that says otherwise is
// refused with 422 naming the contradicting fields."
func TestRulingsContradictoryFacts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	for _, tc := range []struct {
		name     string
		body     map[string]any
		pointers []string
		names    []string // fields the detail must name
	}{
		{"RULES §9/error in round 1, round 2 started, positions not published (mitchell)",
			rulingBody("phase", "mitchell", "current_round_started", true),
			[]string{"/positions_published"}, []string{"current_round_started"}},
		{"RULES §9/error in round 1, round 3 being paired, positions not published",
			rulingBody("current_round", 3, "standings_published", true),
			[]string{"/positions_published"}, []string{"current_round", "error_round"}},
		{"RULES §9/danese round 2 started, neither positions nor standings published",
			rulingBody("current_round_started", true),
			[]string{"/positions_published", "/standings_published"}, []string{"current_round_started"}},
		{"RULES §9/current round before the error round",
			rulingBody("error_round", 3, "current_round", 2),
			[]string{"/error_round"}, []string{"current_round"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.do(request{method: "POST", path: "/v1/rulings", body: tc.body})
			p := wantProblem(t, r, http.StatusUnprocessableEntity, tc.pointers[0])
			for _, ptr := range tc.pointers {
				found := false
				for _, fe := range p.Errors {
					if fe.Pointer == ptr {
						found = true
						for _, n := range tc.names {
							if ptr == tc.pointers[0] && !strings.Contains(fe.Detail, n) {
								t.Errorf("detail %q does not name %s", fe.Detail, n)
							}
						}
					}
				}
				if !found {
					t.Errorf("problem does not name %s: %s", ptr, r.body)
				}
			}
		})
	}
	t.Run("RULES §9/near-miss: round 2 started with positions and standings published → a ruling", func(t *testing.T) {
		r := e.do(request{method: "POST", path: "/v1/rulings",
			body: rulingBody("current_round_started", true, "positions_published", true, "standings_published", true)})
		wantStatus(t, r, http.StatusOK, "consistent facts")
		if got := decodeInto[rulingJSON](t, r); got.Ruling != "apply_keep_pairing" {
			t.Errorf("ruling %+v, want apply_keep_pairing (FITAB art. 20 B)", got)
		}
	})
}

// The reason cites the federation article, never RULES.md,
// in the language of ?lang=, else of Accept-Language, else English.
func TestRulingsReasonLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	const en, it = "table positions are not yet published", "posizione ai tavoli"
	for _, tc := range []struct {
		name, query, accept, want string
	}{
		{"default English", "", "", en},
		{"?lang=it", "?lang=it", "", it},
		{"?lang=en wins over Accept-Language it", "?lang=en", "it-IT,it;q=0.9", en},
		{"Accept-Language it-IT", "", "it-IT,it;q=0.9,en;q=0.5", it},
		{"Accept-Language prefers English", "", "en-GB,en;q=0.9,it;q=0.5", en},
		{"Accept-Language French then Italian", "", "fr-FR,it;q=0.8", it},
		{"Accept-Language German only: English", "", "de-DE", en},
		{"unreadable Accept-Language: English", "", ";;;=", en},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{}
			if tc.accept != "" {
				hdr["Accept-Language"] = tc.accept
			}
			r := e.do(request{method: "POST", path: "/v1/rulings" + tc.query, body: rulingBody(), header: hdr})
			wantStatus(t, r, http.StatusOK, "ruling")
			got := decodeInto[rulingJSON](t, r)
			if got.Ruling != "apply" || !strings.Contains(got.Reason, tc.want) {
				t.Errorf("reason %q, want it to contain %q", got.Reason, tc.want)
			}
			if strings.Contains(got.Reason, "RULES") || !strings.HasSuffix(got.Reason, "(FITAB art. 20, point A)") {
				t.Errorf("reason %q must end with the article, never RULES.md", got.Reason)
			}
		})
	}
	r := e.do(request{method: "POST", path: "/v1/rulings?lang=fr", body: rulingBody()})
	wantProblem(t, r, http.StatusBadRequest, "lang")
}
