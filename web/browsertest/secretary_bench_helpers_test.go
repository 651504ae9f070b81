package browsertest

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// bigTournamentSite starts a site on the embedded database with a
// tournament of tables tables and a club secretary signed in: her client
// and the tournament's address.
func bigTournamentSite(b *testing.B, tables int) (site *webtest.Site, client *http.Client, base string) {
	db := dbtest.SQLite(b)
	site = webtest.StartSite(b, db)
	pw := site.CreatePerson(b, domain.RoleClub, "segreteria", "bc-roma")
	tid := webtest.SeedBigTournament(b, db, tables)
	client = webtest.SignedInClient(b, site, "segreteria", pw)
	return site, client, site.URL + "/tournaments/" + tid
}

// refereeClient names a referee of the tournament at base (its address
// as bigTournamentSite returns it) and signs them in.
func refereeClient(b *testing.B, site *webtest.Site, base string) *http.Client {
	pw := site.CreatePerson(b, domain.RoleReferee, "arbitro", "")
	tid := base[strings.LastIndexByte(base, '/')+1:]
	if err := site.Store.AssignReferee(context.Background(), tid, "arbitro"); err != nil {
		b.Fatal(err)
	}
	return webtest.SignedInClient(b, site, "arbitro", pw)
}

// benchPages are the pages of UI.md §3 and §4 with the data of a big
// evening, each with who reads it: the secretary's, then the referee's.
func benchPages(site *webtest.Site, base string) (secretary, referee []string) {
	secretary = []string{site.URL + "/", base, base + "/entrants", base + "/entrants/7", base + "/rounds/new",
		base + "/rounds/1", base + "/rounds/1/tables", base + "/rounds/1/tables/50", base + "/rounds/1/print",
		base + "/tables/1/card", base + "/imports", base + "/standings", base + "/prizes", base + "/export"}
	referee = []string{base + "/review", base + "/rounds/1/tables/50/correct", base + "/corrections",
		base + "/adjustments", base + "/rounds/1/control", base + "/check", base + "/interrupt"}
	return secretary, referee
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func hostOf(u string) string {
	p, _ := url.Parse(u)
	return p.Host
}

// withCookies adds the client's cookies to a request sent on its
// transport (so that gzip is not undone by the client).
func withCookies(c *http.Client, req *http.Request) *http.Request {
	for _, ck := range c.Jar.Cookies(req.URL) {
		req.AddCookie(ck)
	}
	return req
}
