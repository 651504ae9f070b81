package eventtest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.6, FITAB art. 39 ("il torneo sarà invalidato" unless the
// third-to-last round was completed): the referee's page interrupts the
// tournament in a real browser, showing the ruling before applying it. A
// 3-round tournament stopped before round 1 was completed needs round 1
// (3 − 2) completed: void. Round 1 not completed cannot be named as the
// last completed one. PostgreSQL.
func TestBrowserInterruptTournament(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.Postgres(t), "Torneo con la neve", domain.KindPairs, 3, pairEntrants("1", "2"))
	bg, ops, admin, site, pw, db, tr := context.Background(), w.ops, w.admin, w.site, w.pw, w.db, struct{ ID string }{w.tid}
	if _, err := ops.CreateRound(bg, admin, tr.ID, app.RoundInput{Number: 1, Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "2"}}}); err != nil {
		t.Fatal(err)
	}
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	base := site.URL + "/tournaments/" + tr.ID
	webtest.Run(t, ctx, chromedp.Navigate(base), chromedp.Click(chromedp.CSS(`[data-link="interrupt"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-form="interrupt"]`)))
	if v := webtest.FieldValue(t, ctx, `input[name="interrupted_after_round"]`); v != "0" {
		t.Errorf("the form proposes round %q, want 0 (no round completed)", v)
	}
	// Round 1 is being played: not a completed round.
	webtest.SetValue(t, ctx, `input[name="interrupted_after_round"]`, "1")
	webtest.SetValue(t, ctx, `input[name="reason"]`, "nevicata, sala chiusa")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="interrupt-preview"]`)), chromedp.WaitVisible(chromedp.CSS(`#interrupted_after_round-error`)))
	webtest.SetValue(t, ctx, `input[name="interrupted_after_round"]`, "0")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="interrupt-preview"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-ruling]`)))
	if got := webtest.Attr(t, ctx, `[data-ruling]`, "data-ruling"); got != "void" {
		t.Errorf("ruling %q, want void (FITAB art. 39)", got)
	}
	if txt := webtest.Text(t, ctx, `[data-ruling]`); !strings.Contains(txt, "FITAB art. 39") || !strings.Contains(txt, "annullato") {
		t.Errorf("ruling text %q", txt)
	}
	// Nothing is applied by the preview.
	if got, err := db.GetTournament(bg, tr.ID); err != nil || got.InterruptedAfterRound != nil {
		t.Fatalf("the preview interrupted the tournament: %v %v", got.InterruptedAfterRound, err)
	}
	webtest.Screenshot(t, ctx, "interrupt-preview")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="interrupt-apply"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-void="true"]`)))
	if got, err := db.GetTournament(bg, tr.ID); err != nil || got.InterruptedAfterRound == nil || *got.InterruptedAfterRound != 0 || !got.Void() {
		t.Errorf("after applying: %+v %v", got.InterruptedAfterRound, err)
	}
	if n := webtest.Count(t, ctx, `[data-link="interrupt"]`); n != 0 {
		t.Error("an interrupted tournament still offers the interruption")
	}
}

// A round that is not a whole number — letters, or digits beyond any
// integer — is named next to its field (422), never a server error.
func TestInterruptFormRefusesWhatIsNoRound(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.SQLite(t), "Torneo", domain.KindPairs, 3, pairEntrants("1", "2"))
	pc := webtest.SignInClient(t, w.site, "segreteria", w.pw)
	for _, typed := range []string{"abc", "99999999999999999999", ""} {
		for _, action := range []string{"/interrupt/preview", "/interrupt"} {
			st, body := pc.Post("/tournaments/"+w.tid+action, url.Values{"interrupted_after_round": {typed}, "reason": {"neve"}})
			if st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="interrupted_after_round-error"`) {
				t.Errorf("POST %s with %q: %d, want 422 naming the field", action, typed, st)
			}
		}
	}
}
