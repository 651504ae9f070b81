package browsertest

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.5, FITAB art. 19: a team match's sheets are signed by the
// captains. The printed sheet of a team round has the captains' signature
// lines; at the table the signing line gives its team's number, and the
// page says its captain signs; the secretary's sheet page names the
// captain of the team that signed. (Read: the captain signs for the team
// with the team's number, as a pair signs with its pair number; the
// service records which team's line signed and when.)
func TestTeamSheetsAreSignedByTheCaptains(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	ctx := context.Background()
	admin, _, err := site.Store.CreateToken(ctx, domain.RoleAdmin, "root", "")
	if err != nil {
		t.Fatal(err)
	}
	apiCall(t, site, "POST", "/v1/clubs", admin, map[string]any{"id": "c1", "name": "Circolo Uno"}, 201)
	club := apiCall(t, site, "POST", "/v1/tokens", admin, map[string]any{"role": "club", "club": "c1", "name": "Segreteria"}, 201)["token"].(string)
	tid := apiCall(t, site, "POST", "/v1/tournaments", club, map[string]any{"name": "Squadre", "date": "2026-11-28", "level": "club",
		"ruleset": "fitab-2025", "kind": "teams", "rounds_planned": 1, "hands_per_round": 3}, 201)["id"].(string)
	var es []map[string]any
	for i := 1; i <= 2; i++ {
		var players []map[string]any
		for p := 1; p <= 4; p++ {
			players = append(players, map[string]any{"name": fmt.Sprintf("Giocatore %d-%d", i, p), "membership": fmt.Sprintf("FT%d%02d", i, p)})
		}
		es = append(es, map[string]any{"id": fmt.Sprint(i), "team": fmt.Sprintf("Squadra %d", i), "players": players})
	}
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/entrants", club, map[string]any{"entrants": es}, 201)
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds", club, map[string]any{"number": 1,
		"tables": []map[string]any{{"table": 1, "match": 1, "ns": "1", "eo": "2"}, {"table": 2, "match": 1, "ns": "2", "eo": "1"}}}, 201)

	// The printed round: captains' signature lines.
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "c1")
	pc := webtest.SignInClient(t, site, "segreteria", pw)
	if st, body := pc.Get("/tournaments/" + tid + "/rounds/1/print"); st != 200 || !strings.Contains(body, `data-signatures="captains"`) || !strings.Contains(body, "Firma del capitano") {
		t.Errorf("team round's print page: %d, no captains' signature lines", st)
	}

	hand := map[string]any{"end": "closed", "ns": map[string]any{"base": 300, "points": 235}, "eo": map[string]any{"base": 100, "points": -120}}
	apiCall(t, site, "PUT", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet", club, map[string]any{"hands": []any{hand, hand, hand}}, 201)
	code := entryCode(t, site, club, tid)
	if st, body := site.Send(t, "GET", "/table/"+code, nil); st != 200 || !strings.Contains(body, "Numero della squadra: firma il suo capitano") {
		t.Errorf("team table page: %d, the scoring line is not asked for its team's captain", st)
	}
	st, body := site.Send(t, "POST", "/table/"+code+"/end", url.Values{"line": {"ns"}, "scorer_entrant": {"1"}})
	if st != 200 || !strings.Contains(body, `data-action="confirm"`) || !strings.Contains(body, "Numero della squadra (") {
		t.Fatalf("team 1's captain ends the sheet: %d, the other team's captain is not asked", st)
	}
	if st, _ = site.Send(t, "POST", "/table/"+code+"/confirm", url.Values{"entrant": {"2"}}); st != 200 {
		t.Fatalf("team 2's captain confirms: %d", st)
	}
	st, body = pc.Get("/tournaments/" + tid + "/rounds/1/tables/1")
	if st != 200 || !strings.Contains(body, "il capitano della squadra n. 1") || !strings.Contains(body, "il capitano della squadra n. 2") {
		t.Errorf("sheet page: %d, the captains who signed are not named", st)
	}
}
