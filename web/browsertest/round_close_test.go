package browsertest

import (
	"context"
	"net/http"
	"net/url"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// Closing a round (sheets delivered, RULES §10) first lists the
// tables whose sheet is not delivered cleanly — here table 1, entered but
// not confirmed — and asks; nothing changes until the secretary confirms.
func TestRoundCloseListsUnsettledTables(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	club, tid := tableWorld(t, site)
	hand := map[string]any{"end": "closed", "ns": map[string]any{"base": 300, "points": 235}, "eo": map[string]any{"base": 100, "points": -120}}
	apiCall(t, site, "PUT", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, map[string]any{"hands": []any{hand, hand, hand}}, 201)
	if _, err := db.CreatePerson(context.Background(), "segreteria.uno", domain.RoleClub, "c1", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	pc := webtest.SignInClient(t, site, "segreteria.uno", "segreta-123")
	state := func() string {
		return apiCall(t, site, "GET", "/v1/tournaments/"+tid+"/rounds/1", club, nil, 200)["state"].(string)
	}
	st, page := pc.Post("/tournaments/"+tid+"/rounds/1/state", url.Values{"state": {"sheets_delivered"}})
	if st != 200 || !strings.Contains(page, `data-confirm="close-round"`) || !strings.Contains(page, `data-unsettled="1" data-status="awaiting_confirmation"`) ||
		!strings.Contains(page, "Chiudere il turno? Tavoli senza un referto consegnato e senza errori: 1.") {
		t.Fatalf("closing with an unconfirmed table: %d, want the question listing table 1", st)
	}
	if got := state(); got != "playing" {
		t.Fatalf("the question closed the round: %s", got)
	}
	if st, _ = pc.Post("/tournaments/"+tid+"/rounds/1/state", url.Values{"state": {"sheets_delivered"}, "confirmed": {"yes"}}); st != http.StatusSeeOther {
		t.Fatalf("confirmed close: %d, want 303", st)
	}
	if got := state(); got != "sheets_delivered" {
		t.Errorf("after the confirmed close the round is %s", got)
	}
}
