package officialtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// evalString runs a script in the page and returns its string value.
func evalString(t testing.TB, ctx context.Context, expr string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		t.Fatalf("evaluate %s: %v", expr, err)
	}
	return s
}

// fillCorrection fills the correction form: kind, reason and values.
func fillCorrection(t testing.TB, ctx context.Context, kind, reason string, values map[string]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(`(()=>{const f=document.querySelector('form[data-form="correction"]');`)
	set := func(name, v string) {
		b.WriteString(`f.elements[` + jsString(name) + `].value=` + jsString(v) + `;`)
	}
	set("kind", kind)
	set("reason", reason)
	for k, v := range values {
		set(k, v)
	}
	b.WriteString(`})()`)
	webtest.Run(t, ctx, webtest.JS(b.String()))
}

func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// UI.md §4, RULES §9.1 rule 6: a referee opens the queue, finds the sum
// error of round 1 table 1, corrects it in a danese phase after the next
// seating was published and, BEFORE anything is written, sees "applied,
// pairing kept", the standings before → after and the tables of round 2
// the corrected standings would have seated differently; confirming
// records it in the trail and corrects the sheet. PostgreSQL.
func TestRefereeCorrectsSumKeepingThePairing(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", true)
	pw := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "anna.rossi", pw)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+w.tid+"/review"), chromedp.WaitVisible(chromedp.CSS(`[data-list="review"]`)))
	first := `#review-queue article:first-of-type`
	if r, tb, worst := webtest.Attr(t, ctx, first, "data-round"), webtest.Attr(t, ctx, first, "data-table"), webtest.Attr(t, ctx, first, "data-worst"); r != "1" || tb != "1" || worst != "error" {
		t.Fatalf("first in the queue: round %s table %s worst %s, want round 1 table 1 error", r, tb, worst)
	}
	if sev := webtest.Attr(t, ctx, first+` [data-code="HAND_TOTAL_MISMATCH"]`, "data-severity"); sev != "error" {
		t.Errorf("HAND_TOTAL_MISMATCH severity %q", sev)
	}
	if got := webtest.Text(t, ctx, first+` [data-code="HAND_TOTAL_MISMATCH"]`); !strings.Contains(got, "FITAB art.") {
		t.Errorf("the finding does not cite its article: %q", got)
	}
	if n := evalString(t, ctx, `String(document.querySelectorAll('#review-queue [hx-trigger*="every"], #review-queue[hx-trigger*="every"]').length)`); n == "0" {
		t.Error("the queue does not update itself")
	}
	webtest.Screenshot(t, ctx, "referee-review")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(first+` [data-action="correct"]`)), chromedp.WaitVisible(chromedp.CSS(`form[data-form="correction"]`)))
	wrong := `input[name="hands.0.ns.total"]`
	if webtest.Attr(t, ctx, wrong, "aria-invalid") != "true" {
		t.Error("the wrong cell hands.0.ns.total is not aria-invalid")
	}
	if d := webtest.Attr(t, ctx, wrong, "aria-describedby"); d == "" || !strings.Contains(webtest.Text(t, ctx, "#"+strings.ReplaceAll(d, ".", `\.`)), "errato") {
		t.Errorf("the wrong cell does not point at a visible mark (aria-describedby %q)", d)
	}
	if webtest.Attr(t, ctx, `input[name="hands.1.ns.total"]`, "aria-invalid") == "true" {
		t.Error("a right cell is marked wrong")
	}
	webtest.Screenshot(t, ctx, "referee-correct")
	webtest.CheckA11y(t, ctx)

	// The sum was wrong and, on the referee's recount, so were EO's points:
	// 2 wins the match instead of losing it.
	fillCorrection(t, ctx, "sum", "somma errata alla prima mano", map[string]string{
		"hands.0.ns.total": "500", "hands.0.eo.points": "600", "hands.1.eo.points": "600", "hands.2.eo.points": "600"})
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="preview-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-preview]`)))
	if r := webtest.Attr(t, ctx, `[data-preview]`, "data-ruling"); r != "apply_keep_pairing" {
		t.Fatalf("ruling %q, want apply_keep_pairing (FITAB art. 20: positions of round 2 published)", r)
	}
	if got := webtest.Text(t, ctx, `[data-field="ruling"]`); got != "Correzione accolta, accoppiamenti invariati" {
		t.Errorf("ruling shown as %q", got)
	}
	if got := evalString(t, ctx, `[...document.querySelectorAll('[data-rule]')].map(e=>e.dataset.rule).join(',')`); !strings.Contains(got, "FITAB art. 20") {
		t.Errorf("rules %q, want FITAB art. 20", got)
	}
	if webtest.Text(t, ctx, `[data-field="ruling-reason"]`) == "" {
		t.Error("no reason for the ruling")
	}
	// Before: 1 beat 2 by 600 (3 hands); after: 2 beat 1. Entrant 2 climbs.
	if got := webtest.Text(t, ctx, `[data-list="standings-diff"] tr[data-entrant="2"] [data-col="rank"]`); got == "" || strings.HasPrefix(got, "4 → 4") {
		t.Errorf("entrant 2's rank %q: want a change", got)
	}
	if webtest.Attr(t, ctx, `[data-list="standings-diff"] tr[data-entrant="2"]`, "data-changed") != "true" {
		t.Error("entrant 2 not marked changed")
	}
	if n := evalString(t, ctx, `String(document.querySelectorAll('[data-seating="changed"] li').length)`); n == "0" {
		t.Errorf("no round-2 table listed as seated differently: %s", evalString(t, ctx, `document.querySelector('[data-preview]').innerText`))
	}
	if v, _ := w.ops.Sheet(context.Background(), refereeP, w.tid, 1, 1); v.Stored.Version != 1 || v.Stored.Sheet.Hands[0].Lines[domain.EO].Points != 100 {
		t.Fatalf("the preview wrote the sheet: version %d", v.Stored.Version)
	}
	// RULES §8: an applied sum correction makes the official result what
	// the corrected sheet adds up to; the preview shows it before saving:
	// 1 (NS) won, now loses — below 10 VP, EO above.
	previewVP := map[string]string{}
	for _, l := range []string{"ns", "eo"} {
		row := `[data-list="official-result"] tr[data-line="` + l + `"]`
		if webtest.Attr(t, ctx, row, "data-changed") != "true" {
			t.Errorf("official result of %s not marked changed", l)
		}
		previewVP[l] = webtest.Text(t, ctx, row+` [data-col="vp"]`)
	}
	var nsBefore, nsAfter, eoBefore, eoAfter int
	if _, err := fmt.Sscanf(previewVP["ns"], "%d → %d", &nsBefore, &nsAfter); err != nil || nsBefore <= 10 || nsAfter >= 10 {
		t.Errorf("NS official VP shown %q: want a win turned into a loss", previewVP["ns"])
	}
	if _, err := fmt.Sscanf(previewVP["eo"], "%d → %d", &eoBefore, &eoAfter); err != nil || eoAfter <= 10 {
		t.Errorf("EO official VP shown %q", previewVP["eo"])
	}
	webtest.Screenshot(t, ctx, "referee-preview")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="confirm-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-correction]`)))
	// What was shown is what was saved.
	if v, err := w.ops.Sheet(context.Background(), refereeP, w.tid, 1, 1); err == nil {
		om := domain.OfficialResult(v.Stored.Sheet, domain.Validate(v.Stored.Sheet))
		if got := [2]int{om.Lines[domain.NS].Official.VP, om.Lines[domain.EO].Official.VP}; got != [2]int{nsAfter, eoAfter} {
			t.Errorf("saved official VP %v, the preview showed %d–%d", got, nsAfter, eoAfter)
		}
	}
	if u := webtest.Location(t, ctx); !strings.Contains(u, "/corrections") {
		t.Fatalf("after confirming: %s", u)
	}
	if a, r := webtest.Attr(t, ctx, `[data-correction]`, "data-applied"), webtest.Attr(t, ctx, `[data-correction]`, "data-ruling"); a != "true" || r != "apply_keep_pairing" {
		t.Errorf("trail entry applied=%s ruling=%s", a, r)
	}
	if got := webtest.Text(t, ctx, `[data-correction] [data-field="author"]`); !strings.Contains(got, "anna.rossi") {
		t.Errorf("author %q", got)
	}
	if got := webtest.Text(t, ctx, `[data-correction] [data-figure="hands.0.eo.points"]`); !strings.Contains(got, "100 → 600") {
		t.Errorf("figures before → after %q", got)
	}
	v, err := w.ops.Sheet(context.Background(), refereeP, w.tid, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if v.Stored.Sheet.Hands[0].Lines[domain.EO].Points != 600 || *v.Stored.Sheet.Hands[0].Lines[domain.NS].Total != 500 {
		t.Errorf("sheet not corrected: %+v", v.Stored.Sheet.Hands[0])
	}
	webtest.Screenshot(t, ctx, "referee-corrections")
	webtest.CheckA11y(t, ctx)
}

