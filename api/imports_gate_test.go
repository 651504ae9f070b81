package api

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"segnapunti/domain"
	"segnapunti/importers/xlsx"
)

// The importer's gate is taken before an upload is read; a busy
// server answers 503 with the gate's Retry-After and stores nothing.
func TestImportGateBusy(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		gate := xlsx.NewGate(1, 0)
		srv := httptest.NewServer(NewServer(Config{ImportGate: gate}, b.db, slog.New(slog.DiscardHandler)))
		t.Cleanup(srv.Close)
		w.srv = srv

		release, err := gate.Acquire(context.Background()) // another upload being read
		if err != nil {
			t.Fatal(err)
		}
		data := tidyWorkbook(t, domain.FITAB2025, 3, genMatches(seating{1, 1, "1", "3"}), nil)
		before := w.snapshot()
		r := w.upload(w.club1, w.tid, "turno1.xlsx", data)
		wantProblem(t, r, http.StatusServiceUnavailable, "")
		if ra := r.header.Get("Retry-After"); ra != "5" {
			t.Errorf("Retry-After %q, want 5 (the gate's)", ra)
		}
		w.wantUnchanged(before)

		release()
		wantStatus(t, w.upload(w.club1, w.tid, "turno1.xlsx", data), http.StatusCreated, "once the gate is free")
	})
}
