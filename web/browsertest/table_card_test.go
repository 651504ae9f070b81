package browsertest

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"segnapunti/web"
	"segnapunti/web/webtest"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// UI.md §9: /tournaments/{tid}/tables/{t}/card is a printable
// card with a QR code of the public address and a typed code, the same at
// every opening; the typed code opens the table's current round.
func TestTableCardPage(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSiteWith(t, db, web.Deps{LANURL: "http://192.168.1.20:8080"})
	_, tid := tableWorld(t, site)
	if _, err := db.CreatePerson(context.Background(), "segreteria.uno", domain.RoleClub, "c1", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	pc := webtest.SignInClient(t, site, "segreteria.uno", "segreta-123")
	short := regexp.MustCompile(`data-short="([A-Z0-9]{8})"`)
	st, page := pc.Get("/tournaments/" + tid + "/tables/1/card")
	if st != 200 || !strings.Contains(page, `data-table-card="1"`) || !strings.Contains(page, `data-qr="1"`) || short.FindStringSubmatch(page) == nil ||
		!strings.Contains(page, `data-public-url="http://192.168.1.20:8080"`) || !strings.Contains(page, "Tavolo 1") {
		t.Fatalf("card page: %d", st)
	}
	code := short.FindStringSubmatch(page)[1]
	if _, page = pc.Get("/tournaments/" + tid + "/tables/1/card"); short.FindStringSubmatch(page)[1] != code {
		t.Error("the card opened twice shows another code")
	}
	// "Stampa tutto": seating, the same table cards and the blank sheets in
	// one document.
	st, page = pc.Get("/tournaments/" + tid + "/rounds/1/print?all=1")
	for _, want := range []string{`id="by-table-h"`, `id="by-player-h"`, `data-table-card="1"`, `data-card-short="` + code + `"`, `class="print-page blank-sheet" data-table="1"`} {
		if st != 200 || !strings.Contains(page, want) {
			t.Errorf("print everything: %d, lacks %s", st, want)
		}
	}
	if _, page = pc.Get("/tournaments/" + tid + "/rounds/1/print"); strings.Contains(page, `data-table-card=`) || !strings.Contains(page, `data-action="print-all"`) {
		t.Error("the round's print page carries the table cards, or no link to print everything")
	}
	if st, _ := pc.Get("/tournaments/" + tid + "/tables/0/card"); st != http.StatusNotFound {
		t.Errorf("table 0's card: %d, want 404", st)
	}
	// The typed code opens round 1's table 1.
	client := &http.Client{}
	res, err := client.PostForm(site.URL+"/table", url.Values{"code": {code}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Request.URL.Path, "/table/") {
		t.Fatalf("the card's typed code: %d at %s", res.StatusCode, res.Request.URL)
	}
	req, _ := http.NewRequest("GET", res.Request.URL.String(), nil)
	req.Header.Set("Accept-Language", "it")
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(b), "Turno 1 · Tavolo 1") || !strings.Contains(string(b), `name="round" value="1"`) {
		t.Errorf("the card's page is not round 1's table 1")
	}
}