// RULES §9.2 rule 2: under FIBur an inversion without both lines'
// acknowledgement is refused, and the preview says so with the article;
// recording the refusal leaves the sheet as it was. SQLite.
func TestRefereeInversionFIBurRefused(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	w := newRefereeWorld(t, site.Store, "fibur-ita", false)
	pw := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "anna.rossi", pw)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+w.tid+"/rounds/1/tables/2/correct"), chromedp.WaitVisible(chromedp.CSS(`form[data-form="correction"]`)))
	fillCorrection(t, ctx, "inversion", "punteggi invertiti tra le linee", map[string]string{
		"hands.0.ns.points": "150", "hands.0.eo.points": "200"})
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="preview-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-preview]`)))
	if r := webtest.Attr(t, ctx, `[data-preview]`, "data-ruling"); r != "reject" {
		t.Fatalf("ruling %q, want reject", r)
	}
	if got := evalString(t, ctx, `[...document.querySelectorAll('[data-rule]')].map(e=>e.dataset.rule).join(',')`); got != "FIBur-INT art. 19" {
		t.Errorf("rules %q, want FIBur-INT art. 19", got)
	}
	if got := webtest.Text(t, ctx, `[data-field="ruling"]`); got != "Correzione respinta" {
		t.Errorf("ruling shown as %q", got)
	}
	if evalString(t, ctx, `String(!!document.querySelector('[data-list="standings-diff"]'))`) != "false" {
		t.Error("a rejected correction shows a standings change")
	}
	webtest.Screenshot(t, ctx, "referee-inversion-refused")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="confirm-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-correction]`)))
	if a := webtest.Attr(t, ctx, `[data-correction]`, "data-applied"); a != "false" {
		t.Errorf("recorded applied=%s", a)
	}
	v, err := w.ops.Sheet(context.Background(), refereeP, w.tid, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if v.Stored.Version != 1 || v.Stored.Sheet.Hands[0].Lines[domain.NS].Points != 200 {
		t.Errorf("a rejected correction changed the sheet: version %d", v.Stored.Version)
	}

	// Round control (RULES §10): each button says what it means for
	// corrections; pressing one moves the round.
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+w.tid+"/rounds/1/control"), chromedp.WaitVisible(chromedp.CSS(`[data-round-state]`)))
	if st := webtest.Attr(t, ctx, `[data-round-state]`, "data-round-state"); st != "sheets_delivered" {
		t.Errorf("round 1 state %q", st)
	}
	if got := webtest.Text(t, ctx, `#consequence-next_pairing_published`); !strings.Contains(got, "FIBur-INT art. 19") {
		t.Errorf("publishing the next pairing does not explain its consequence: %q", got)
	}
	webtest.Screenshot(t, ctx, "referee-round-control")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="state-standings_published"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-message]`)))
	if st := webtest.Attr(t, ctx, `[data-round-state]`, "data-round-state"); st != "standings_published" {
		t.Errorf("after publishing the standings: %q", st)
	}
	if evalString(t, ctx, `String(!!document.querySelector('[data-action="state-sheets_delivered"]'))`) != "false" {
		t.Error("a backward state is offered")
	}
}

// Two referees correct one sheet at once: the first confirmation wins,
// the second is told another referee corrected it meanwhile, shown the
// current version, and nothing of it is written. PostgreSQL.
func TestRefereeConcurrentCorrections(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	w := newRefereeWorld(t, site.Store, "fitab-2025", false)
	if err := w.ops.AssignReferee(context.Background(), clubP, w.tid, "marco.verdi"); err != nil {
		t.Fatal(err)
	}
	pwA := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	pwB := site.CreatePerson(t, domain.RoleReferee, "marco.verdi", "")
	a, b := webtest.NewBrowser(t), webtest.NewBrowser(t)
	webtest.SignIn(t, a, site, "anna.rossi", pwA)
	webtest.SignIn(t, b, site, "marco.verdi", pwB)
	page := site.URL + "/tournaments/" + w.tid + "/rounds/1/tables/1/correct"
	for _, c := range []struct {
		ctx context.Context
		v   string
	}{{a, "500"}, {b, "650"}} {
		webtest.Run(t, c.ctx, chromedp.Navigate(page), chromedp.WaitVisible(chromedp.CSS(`form[data-form="correction"]`)))
		fillCorrection(t, c.ctx, "sum", "somma", map[string]string{"hands.0.ns.total": c.v})
		webtest.Run(t, c.ctx, chromedp.Click(chromedp.CSS(`[data-action="preview-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-preview]`)))
	}
	webtest.Run(t, a, chromedp.Click(chromedp.CSS(`[data-action="confirm-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-correction]`)))
	webtest.Run(t, b, chromedp.Click(chromedp.CSS(`[data-action="confirm-correction"]`)), chromedp.WaitVisible(chromedp.CSS(`[data-conflict]`)))
	if got := webtest.Text(t, b, `#errors`); !strings.Contains(got, "Un altro arbitro ha corretto questo score nel frattempo") {
		t.Errorf("the second referee was told %q", got)
	}
	if got := webtest.Attr(t, b, `[data-version]`, "data-version"); got != "2" {
		t.Errorf("current version shown %q, want 2", got)
	}
	if got := webtest.Attr(t, b, `input[name="version"]`, "value"); got != "2" {
		t.Errorf("the form now carries version %q, want 2", got)
	}
	webtest.Screenshot(t, b, "referee-conflict")
	webtest.CheckA11y(t, b)
	v, err := w.ops.Sheet(context.Background(), refereeP, w.tid, 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	if *v.Stored.Sheet.Hands[0].Lines[domain.NS].Total != 500 || len(v.Corrections) != 1 {
		t.Errorf("sheet total %d with %d corrections, want 500 and 1", *v.Stored.Sheet.Hands[0].Lines[domain.NS].Total, len(v.Corrections))
	}
}
