package officialtest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

var (
	postForm    = regexp.MustCompile(`(?s)<form method="post" action="([^"]+)"[^>]*data-form="([a-z-]+)"(.*?)</form>`)
	hiddenInput = regexp.MustCompile(`<input type="hidden" name="([^"]+)" value="([^"]*)">`)
	correctLink = regexp.MustCompile(`href="([^"]+/correct)" data-action="correct"`)
)

// The pages never offer an action the operations would refuse (UI.md §1):
// for each role, every form and action link of the referee's and the
// federation's pages is either absent or succeeds when used.
func TestRefereePagesOfferOnlyAllowedActions(t *testing.T) {
	roles := []struct {
		name     string
		role     domain.Role
		club     string
		assigned bool
		judge    bool // may correct and move rounds (Access.Judge)
		reads    bool // may read the tournament
		fed      bool // the federation desk
	}{
		{"club", domain.RoleClub, "c1", false, false, true, false}, // provincial: the club does not judge
		{"referee not assigned", domain.RoleReferee, "", false, false, false, false},
		{"referee assigned", domain.RoleReferee, "", true, true, true, false},
		{"federation", domain.RoleFederation, "", false, false, true, true},
		{"admin", domain.RoleAdmin, "", false, true, true, true},
	}
	for _, r := range roles {
		t.Run(r.name, func(t *testing.T) {
			site := webtest.StartSite(t, dbtest.SQLite(t))
			w := newRefereeWorld(t, site.Store, "fitab-2025", false)
			name := "p." + strings.ReplaceAll(r.name, " ", "")
			if r.assigned {
				name = "anna.rossi"
			}
			pw := site.CreatePerson(t, r.role, name, r.club)
			pc := webtest.SignInClient(t, site, name, pw)
			T := "/tournaments/" + w.tid

			// Review queue: readable by who reads; "correct" offered to judges only.
			st, body := pc.Get(T + "/review")
			if !r.reads {
				if st != http.StatusNotFound {
					t.Errorf("review: %d, want 404 for who may not read", st)
				}
			} else {
				if st != http.StatusOK {
					t.Fatalf("review: %d", st)
				}
				// The htmx poll gets the queue alone, without the layout.
				req, _ := http.NewRequest("GET", pc.Base+T+"/review", nil)
				req.Header.Set("HX-Request", "true")
				if st, frag := pc.Do(req); st != http.StatusOK || strings.Contains(frag, "<html") || !strings.Contains(frag, `id="review-queue"`) {
					t.Errorf("review poll: %d, fragment %.80q", st, frag)
				}
				controls := regexp.MustCompile(`href="([^"]+/control)" data-action="round-control"`).FindAllStringSubmatch(body, -1)
				if r.judge != (len(controls) > 0) {
					t.Errorf("review offers %d round-control links, judge=%v", len(controls), r.judge)
				}
				for _, l := range controls {
					if st, _ := pc.Get(l[1]); st != http.StatusOK {
						t.Errorf("offered %s: %d", l[1], st)
					}
				}
				links := correctLink.FindAllStringSubmatch(body, -1)
				if r.judge != (len(links) > 0) {
					t.Errorf("review offers %d correct links, judge=%v", len(links), r.judge)
				}
				for _, l := range links {
					if st, _ := pc.Get(l[1]); st != http.StatusOK {
						t.Errorf("offered %s: %d", l[1], st)
					}
				}
			}

			// The correction desk: its forms work for judges; others get none.
			st, body = pc.Get(T + "/rounds/1/tables/1/correct")
			if !r.judge {
				if st != http.StatusForbidden && st != http.StatusNotFound {
					t.Errorf("correct page: %d for a role that may not correct", st)
				}
				if postForm.MatchString(body) {
					t.Error("a refused page offers a form")
				}
				// Posting anyway is refused by the operation.
				if st, _ := pc.Post(T+"/rounds/1/tables/1/correct", url.Values{"kind": {"sum"}, "reason": {"x"}, "version": {"1"}, "hands.0.ns.total": {"500"}}); st != http.StatusForbidden && st != http.StatusNotFound {
					t.Errorf("posting a correction: %d, want 403/404", st)
				}
			} else {
				if st != http.StatusOK {
					t.Fatalf("correct page: %d", st)
				}
				m := postForm.FindStringSubmatch(body)
				if m == nil || m[2] != "correction" {
					t.Fatal("the correction form is not offered")
				}
				st, prev := pc.Post(m[1], url.Values{"kind": {"sum"}, "reason": {"somma"}, "version": {"1"}, "hands.0.ns.total": {"500"}})
				if st != http.StatusOK || !strings.Contains(prev, `data-preview="true"`) {
					t.Fatalf("preview: %d", st)
				}
				cm := postForm.FindAllStringSubmatch(prev, -1)
				var confirm []string
				for _, f := range cm {
					if f[2] == "confirm-correction" {
						confirm = f
					}
				}
				if confirm == nil {
					t.Fatal("no confirm form after the preview")
				}
				v := url.Values{}
				for _, h := range hiddenInput.FindAllStringSubmatch(confirm[3], -1) {
					v.Add(h[1], h[2])
				}
				if st, _ := pc.Post(confirm[1], v); st != http.StatusSeeOther {
					t.Errorf("confirm: %d, want 303", st)
				}
			}

			// Round control: every state button offered moves the round.
			st, body = pc.Get(T + "/rounds/1/control")
			if !r.judge {
				if st != http.StatusForbidden && st != http.StatusNotFound {
					t.Errorf("round control: %d for a role that may not move rounds", st)
				}
				if st, _ := pc.Post(T+"/rounds/1/control", url.Values{"state": {"standings_published"}}); st != http.StatusForbidden && st != http.StatusNotFound {
					t.Errorf("posting a state: %d, want 403/404", st)
				}
			} else {
				if st != http.StatusOK {
					t.Fatalf("round control: %d", st)
				}
				forms := postForm.FindAllStringSubmatch(body, -1)
				if len(forms) == 0 {
					t.Fatal("no state button offered for a delivered round")
				}
				// The last button first: each offered move is forward from now.
				f := forms[0]
				v := url.Values{}
				for _, h := range hiddenInput.FindAllStringSubmatch(f[3], -1) {
					v.Add(h[1], h[2])
				}
				if st, _ := pc.Post(f[1], v); st != http.StatusSeeOther {
					t.Errorf("state %v: %d", v, st)
				}
			}

			// Lists: corrections and adjustments read like the tournament.
			for _, path := range []string{T + "/corrections", T + "/adjustments"} {
				st, _ := pc.Get(path)
				if r.reads != (st == http.StatusOK) {
					t.Errorf("%s: %d (reads=%v)", path, st, r.reads)
				}
			}

			// The federation desk and its downloads.
			st, body = pc.Get("/federation")
			if r.fed != (st == http.StatusOK) {
				t.Fatalf("/federation: %d (fed=%v)", st, r.fed)
			}
			if r.fed {
				for _, l := range regexp.MustCompile(`href="(/federation/tournaments/[^"]+)"`).FindAllStringSubmatch(body, -1) {
					if st, _ := pc.Get(l[1]); st != http.StatusOK {
						t.Errorf("download %s: %d", l[1], st)
					}
				}
				if st, _ := pc.Get("/federation/season?season=2026&club=c1&level=provincial"); st != http.StatusOK {
					t.Errorf("season workbook: %d", st)
				}
			} else if st, _ := pc.Get("/federation/season?season=2026"); st == http.StatusOK {
				t.Error("the season workbook is served to a role that may not have it")
			}
			// The navigation offers the desk exactly to who may open it.
			_, home := pc.Get(T + "/corrections")
			if r.reads && r.fed != strings.Contains(home, `href="/federation"`) {
				t.Errorf("navigation link to /federation: fed=%v", r.fed)
			}
		})
	}
}

