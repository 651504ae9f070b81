package officialtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/importers/xlsx"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// One rule, two doors: each test below states a rule once, as a table of
// cases, and drives the same case through the JSON API (real HTTP) and
// through the pages (form posts of a signed-in person); both must give
// the same verdict, since the rule lives in one operation (package app).

// apiCall sends a JSON request with a bearer token and returns the status
// and the decoded body.
func apiCall(t *testing.T, site *webtest.Site, token, method, path string, body any) (int, map[string]any) {
	t.Helper()
	st, b := site.APIDo(t, token, method, path, body)
	var out map[string]any
	json.Unmarshal(b, &out)
	return st, out
}

// newClubTournament makes a club-level pairs tournament of club c1 (3
// rounds of 3 hands) and returns its id.
func newClubTournament(t *testing.T, db *store.DB, name string) (*app.App, string) {
	t.Helper()
	ops := app.New(db, nil, slog.New(slog.DiscardHandler))
	ctx := context.Background()
	if _, err := db.GetClub(ctx, "c1"); err != nil {
		if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo c1"}); err != nil {
			t.Fatal(err)
		}
	}
	tr, err := ops.CreateTournament(ctx, app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "c1"},
		app.TournamentInput{Name: name, Date: "2026-11-21", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	return ops, tr.ID
}

// clubDoors starts the site over db with a tournament of club c1, its
// secretary signed in to the pages and a club token for the API.
func clubDoors(t *testing.T, db *store.DB, tournament string) (*webtest.Site, *webtest.PageClient, string, string) {
	t.Helper()
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "c1")
	page := webtest.SignInClient(t, site, "segreteria", pw)
	_, tid := newClubTournament(t, db, tournament)
	return site, page, newToken(t, db, domain.RoleClub, "segreteria-api", "c1"), tid
}

// seatPairs enters 2×tables pairs and seats them in round 1, pair 2k-1
// against pair 2k at table k.
func seatPairs(t *testing.T, ops *app.App, club app.Principal, tid string, tables int) {
	t.Helper()
	ctx := context.Background()
	var es []app.EntrantInput
	var seats []domain.TableAssignment
	for i := 1; i <= 2*tables; i++ {
		id := strconv.Itoa(i)
		es = append(es, app.EntrantInput{ID: id, Players: []domain.Player{{Name: "Rossi " + id}, {Name: "Bianchi " + id}}})
		if i%2 == 0 {
			seats = append(seats, domain.TableAssignment{Table: i / 2, NS: strconv.Itoa(i - 1), EO: id})
		}
	}
	if _, err := ops.AddEntrants(ctx, club, tid, es); err != nil {
		t.Fatal(err)
	}
	if _, err := ops.CreateRound(ctx, club, tid, app.RoundInput{Number: 1, Phase: "mitchell", Tables: seats}); err != nil {
		t.Fatal(err)
	}
}

