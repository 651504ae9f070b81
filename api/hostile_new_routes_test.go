package api

import (
	"net/http"
	"strings"
	"testing"
)

// The newer routes (imports listed and undone,
// generated rounds, the pairing check, tokens, individual lines) given
// hostile path values and bodies: a 4xx naming what is wrong, never a 5xx,
// and nothing written.
func TestHostileInputToNewRoutes(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		T := "/v1/tournaments/" + w.tid
		before := w.snapshot()
		for _, rq := range []request{
			{method: "DELETE", path: T + "/imports/abc", token: w.club1},
			{method: "DELETE", path: T + "/imports/-1", token: w.club1},
			{method: "DELETE", path: T + "/imports/99999999999999999999999", token: w.club1},
			{method: "DELETE", path: T + "/imports/0", token: w.club1},
			{method: "GET", path: T + "/imports?limit=x", token: w.club1},
			{method: "GET", path: T + "/rounds/abc/check", token: w.ref1},
			{method: "GET", path: T + "/rounds/99999999999999999999/check", token: w.ref1},
			{method: "GET", path: T + "/rounds/0/check", token: w.ref1},
			{method: "POST", path: T + "/rounds/generate", token: w.club1, body: `{"number": "2", "system": "danese"}`},
			{method: "POST", path: T + "/rounds/generate", token: w.club1, body: map[string]any{"number": 1 << 40, "system": "danese"}},
			{method: "POST", path: T + "/rounds/generate", token: w.club1, body: map[string]any{"number": 2, "system": "nope"}},
			{method: "POST", path: T + "/rounds/generate", token: w.club1, body: map[string]any{"number": 2, "system": "draw", "seed": "x"}},
			{method: "POST", path: T + "/rounds/generate", token: w.club1, body: map[string]any{"number": 2, "system": "draw", "hands_planned": -3}},
			{method: "PATCH", path: T + "/rounds/1", token: w.club1, body: map[string]any{"state": "flying"}},
			{method: "PATCH", path: T + "/rounds/abc", token: w.club1, body: map[string]any{"state": "playing"}},
			{method: "PUT", path: T + "/rounds/1/tables/1/sheet", token: w.club1, body: map[string]any{"hands": []any{}, "ns": map[string]any{"ids": []any{1, 2, 3}}}},
			{method: "PUT", path: T + "/rounds/1/tables/1/sheet", token: w.club1, body: `{"ns": {"ids": ["1", {"x": 1}]}}`},
			{method: "DELETE", path: "/v1/tokens/%ff", token: w.admin},
			{method: "DELETE", path: "/v1/tokens/" + strings.Repeat("k", 300), token: w.admin},
		} {
			r := w.do(rq)
			if r.status >= 500 || r.status < 400 {
				t.Errorf("%s %s: %d, want a 4xx\n%.300s", rq.method, rq.path, r.status, r.body)
			}
			if r.status == http.StatusUnprocessableEntity || r.status == http.StatusBadRequest {
				if len(r.body) == 0 {
					t.Errorf("%s %s: %d without a problem document", rq.method, rq.path, r.status)
				}
			}
		}
		w.wantUnchanged(before)
	})
}