// refereeAtTableOne is a referee world on the embedded database with its
// referee signed in, and the correction path of round 1, table 1.
func refereeAtTableOne(t *testing.T) (refereeWorld, *webtest.PageClient, string) {
	t.Helper()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	pw := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	return w, webtest.SignInClient(t, site, "anna.rossi", pw), "/tournaments/" + w.tid + "/rounds/1/tables/1/correct"
}

// Bad input to the correction form is a 422 naming the field next to
// its input (aria-invalid, aria-describedby), never a 500, and nothing is
// written.
func TestRefereeCorrectionFormRefusesBadInput(t *testing.T) {
	w, pc, path := refereeAtTableOne(t)
	for _, tc := range []struct {
		name  string
		form  url.Values
		field string
	}{
		{"unknown kind", url.Values{"kind": {"guess"}, "reason": {"x"}, "version": {"1"}, "hands.0.ns.total": {"500"}}, "kind"},
		{"no reason", url.Values{"kind": {"sum"}, "version": {"1"}, "hands.0.ns.total": {"500"}}, "reason"},
		{"not a number", url.Values{"kind": {"sum"}, "reason": {"x"}, "version": {"1"}, "hands.0.ns.total": {"5oo"}}, "hands.0.ns.total"},
		{"a base emptied", url.Values{"kind": {"sum"}, "reason": {"x"}, "version": {"1"}, "hands.0.ns.base": {""}}, "hands.0.ns.base"},
	} {
		for _, action := range []string{path + "/preview", path} {
			st, body := pc.Post(action, tc.form)
			if st != http.StatusUnprocessableEntity {
				t.Errorf("%s → %s: %d, want 422", tc.name, action, st)
				continue
			}
			id := regexp.QuoteMeta(`f-` + tc.field)
			re := regexp.MustCompile(`id="` + id + `"[^>]*aria-invalid="true" aria-describedby="e-` + regexp.QuoteMeta(tc.field) + `"`)
			if !re.MatchString(body) || !strings.Contains(body, `id="e-`+tc.field+`"`) {
				t.Errorf("%s: the field %s is not marked with its message", tc.name, tc.field)
			}
		}
	}
	if st, _ := pc.Post(path, url.Values{"kind": {"sum"}, "reason": {"x"}, "version": {"1"}}); st != http.StatusUnprocessableEntity {
		t.Errorf("a correction changing nothing: %d, want 422", st)
	}
	v, err := w.ops.Sheet(t.Context(), refereeP, w.tid, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v.Stored.Version != 1 || len(v.Corrections) != 0 {
		t.Errorf("bad input wrote something: version %d, %d corrections", v.Stored.Version, len(v.Corrections))
	}
}

// A running total written wrong is a sum error on the sheet (FITAB art.
// 20): the correction form offers each hand's running total beside the
// computed one, and applying a corrected one stores it.
func TestRefereeCorrectsARunningTotal(t *testing.T) {
	w, pc, path := refereeAtTableOne(t)
	_, page := pc.Get(path)
	if !strings.Contains(page, `name="hands.0.ns.running_total"`) || !strings.Contains(page, `data-computed="hands.0.ns.running_total"`) {
		t.Fatal("the correction form has no running total with its computed value")
	}
	form := url.Values{"kind": {"sum"}, "reason": {"progressivo risommato"}, "version": {"1"}, "hands.0.ns.running_total": {"123"}}
	if st, body := pc.Post(path+"/preview", form); st != http.StatusOK {
		t.Fatalf("preview of a running-total correction: %d\n%.400s", st, body)
	}
	if st, _ := pc.Post(path, form); st != http.StatusSeeOther && st != http.StatusOK {
		t.Fatalf("applying it: %d", st)
	}
	v, err := w.ops.Sheet(t.Context(), refereeP, w.tid, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Stored.Sheet.Hands[0].Lines[domain.NS].RunningTotal; len(v.Corrections) != 1 || got == nil || *got != 123 {
		t.Errorf("after the correction: running total %v, %d corrections; want 123 and one", got, len(v.Corrections))
	}
}