// newToken makes an API token of role (and club).
func newToken(t *testing.T, db *store.DB, role domain.Role, name, club string) string {
	t.Helper()
	tok, _, err := db.CreateToken(context.Background(), role, name, club)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// verdict is what a door answered, as the rule sees it.
func verdict(status int) string {
	switch {
	case status >= 200 && status < 400:
		return "accepted"
	case status == http.StatusUnprocessableEntity:
		return "invalid"
	case status == http.StatusConflict:
		return "conflict"
	}
	return http.StatusText(status)
}

// A club person acts for their club, and so does a club token (API §4
// roles): neither is made without a club that exists.
func TestBothDoorsAClubPersonNeedsAClub(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		pw := site.CreatePerson(t, domain.RoleAdmin, "admin", "")
		page := webtest.SignInClient(t, site, "admin", pw)
		adminTok := newToken(t, db, domain.RoleAdmin, "admin-api", "")
		if _, err := db.CreateClub(context.Background(), domain.Club{ID: "bc-roma", Name: "Burraco Club Roma"}); err != nil {
			t.Fatal(err)
		}
		for i, c := range []struct {
			name string
			role string
			club string
			want string
		}{
			{"a club person of an existing club", "club", "bc-roma", "accepted"},
			{"a club person without a club", "club", "", "invalid"},
			{"a club person of a club nobody created", "club", "bc-nessuno", "invalid"},
			{"a referee needs no club", "referee", "", "accepted"},
		} {
			name := "persona-" + string(rune('a'+i))
			body := map[string]any{"role": c.role, "name": name}
			if c.club != "" {
				body["club"] = c.club
			}
			apiStatus, apiBody := apiCall(t, site, adminTok, "POST", "/v1/tokens", body)
			pageStatus, _ := page.Post("/admin/people", url.Values{"name": {name}, "role": {c.role}, "club": {c.club}, "password": {"una-password-lunga"}})
			if got := verdict(apiStatus); got != c.want {
				t.Errorf("%s: the API answers %d (%s), want %s: %v", c.name, apiStatus, got, c.want, apiBody)
			}
			if got := verdict(pageStatus); got != c.want {
				t.Errorf("%s: the page answers %d (%s), want %s", c.name, pageStatus, got, c.want)
			}
		}
	})
}

// UI.md §3: malformed membership numbers are refused — by the API's bulk
// entry as by the entrants page.
func TestBothDoorsMembershipNumberShape(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site, page, tok, tid := clubDoors(t, db, "Tessere")
		for i, c := range []struct {
			membership string
			want       string
		}{
			{"FT123456", "accepted"},
			{"123456", "accepted"},
			{"RM-004512", "accepted"},
			{"", "accepted"},      // a player without one
			{"FT", "invalid"},     // no digit
			{"'; --", "invalid"},  // not letters and digits
			{"FT 123", "invalid"}, // a space inside
			{"FT--12", "invalid"}, // two separators
			{"-FT12", "invalid"},  // a leading separator
		} {
			apiID, pageID := strings.Repeat("1", i+1), strings.Repeat("2", i+1)
			apiStatus, apiBody := apiCall(t, site, tok, "POST", "/v1/tournaments/"+tid+"/entrants", map[string]any{"entrants": []any{
				map[string]any{"id": apiID, "players": []any{map[string]any{"name": "Rossi Anna", "membership": c.membership}, map[string]any{"name": "Bianchi Luca"}}}}})
			pageStatus, _ := page.Post("/tournaments/"+tid+"/entrants", url.Values{"id": {pageID}, "p1_name": {"Rossi Anna"}, "p1_membership": {c.membership},
				"p2_name": {"Bianchi Luca"}, "pair": {"1"}})
			if got := verdict(apiStatus); got != c.want {
				t.Errorf("membership %q: the API answers %d (%s), want %s: %v", c.membership, apiStatus, got, c.want, apiBody)
			}
			if got := verdict(pageStatus); got != c.want {
				t.Errorf("membership %q: the page answers %d (%s), want %s", c.membership, pageStatus, got, c.want)
			}
		}
	})
}

var provisionalTable = regexp.MustCompile(`<table[^>]*data-standings="true"[^>]*>`)

