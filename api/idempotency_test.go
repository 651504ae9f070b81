package api

import (
	"net/http"
	"testing"
)

// The IETF idempotency-key draft: a key reused with the same hand
// replays; reused with a different hand it is a 422 naming the header, and
// nothing is added.
func TestIdempotencyKeyReusedWithAnotherBody(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		path := w.sheetPath(1, 2) + "/hands"
		key := map[string]string{"Idempotency-Key": "tavolo2-mano1"}
		wantStatus(t, w.do(request{method: "POST", path: path, token: w.club1, body: goodHands[0], header: key}), http.StatusCreated, "first hand")

		// The same hand, other spacing and member order: a replay.
		same := `{"eo": {"total": -20, "points": -120, "base": 100},   "ns": {"total": 535, "base": 300, "points": 235}, "end": "closed"}`
		r := w.do(request{method: "POST", path: path, token: w.club1, body: same, header: key})
		wantStatus(t, r, http.StatusCreated, "the same hand again")
		if r.header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("the retry is not a replay: %s", r.body)
		}

		before := w.snapshot()
		r = w.do(request{method: "POST", path: path, token: w.club1, body: goodHands[1], header: key})
		wantProblem(t, r, http.StatusUnprocessableEntity, "Idempotency-Key")
		if r.header.Get("Idempotent-Replayed") != "" {
			t.Error("a different hand was answered as a replay")
		}
		w.wantUnchanged(before)

		// With a new key the second hand is added.
		r = w.do(request{method: "POST", path: path, token: w.club1, body: goodHands[1], header: map[string]string{"Idempotency-Key": "tavolo2-mano2"}})
		wantStatus(t, r, http.StatusCreated, "second hand, new key")
		if got := r.json(t)["hands"]; got != 2.0 {
			t.Errorf("hands %v, want 2", got)
		}
	})
}
