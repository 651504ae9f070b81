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

var (
	publicURLAttr = regexp.MustCompile(`data-public-url="([^"]*)" data-source="([a-z]+)"`)
	qrImg         = regexp.MustCompile(`data-qr="\d+"`)
)

// UI.md §9: the print page says in [data-public-url] which
// address the QR codes carry — the environment's, else the one stored on
// /admin, else the LAN address serve found, else the page's own — and
// warns when only this machine opens it. No request goes anywhere but
// loopback: the addresses are only written on the page.
func TestPrintPagePublicURL(t *testing.T) {
	cases := []struct {
		name              string
		deps              web.Deps
		stored            string
		wantURL, wantFrom string
		loopback          bool
	}{
		{"the page's own address, loopback: a warning", web.Deps{}, "", "", "request", true},
		{"the LAN address serve found", web.Deps{LANURL: "http://192.168.1.20:8080"}, "", "http://192.168.1.20:8080", "lan", false},
		{"stored on /admin, over the LAN address", web.Deps{LANURL: "http://192.168.1.20:8080"}, "http://10.1.2.3:9000/", "http://10.1.2.3:9000", "setting", false},
		{"the environment over all", web.Deps{PublicURL: "https://torneo.example.it", LANURL: "http://192.168.1.20:8080"}, "http://10.1.2.3:9000", "https://torneo.example.it", "env", false},
		{"a stored localhost still warns", web.Deps{}, "http://localhost:8080", "http://localhost:8080", "setting", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			db := dbtest.SQLite(t)
			site := webtest.StartSiteWith(t, db, c.deps)
			ctx := context.Background()
			if _, err := db.CreatePerson(ctx, "root", domain.RoleAdmin, "", "segreta-123"); err != nil {
				t.Fatal(err)
			}
			_, tid := tableWorld(t, site)
			pc := webtest.SignInClient(t, site, "root", "segreta-123")
			if c.stored != "" {
				if st, body := pc.Post("/admin/public-url", url.Values{"public_url": {c.stored}}); st != 200 || !strings.Contains(body, "Indirizzo salvato") {
					t.Fatalf("store the address: %d", st)
				}
			}
			st, body := pc.Get("/tournaments/" + tid + "/rounds/1/print")
			m := publicURLAttr.FindStringSubmatch(body)
			if st != 200 || m == nil {
				t.Fatalf("print page: %d, no [data-public-url]", st)
			}
			want := c.wantURL
			if want == "" {
				want = site.URL
			}
			if m[1] != want || m[2] != c.wantFrom {
				t.Errorf("[data-public-url] = %q from %q, want %q from %q", m[1], m[2], want, c.wantFrom)
			}
			if got := strings.Contains(body, `data-loopback="true"`); got != c.loopback {
				t.Errorf("loopback warning shown = %v, want %v", got, c.loopback)
			}
			if !qrImg.MatchString(body) || !strings.Contains(body, "apri "+want+"/table") {
				t.Errorf("the sheets do not carry the QR codes and the address %s/table", want)
			}
		})
	}
}

// Only a well-formed address is stored; the refusal is named
// next to the input.
func TestAdminPublicURLRefused(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	if _, err := db.CreatePerson(context.Background(), "root", domain.RoleAdmin, "", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	pc := webtest.SignInClient(t, site, "root", "segreta-123")
	st, body := pc.Post("/admin/public-url", url.Values{"public_url": {"192.168.1.20:8080"}})
	if st != 422 || !strings.Contains(body, `aria-describedby="public-url-error public-url-hint" aria-invalid="true"`) || !strings.Contains(body, "http://") {
		t.Errorf("a bad address: %d", st)
	}
	if v, err := site.Store.Setting(context.Background(), "public_url"); err == nil {
		t.Errorf("a refused address was stored: %q", v)
	}
}

// The public pages' QR codes (for the notice board) carry the
// address phones open, not the projector's localhost.
func TestPublicPageQRCarriesPublicURL(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSiteWith(t, db, web.Deps{LANURL: "http://192.168.1.20:8080"})
	club, tid := tableWorld(t, site)
	apiCall(t, site, "PATCH", "/v1/tournaments/"+tid, club, map[string]any{"public": true}, 200)
	req, _ := http.NewRequest("GET", site.URL+"/p/"+tid+"/standings", nil)
	req.Header.Set("Accept-Language", "it")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.Contains(string(b), "<small>http://192.168.1.20:8080/p/"+tid+"/standings</small>") {
		t.Errorf("public standings: %d, the QR's address is not the LAN address", res.StatusCode)
	}
}