// docs/rules.md §8: the standings after round n are provisional until the
// referee has published the standings of every round up to n. The API's
// public standings, the public page and the secretary's page say the
// same at each step of round 1.
func TestBothDoorsProvisionalStandings(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		w := newRefereeWorld(t, db, "fitab-2025", false) // round 1 delivered
		refTok := newToken(t, db, domain.RoleReferee, "anna.rossi", "")
		pw := site.CreatePerson(t, domain.RoleClub, "segreteria c1", "c1")
		page := webtest.SignInClient(t, site, "segreteria c1", pw)
		tok := newToken(t, db, domain.RoleClub, "segreteria-api", "c1")
		if st, body := apiCall(t, site, tok, "PATCH", "/v1/tournaments/"+w.tid, map[string]any{"public": true}); st != http.StatusOK {
			t.Fatalf("make it public: %d %v", st, body)
		}
		for _, c := range []struct {
			state       string // round 1's state, set by the referee
			provisional bool
		}{
			{"sheets_delivered", true},
			{"standings_published", false},
			{"next_pairing_published", false},
		} {
			if c.state != "sheets_delivered" {
				if st, body := apiCall(t, site, refTok, "PATCH", "/v1/tournaments/"+w.tid+"/rounds/1", map[string]any{"state": c.state}); st != http.StatusOK {
					t.Fatalf("round 1 → %s: %d %v", c.state, st, body)
				}
			}
			st, body := apiCall(t, site, "", "GET", "/v1/public/tournaments/"+w.tid+"/standings?after_round=1", nil)
			if st != http.StatusOK || body["provisional"] != c.provisional {
				t.Errorf("round 1 %s: the API says provisional %v (%d), want %v", c.state, body["provisional"], st, c.provisional)
			}
			for _, path := range []string{"/tournaments/" + w.tid + "/standings?after_round=1", "/p/" + w.tid + "/standings?after_round=1"} {
				st, html := page.Get(path)
				tag := provisionalTable.FindString(html)
				if st != http.StatusOK || tag == "" {
					t.Fatalf("%s: %d, no standings table", path, st)
				}
				if got := strings.Contains(tag, `data-provisional="true"`); got != c.provisional {
					t.Errorf("round 1 %s: %s says provisional %v, want %v", c.state, path, got, c.provisional)
				}
			}
		}
	})
}

// FITAB art. 20, FIBur-INT art. 19: once the round's sheets are delivered
// they are final; a sheet changes only by a referee's correction. The
// API's PUT and the sheet page's save are refused alike, and the stored
// sheet stays as it was.
func TestBothDoorsSheetLocking(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		w := newRefereeWorld(t, db, "fitab-2025", false) // round 1 delivered
		pw := site.CreatePerson(t, domain.RoleClub, "segreteria c1", "c1")
		page := webtest.SignInClient(t, site, "segreteria c1", pw)
		tok := newToken(t, db, domain.RoleClub, "segreteria-api", "c1")
		ctx := context.Background()
		before, err := w.ops.Sheet(ctx, clubP, w.tid, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		hand := map[string]any{"end": "closed", "ns": map[string]any{"base": 200, "points": 100}, "eo": map[string]any{"base": 200, "points": 50}}
		sheetPath := "/tournaments/" + w.tid + "/rounds/1/tables/2"
		apiStatus, apiBody := apiCall(t, site, tok, "PUT", "/v1"+sheetPath+"/sheet", map[string]any{"hands": []any{hand, hand, hand}})
		form := url.Values{"version": {"0"}}
		for h := range 3 {
			p := "hands." + string(rune('0'+h)) + "."
			form.Set(p+"end", "closed")
			form.Set(p+"ns.base", "200")
			form.Set(p+"ns.points", "100")
			form.Set(p+"eo.base", "200")
			form.Set(p+"eo.points", "50")
		}
		pageStatus, _ := page.Post(sheetPath, form)
		if apiStatus != http.StatusConflict {
			t.Errorf("the API's PUT of a delivered sheet answers %d, want 409: %v", apiStatus, apiBody)
		}
		if pageStatus == http.StatusOK || pageStatus == http.StatusCreated {
			t.Errorf("the page's save of a delivered sheet answers %d: it must be refused", pageStatus)
		}
		after, err := w.ops.Sheet(ctx, clubP, w.tid, 1, 2)
		if err != nil {
			t.Fatal(err)
		}
		if after.Stored.Version != before.Stored.Version {
			t.Errorf("the delivered sheet changed: version %d → %d", before.Stored.Version, after.Stored.Version)
		}
	})
}

