package browsertest

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
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
