package officialtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// Who may do what to a sheet is decided before its body is read; so is who
// may correct it or upload a workbook of its sheets (API §4
// roles): another club's sheet is a 404 through both doors whatever is
// sent, a malformed body too — it is not a 400, which would tell that the
// table exists. The organising club sending the same body gets the 400.
func TestBothDoorsAnotherClubsSheetIsNotFoundWhateverTheBody(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		ctx := context.Background()
		club := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "c1"}
		ops, tid := newClubTournament(t, db, "Porte chiuse")
		seatPairs(t, ops, club, tid, 1)
		if _, err := db.CreateClub(ctx, domain.Club{ID: "c2", Name: "Circolo c2"}); err != nil {
			t.Fatal(err)
		}
		tokens := map[string]string{"c1": newToken(t, db, domain.RoleClub, "segreteria-c1", "c1"), "c2": newToken(t, db, domain.RoleClub, "segreteria-c2", "c2")}
		pages := map[string]*webtest.PageClient{}
		for _, c := range []string{"c1", "c2"} {
			pw := site.CreatePerson(t, domain.RoleClub, "persona "+c, c)
			pages[c] = webtest.SignInClient(t, site, "persona "+c, pw)
		}
		api := func(token, method, path, body string) int {
			req, _ := http.NewRequest(method, site.URL+path, strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+token)
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return res.StatusCode
		}
		page := func(c *webtest.PageClient, path, body string) int {
			req, _ := http.NewRequest("POST", site.URL+path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			st, _ := c.Do(req)
			return st
		}
		sheet := fmt.Sprintf("/tournaments/%s/rounds/1/tables/1", tid)
		const badJSON, badForm = `{"hands": [`, "version=%zz&hands.0.ns.base=%"
		for _, c := range []struct {
			door, club string
			send       func(club string) int
			want       int
		}{
			{"API PUT …/sheet", "c2", func(cl string) int { return api(tokens[cl], "PUT", "/v1"+sheet+"/sheet", badJSON) }, http.StatusNotFound},
			{"API POST …/sheet/hands", "c2", func(cl string) int { return api(tokens[cl], "POST", "/v1"+sheet+"/sheet/hands", badJSON) }, http.StatusNotFound},
			{"page save", "c2", func(cl string) int { return page(pages[cl], sheet, badForm) }, http.StatusNotFound},
			{"page live check", "c2", func(cl string) int { return page(pages[cl], sheet+"/validate", badForm) }, http.StatusNotFound},
			{"API POST …/corrections", "c2", func(cl string) int { return api(tokens[cl], "POST", "/v1/tournaments/"+tid+"/corrections", badJSON) }, http.StatusNotFound},
			{"page correction preview", "c2", func(cl string) int { return page(pages[cl], sheet+"/correct/preview", badForm) }, http.StatusNotFound},
			{"page correction", "c2", func(cl string) int { return page(pages[cl], sheet+"/correct", badForm) }, http.StatusNotFound},
			{"API POST …/imports", "c2", func(cl string) int { return api(tokens[cl], "POST", "/v1/tournaments/"+tid+"/imports", badJSON) }, http.StatusNotFound},
			{"page upload", "c2", func(cl string) int { return page(pages[cl], "/tournaments/"+tid+"/imports", badForm) }, http.StatusNotFound},
			{"API GET …/standings?after_round=tre", "c2", func(cl string) int {
				return api(tokens[cl], "GET", "/v1/tournaments/"+tid+"/standings?after_round=tre", "")
			}, http.StatusNotFound},
			// The same bodies to the organising club's own sheet: malformed.
			{"API PUT …/sheet", "c1", func(cl string) int { return api(tokens[cl], "PUT", "/v1"+sheet+"/sheet", badJSON) }, http.StatusBadRequest},
			{"API POST …/sheet/hands", "c1", func(cl string) int { return api(tokens[cl], "POST", "/v1"+sheet+"/sheet/hands", badJSON) }, http.StatusBadRequest},
			{"page save", "c1", func(cl string) int { return page(pages[cl], sheet, badForm) }, http.StatusBadRequest},
			{"page live check", "c1", func(cl string) int { return page(pages[cl], sheet+"/validate", badForm) }, http.StatusBadRequest},
			{"API GET …/standings?after_round=tre", "c1", func(cl string) int {
				return api(tokens[cl], "GET", "/v1/tournaments/"+tid+"/standings?after_round=tre", "")
			}, http.StatusBadRequest},
			// A club tournament: its club corrects (RULES §9).
			{"API POST …/corrections", "c1", func(cl string) int { return api(tokens[cl], "POST", "/v1/tournaments/"+tid+"/corrections", badJSON) }, http.StatusBadRequest},
			{"page correction preview", "c1", func(cl string) int { return page(pages[cl], sheet+"/correct/preview", badForm) }, http.StatusBadRequest},
		} {
			if got := c.send(c.club); got != c.want {
				t.Errorf("%s, club %s, malformed body: %d, want %d", c.door, c.club, got, c.want)
			}
		}
		if _, err := ops.Sheet(ctx, club, tid, 1, 1); err == nil {
			t.Error("a sheet was stored from a malformed body")
		}
	})
}