// multipartFile is a form with one file field "file".
func multipartFile(t *testing.T, data []byte) (string, *bytes.Buffer) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, err := mw.CreateFormFile("file", "lista.xlsx")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	mw.Close()
	return mw.FormDataContentType(), &buf
}

// STYLE §10, UI.md §3: every uploaded workbook is read behind one upload
// gate and within one set of bounds (importers/xlsx): the sheets'
// workbook through the API and the entrant list on the entrants page
// refuse the same files alike.
func TestBothDoorsUploadedWorkbookBounds(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site, page, tok, tid := clubDoors(t, db, "Liste")
		big := append([]byte("PK\x03\x04"), bytes.Repeat([]byte{0}, xlsx.DefaultMaxBytes)...)
		for _, c := range []struct {
			name string
			data []byte
			want int
			says string // on the page, in Italian
		}{
			{"a CSV file renamed .xlsx", []byte("numero;nome;tessera\n1;Rossi Anna;FT123456\n"), http.StatusUnprocessableEntity, "non è una cartella Excel"},
			{"an old .xls file", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...), http.StatusUnprocessableEntity, "non è una cartella Excel"},
			{"a file over the 10 MB bound", big, http.StatusRequestEntityTooLarge, "supera il limite di 10 MB"},
		} {
			ct, body := multipartFile(t, c.data)
			req, _ := http.NewRequest("POST", site.URL+"/v1/tournaments/"+tid+"/imports", bytes.NewReader(body.Bytes()))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", ct)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			req, _ = http.NewRequest("POST", site.URL+"/tournaments/"+tid+"/entrants/upload", bytes.NewReader(body.Bytes()))
			req.Header.Set("Content-Type", ct)
			pageStatus, html := page.Do(req)
			if res.StatusCode != c.want {
				t.Errorf("%s: the API answers %d, want %d", c.name, res.StatusCode, c.want)
			}
			if pageStatus != c.want {
				t.Errorf("%s: the entrants page answers %d, want %d", c.name, pageStatus, c.want)
			}
			if !strings.Contains(html, c.says) {
				t.Errorf("%s: the entrants page does not say %q", c.name, c.says)
			}
		}
	})
}

