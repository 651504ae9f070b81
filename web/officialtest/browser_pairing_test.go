package officialtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// The "genera turno" page (UI.md §3, RULES §11): a club secretary of a
// club-level tournament draws round 1, sees the preview, publishes it;
// danese_modificato for round 2 is refused under fitab-2025 with the
// article, next to the select. PostgreSQL.
func TestBrowserGenerateRound(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	ctx0 := context.Background()
	tr, err := site.Store.CreateTournament(ctx0, domain.Tournament{Name: "Coppa Autunno", Date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC),
		ClubID: "bc-roma", Level: domain.LevelClub, Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: 4, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	surnames := []string{"Rossi", "Bianchi", "Greco", "De Luca", "Longo", "Fontana", "Conti", "Marino", "Ricci", "Gallo", "Costa", "Bruno", "Rizzo", "Moretti", "Lombardi", "Barbieri"}
	var es []domain.Entrant
	for i := range 8 {
		es = append(es, domain.Entrant{ID: fmt.Sprint(i + 1), Players: []domain.Player{{Name: surnames[2*i] + " Anna"}, {Name: surnames[2*i+1] + " Luca"}}})
	}
	if err := site.Store.AddEntrants(ctx0, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	page := site.URL + "/tournaments/" + tr.ID + "/rounds/generate"
	webtest.Run(t, ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`form[data-form="generate"]`)))
	if v := webtest.Attr(t, ctx, `select[name="system"] option[selected]`, "value"); v != "draw" {
		t.Errorf("round 1 preselects %q, want draw", v)
	}
	webtest.Screenshot(t, ctx, "pairing-generate")
	webtest.CheckA11y(t, ctx)

	// Generate: the preview shows four tables and the seed, not yet published.
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="generate"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-proposed-round="1"]`)),
	)
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelectorAll('[data-proposed-round="1"] tr[data-table]').length`))
	if err != nil || rows != 4 {
		t.Errorf("preview has %v tables (%v), want 4", rows, err)
	}
	if seed := webtest.Attr(t, ctx, `[data-seed]`, "data-seed"); seed == "" {
		t.Error("the draw's seed is not shown")
	}
	if msg := webtest.Text(t, ctx, `[role="status"]`); !strings.Contains(msg, "Proposta generata") {
		t.Errorf("announced %q", msg)
	}
	if _, err := site.Store.GetRound(ctx0, tr.ID, 1); err == nil {
		t.Error("round 1 is a round of the tournament before it is published")
	}
	webtest.Screenshot(t, ctx, "pairing-preview")
	webtest.CheckA11y(t, ctx)

	// Publish.
	webtest.Run(t, ctx,
		chromedp.Click(chromedp.CSS(`[data-action="publish"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-message="pairing.published"]`)),
	)
	r1, err := site.Store.GetRound(ctx0, tr.ID, 1)
	if err != nil || r1.State != domain.RoundPlaying || r1.System != domain.SystemDraw || r1.Seed == nil || len(r1.Tables) != 4 {
		t.Fatalf("published round 1: %+v, %v", r1, err)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelectorAll('[data-proposed-round]').length`)); n != 0 {
		t.Errorf("%v proposals still shown after publishing", n)
	}
	if v := webtest.Attr(t, ctx, `input[name="number"]`, "value"); v != "2" {
		t.Errorf("next round offered %q, want 2", v)
	}

	// danese_modificato under fitab-2025: refused next to the select, citing the article.
	webtest.Run(t, ctx,
		webtest.JS(`document.querySelector('select[name="system"]').value = "danese_modificato"`),
		chromedp.Click(chromedp.CSS(`[data-action="generate"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#gen-system-error`)),
	)
	if inv := webtest.Attr(t, ctx, `select[name="system"]`, "aria-invalid"); inv != "true" {
		t.Errorf("system aria-invalid=%q", inv)
	}
	if d := webtest.Attr(t, ctx, `select[name="system"]`, "aria-describedby"); !strings.Contains(d, "gen-system-error") {
		t.Errorf("system aria-describedby=%q", d)
	}
	if msg := webtest.Text(t, ctx, "#gen-system-error"); !strings.Contains(msg, "FITAB art. 2") {
		t.Errorf("refusal %q does not cite FITAB art. 2", msg)
	}
	if msg := webtest.Text(t, ctx, `[role="alert"]`); msg == "" {
		t.Error("the refusal is not announced")
	}
	webtest.Screenshot(t, ctx, "pairing-refused")
	webtest.CheckA11y(t, ctx)
}
