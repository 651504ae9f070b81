package officialtest

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// adjustmentRow finds a row of the adjustments list by entrant and reason:
// its id, its effect cell.
var adjustmentRow = regexp.MustCompile(`(?s)<tr id="adjustment-(\d+)" data-adjustment="\d+" data-entrant="([^"]+)" data-reason="([a-z_0-9]+)"[^>]*>.*?<td data-col="effect"[^>]*>(.*?)</td>\s*<td data-col="rank"[^>]*>([^<]*)</td>`)

// The referee makes adjustments from the page (UI.md §4, RULES §7): a
// second warning costs 1 VP (FITAB art. 21), shown with its effect; a
// referee score without a note is refused naming the note field; a club
// person at a provincial tournament is offered no form and refused.
func TestAdjustmentPage(t *testing.T) {
	site := webtest.StartSite(t, dbtest.Postgres(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	ref := webtest.SignInClient(t, site, "anna.rossi", site.CreatePerson(t, domain.RoleReferee, "anna.rossi", ""))
	T := "/tournaments/" + w.tid + "/adjustments"

	st, body := ref.Get(T)
	if st != http.StatusOK || !strings.Contains(body, `data-form="adjustment"`) {
		t.Fatalf("referee: %d, form offered %v", st, strings.Contains(body, `data-form="adjustment"`))
	}
	for _, id := range []string{"warning", "late_up_to_5", "late_5_to_10", "late_over_10", "bye", "abandon_temporary",
		"abandon_justified", "abandon_unjustified", "forced_removal", "late_start", "referee_score"} {
		if !strings.Contains(body, `<option value="`+id+`"`) {
			t.Errorf("reason %s not offered", id)
		}
	}
	if !strings.Contains(body, `<option value="1">n. 1 — Rossi c11 – Bianchi c11</option>`) {
		t.Error("the entrant select does not name the entrants")
	}

	warn := url.Values{"entrant": {"1"}, "round": {""}, "reason": {"warning"}, "note": {"parla durante il gioco"}}
	var loc string
	for i := range 2 {
		req, _ := http.NewRequest("POST", ref.Base+T, strings.NewReader(warn.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := ref.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("warning %d: %d, want 303", i+1, res.StatusCode)
		}
		loc = res.Header.Get("Location")
	}
	st, body = ref.Get(loc)
	if st != http.StatusOK || !strings.Contains(body, `data-message="adjust.created"`) {
		t.Fatalf("after saving: %d, no message", st)
	}
	rows := adjustmentRow.FindAllStringSubmatch(body, -1)
	if len(rows) != 2 {
		t.Fatalf("%d adjustments listed, want 2", len(rows))
	}
	if strings.Contains(rows[0][4], `data-col="vp"`) {
		t.Errorf("the first warning has a score: %s", rows[0][4])
	}
	if !strings.Contains(rows[1][4], `<span data-col="vp">-1 VP</span>`) || !strings.Contains(rows[1][4], "vale come ammonizione") {
		t.Errorf("the second warning's effect: %s, want −1 VP (FITAB art. 21)", rows[1][4])
	}
	if !strings.Contains(loc, "created="+rows[1][1]) || !strings.Contains(body, `id="adjustment-`+rows[1][1]+`" data-adjustment="`+rows[1][1]+`" data-entrant="1" data-reason="warning" data-created="true"`) {
		t.Errorf("the new adjustment is not the one highlighted (location %s)", loc)
	}
	if rank := rows[1][5]; !strings.Contains(rank, "→") {
		t.Errorf("rank change %q", rank)
	}

	// referee_score without a note: 422, the note field marked, nothing stored.
	st, body = ref.Post(T, url.Values{"entrant": {"2"}, "reason": {"referee_score"}, "vp": {"-2"}, "mp": {"-50"}, "note": {"  "}})
	if st != http.StatusUnprocessableEntity {
		t.Fatalf("referee_score without note: %d, want 422", st)
	}
	if !regexp.MustCompile(`<textarea id="adj-note" name="note"[^>]*aria-describedby="adj-note-error adj-note-hint" aria-invalid="true"`).MatchString(body) ||
		!strings.Contains(body, `id="adj-note-error"`) || !strings.Contains(body, "Scrivi la nota") {
		t.Error("the refusal does not mark the note field")
	}
	if !strings.Contains(body, `role="alert" aria-live="assertive"><p class="error" data-error="adjust.not_saved"`) {
		t.Error("the refusal is not announced")
	}
	if !strings.Contains(body, `<option value="2" selected>`) || !strings.Contains(body, `value="-50"`) {
		t.Error("what was typed is not shown again")
	}
	if n := len(adjustmentRow.FindAllStringSubmatch(body, -1)); n != 2 {
		t.Errorf("%d adjustments after the refusal, want 2", n)
	}
	// A lateness without a round: the round field is marked.
	if st, body = ref.Post(T, url.Values{"entrant": {"2"}, "reason": {"late_up_to_5"}}); st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="adj-round-error"`) {
		t.Errorf("lateness without round: %d, round marked %v", st, strings.Contains(body, `id="adj-round-error"`))
	}
	// A reason that does not exist is refused on the reason field.
	if st, body = ref.Post(T, url.Values{"entrant": {"2"}, "reason": {"drop_table"}}); st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="adj-reason-error"`) {
		t.Errorf("unknown reason: %d, reason marked %v", st, strings.Contains(body, `id="adj-reason-error"`))
	}

	// The organising club at a provincial tournament reads, does not adjust.
	club := webtest.SignInClient(t, site, "segr.c1", site.CreatePerson(t, domain.RoleClub, "segr.c1", "c1"))
	st, body = club.Get(T)
	if st != http.StatusOK || strings.Contains(body, `data-form="adjustment"`) || strings.Contains(body, `name="reason"`) {
		t.Errorf("club: %d, form offered %v", st, strings.Contains(body, `data-form="adjustment"`))
	}
	if st, _ = club.Post(T, warn); st != http.StatusForbidden {
		t.Errorf("club posting an adjustment: %d, want 403", st)
	}
	list, err := w.ops.Adjustments(t.Context(), refereeP, w.tid)
	if err != nil || len(list) != 2 {
		t.Errorf("%d adjustments stored (%v), want 2", len(list), err)
	}
}

// The referee fills the form in a browser: a referee score with its note
// lands in the list with its effect.
func TestAdjustmentPageBrowser(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	pw := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "anna.rossi", pw)
	T := site.URL + "/tournaments/" + w.tid + "/adjustments"
	webtest.Run(t, ctx, chromedp.Navigate(T), chromedp.WaitVisible(chromedp.CSS(`form[data-form="adjustment"]`)))

	// Without the note first: the error is shown next to the field.
	webtest.Run(t, ctx,
		webtest.JS(`document.querySelector('#adj-entrant').value='3'`),
		webtest.JS(`document.querySelector('#adj-reason').value='referee_score'`),
		chromedp.SendKeys(chromedp.CSS(`#adj-vp`), "-2"),
		chromedp.SendKeys(chromedp.CSS(`#adj-mp`), "-40"),
		chromedp.Click(chromedp.CSS(`[data-action="create-adjustment"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#adj-note-error`)),
	)
	if got := webtest.Attr(t, ctx, `#adj-note`, "aria-invalid"); got != "true" {
		t.Errorf("note aria-invalid %q", got)
	}
	webtest.CheckA11y(t, ctx)
	webtest.Screenshot(t, ctx, "adjustments-refused")

	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#adj-note`), "gioco lento ripetuto"),
		chromedp.Click(chromedp.CSS(`[data-action="create-adjustment"]`)),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-created="true"]`)),
	)
	if got := webtest.Text(t, ctx, `tr[data-created="true"] [data-col="effect"]`); !strings.Contains(got, "-2 VP") || !strings.Contains(got, "-40 MP") {
		t.Errorf("effect %q, want -2 VP, -40 MP", got)
	}
	if got := webtest.Attr(t, ctx, `tr[data-created="true"]`, "data-reason"); got != "referee_score" {
		t.Errorf("reason %q", got)
	}
	webtest.CheckA11y(t, ctx)
	webtest.Screenshot(t, ctx, "adjustments")
}
