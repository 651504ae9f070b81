package browsertest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"segnapunti/web/webtest"
	"strconv"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// UI.md §9, FITAB art. 15: the secretary starts the round's
// clock (15 minutes a planned hand by default); the phone shows
// [data-clock] with data-remaining and learns when time is called
// (data-time-called="true"); a hand sent afterwards is marked.
func TestRoundClockOnPages(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	club, tid := tableWorld(t, site)
	if _, err := db.CreatePerson(context.Background(), "segreteria.uno", domain.RoleClub, "c1", "segreta-123"); err != nil {
		t.Fatal(err)
	}
	pc := webtest.SignInClient(t, site, "segreteria.uno", "segreta-123")
	code := entryCode(t, site, club, tid)
	phone := func() string {
		_, body := site.Send(t, "GET", "/table/"+code, nil)
		return body
	}
	if strings.Contains(phone(), "data-clock") {
		t.Error("a clock shown before it was started")
	}
	if st, _ := pc.Post("/tournaments/"+tid+"/rounds/1/clock", url.Values{"minutes": {"mille"}}); st != http.StatusUnprocessableEntity && st != http.StatusBadRequest {
		t.Errorf("a word for the minutes: %d, want a refusal", st)
	}
	if st, _ := pc.Post("/tournaments/"+tid+"/rounds/1/clock", url.Values{"minutes": {""}}); st != http.StatusSeeOther {
		t.Fatalf("start the clock: %d", st)
	}
	remaining := regexp.MustCompile(`data-clock data-running="true" data-remaining="(\d+)"`)
	m := remaining.FindStringSubmatch(phone())
	if m == nil {
		t.Fatal("the phone shows no running clock")
	}
	if n, _ := strconv.Atoi(m[1]); n > 45*60 || n < 45*60-10 {
		t.Errorf("data-remaining %s, want about 45 minutes (3 hands × 15)", m[1])
	}
	if _, page := pc.Get("/tournaments/" + tid + "/rounds/1"); !remaining.MatchString(page) || !strings.Contains(page, `data-action="call-time"`) {
		t.Error("the round page shows no running clock or no way to call time")
	}
	if st, _ := pc.Post("/tournaments/"+tid+"/rounds/1/clock/call", url.Values{}); st != http.StatusSeeOther {
		t.Fatalf("call time: %d", st)
	}
	res, err := http.Get(site.URL + "/table/" + code + "/clock")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Running    bool `json:"running"`
		Remaining  int  `json:"remaining"`
		TimeCalled bool `json:"time_called"`
	}
	json.NewDecoder(res.Body).Decode(&c)
	res.Body.Close()
	if !c.Running || !c.TimeCalled || c.Remaining != 0 {
		t.Errorf("the phone's clock poll: %+v, want time called", c)
	}
	hand := url.Values{"index": {"0"}, "idem": {"k"}, "round": {"1"}, "hands.0.ns.base": {"300"}, "hands.0.ns.points": {"235"},
		"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"-120"}, "hands.0.end": {"time_out"}}
	req, _ := http.NewRequest("POST", site.URL+"/table/"+code, strings.NewReader(hand.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if res, err = http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	page := phone()
	if !strings.Contains(page, `data-time-called="true"`) || !strings.Contains(page, `data-hand="1" data-late="true"`) {
		t.Error("after time was called the phone does not say so, or the hand sent afterwards is not marked")
	}
}

// UI.md §9: the venue screen carries [data-clock], and its never-cached
// /p/{tid}/clock says what remains and whether time was called.
func TestVenueScreenClock(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	club, tid := tableWorld(t, site)
	apiCall(t, site, "PATCH", "/v1/tournaments/"+tid, club, map[string]any{"public": true}, 200)
	res, err := http.Get(site.URL + "/p/" + tid + "/screen")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(b), `data-clock data-running="false"`) || !strings.Contains(string(b), `data-clock-url="/p/`+tid+`/clock"`) {
		t.Errorf("the venue screen has no [data-clock] asking /p/%s/clock", tid)
	}
	if _, err := db.StartClock(context.Background(), tid, 1, 30, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.CallTime(context.Background(), tid, 1); err != nil {
		t.Fatal(err)
	}
	res, err = http.Get(site.URL + "/p/" + tid + "/clock")
	if err != nil {
		t.Fatal(err)
	}
	var c map[string]any
	json.NewDecoder(res.Body).Decode(&c)
	res.Body.Close()
	if res.Header.Get("Cache-Control") != "no-store" || c["round"] != float64(1) || c["running"] != true || c["time_called"] != true {
		t.Errorf("the screen's clock: %v (Cache-Control %q)", c, res.Header.Get("Cache-Control"))
	}
}