// RULES §6.3 and §5: a match is over once the hands its round plans are
// in, or after a hand ended on time (time_out); a further hand entered
// one by one is refused — by the API's POST …/sheet/hands with the
// table's code as by the phone's form (app.TableView.CanAdd).
func TestBothDoorsWhenMoreHandsMayBeAdded(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		ctx := context.Background()
		club := app.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "c1"}
		ops, tid := newClubTournament(t, db, "Smazzate")
		seatPairs(t, ops, club, tid, 8)
		links, err := ops.IssueEntryLinks(ctx, club, tid, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		code := map[int]string{}
		for _, l := range links {
			code[l.Table] = l.Code
		}
		hand := func(end domain.HandEnd) domain.Hand {
			return domain.Hand{End: end, Lines: [2]domain.LineScore{{Base: 200, Points: 100}, {Base: 200, Points: 50}}}
		}
		noRedirect := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		for i, c := range []struct {
			name   string
			before []domain.HandEnd // hands entered already
			want   string
		}{
			{"the first hand", nil, "accepted"},
			{"the third of three planned", []domain.HandEnd{domain.EndClosed, domain.EndClosed}, "accepted"},
			{"a fourth of three planned", []domain.HandEnd{domain.EndClosed, domain.EndClosed, domain.EndClosed}, "conflict"},
			{"a hand after a time-out", []domain.HandEnd{domain.EndClosed, domain.EndTimeOut}, "conflict"},
		} {
			apiTable, pageTable := 2*i+1, 2*i+2
			for _, tb := range []int{apiTable, pageTable} {
				for _, end := range c.before {
					if _, err := webtest.AppendHand(ops, ctx, club, tid, 1, tb, hand(end), ""); err != nil {
						t.Fatalf("%s: seed table %d: %v", c.name, tb, err)
					}
				}
			}
			apiStatus, apiBody := apiCall(t, site, code[apiTable], "POST", fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/%d/sheet/hands", tid, apiTable),
				map[string]any{"end": "closed", "ns": map[string]any{"base": 200, "points": 100}, "eo": map[string]any{"base": 200, "points": 50}})
			n := strconv.Itoa(len(c.before))
			form := url.Values{"index": {n}, "round": {"1"}, "hands." + n + ".end": {"closed"},
				"hands." + n + ".ns.base": {"200"}, "hands." + n + ".ns.points": {"100"}, "hands." + n + ".eo.base": {"200"}, "hands." + n + ".eo.points": {"50"}}
			res, err := noRedirect.PostForm(site.URL+"/table/"+code[pageTable], form)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if got := verdict(apiStatus); got != c.want {
				t.Errorf("%s: the API answers %d (%s), want %s: %v", c.name, apiStatus, got, c.want, apiBody)
			}
			if got := verdict(res.StatusCode); got != c.want {
				t.Errorf("%s: the phone's form answers %d (%s), want %s", c.name, res.StatusCode, got, c.want)
			}
			for _, tb := range []int{apiTable, pageTable} {
				v, err := ops.TableSheet(ctx, club, tid, 1, tb)
				if err != nil {
					t.Fatal(err)
				}
				wantHands := len(c.before)
				if c.want == "accepted" {
					wantHands++
				}
				if got := len(v.Sheet.Hands); got != wantHands {
					t.Errorf("%s: table %d holds %d hands, want %d", c.name, tb, got, wantHands)
				}
				if v.CanAdd() != (wantHands < 3 && c.want == "accepted") {
					t.Errorf("%s: table %d offers another hand: %v", c.name, tb, v.CanAdd())
				}
			}
		}
	})
}

// An admin may not disable the person they are signed in as (nobody would
// be left to let them back); another person, or enabling, is fine. The
// API has no route for people: the page and the operation say it.
func TestBothDoorsAnAdminCannotDisableThemselves(t *testing.T) {
	t.Parallel()
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		site := webtest.StartSite(t, db)
		ctx := context.Background()
		pw := site.CreatePerson(t, domain.RoleAdmin, "admin", "")
		site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
		page := webtest.SignInClient(t, site, "admin", pw)
		people, err := db.ListPeople(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		id := map[string]string{}
		for _, p := range people {
			id[p.Name] = p.ID
		}
		ops := app.New(db, nil, slog.New(slog.DiscardHandler))
		me := app.Principal{PersonID: id["admin"], Role: domain.RoleAdmin, Name: "admin"}
		for _, c := range []struct {
			name     string
			who      string
			disabled bool
			want     string
		}{
			{"disable oneself", "admin", true, "invalid"},
			{"disable another person", "anna.rossi", true, "accepted"},
			{"enable another person", "anna.rossi", false, "accepted"},
			{"enable oneself (a no-op)", "admin", false, "accepted"},
		} {
			st, _ := page.Post("/admin/people/"+id[c.who]+"/disabled", url.Values{"disabled": {strconv.FormatBool(c.disabled)}})
			if got := verdict(st); got != c.want {
				t.Errorf("%s: the page answers %d (%s), want %s", c.name, st, got, c.want)
			}
			err := ops.SetDisabled(ctx, me, id[c.who], c.disabled)
			if got := map[bool]string{true: "accepted", false: "invalid"}[err == nil]; got != c.want || (err != nil && !errors.Is(err, app.ErrDisableSelf)) {
				t.Errorf("%s: the operation answers %v, want %s", c.name, err, c.want)
			}
		}
		if _, err := db.CheckPassword(ctx, "admin", pw); err != nil {
			t.Errorf("the admin can no longer sign in: %v", err)
		}
	})
}
