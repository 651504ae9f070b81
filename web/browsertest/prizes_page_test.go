package browsertest

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// seedPrizeTournament: 8 pairs, one round of 4 tables, every NS line wins
// 20-0 and the NS lines' MP fall with the table number (NS 1530 against
// EO 750 + 3·table), so the standings are 1, 3, 5, 7, 8, 6, 4, 2.
// Pairs 3 and 5 are all-F; pair 8 was born in 1940 and 1945; pair 7 is of
// Circolo Roma, the others of Milano.
func seedPrizeTournament(t *testing.T, db *store.DB) string {
	t.Helper()
	return seedPrizeTournamentOf(t, db, 3)
}

// seedPrizeTournamentOf is seedPrizeTournament with rounds planned (1: the
// seeded round is the last, its standings the final ones).
func seedPrizeTournamentOf(t *testing.T, db *store.DB, rounds int) string {
	t.Helper()
	ctx := context.Background()
	ops := app.New(db, nil, nil)
	p := store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	tr, err := ops.CreateTournament(ctx, p, app.TournamentInput{Name: "Serata premi", Date: "2026-11-26", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: rounds, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	var es []app.EntrantInput
	for i := 1; i <= 8; i++ {
		a, b := domain.Player{Name: "Giocatore " + strconv.Itoa(i) + "A", Sex: "M", BirthYear: 1970}, domain.Player{Name: "Giocatore " + strconv.Itoa(i) + "B", Sex: "F", BirthYear: 1975}
		switch i {
		case 3, 5:
			a.Sex = "F"
		case 8:
			b.Sex, a.BirthYear, b.BirthYear = "M", 1940, 1945
		}
		club := "Milano"
		if i == 7 {
			club = "Circolo Roma"
		}
		es = append(es, app.EntrantInput{ID: strconv.Itoa(i), Players: []domain.Player{a, b}, Club: &club})
	}
	if _, err := ops.AddEntrants(ctx, p, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	webtest.SeedWinningRound(t, ops, p, tr.ID, 4)
	return tr.ID
}

var prizeRow = regexp.MustCompile(`<tr data-prize="([^"]+)" data-entrant="([^"]+)">`)

func prizeRows(body string) string {
	var out []string
	for _, m := range prizeRow.FindAllStringSubmatch(body, -1) {
		out = append(out, m[1]+"="+m[2])
	}
	return strings.Join(out, " ")
}

// UI.md §9: the prize page. The organising club defines five
// categories with the form; the page lists one
// <tr data-prize data-entrant> per award, worked by hand from the seeded
// standings (1, 3, 5, 7, 8, 6, 4, 2): assoluta 2 places → 1, 3; dame
// (all-F) → 5, as 3 has won; senior (born by 1950) → 8; locale (Circolo
// Roma) → 7; circolo (2 places, one per club) → 6, Milano's best pair
// still without a prize; Circolo Roma's only pair, 7, has won: one award.
// A wrong row is refused naming its field, in Italian; ?lang=en is English.
func TestPrizesPage_Issue22(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignInClient(t, site, "segreteria", pw)
	tid := seedPrizeTournament(t, db)
	page := "/tournaments/" + tid + "/prizes"

	if st, body := c.Get("/tournaments/" + tid); st != http.StatusOK || !strings.Contains(body, `href="`+page+`"`) {
		t.Errorf("the tournament page (%d) does not link the prize page", st)
	}
	st, body := c.Get(page)
	if st != http.StatusOK || !strings.Contains(body, "Nessuna categoria di premi definita") || !strings.Contains(body, `name="categories.0.kind"`) {
		t.Fatalf("empty prize page: %d\n%s", st, body)
	}
	form := url.Values{}
	set := func(n int, kv ...string) {
		for i := 0; i < len(kv); i += 2 {
			form.Set("categories."+strconv.Itoa(n)+"."+kv[i], kv[i+1])
		}
	}
	set(0, "id", "assoluta", "kind", "overall", "label", "Classifica assoluta", "places", "2")
	set(1, "id", "dame", "kind", "ladies", "label", "Coppie femminili", "places", "1")
	set(2, "id", "senior", "kind", "seniors", "label", "Senior", "places", "1", "born_by", "1950")
	set(3, "id", "locale", "kind", "host_club", "label", "Miglior coppia locale", "places", "1", "club", "Circolo Roma")
	set(4, "id", "circolo", "kind", "best_club", "label", "Miglior circolo", "places", "2")

	bad := url.Values{}
	for k, v := range form {
		bad[k] = v
	}
	bad.Set("categories.2.born_by", "")
	bad.Set("categories.1.places", "molti")
	st, body = c.Post(page, bad)
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, `aria-invalid="true"`) || !strings.Contains(body, "Controlla i campi segnalati") {
		t.Errorf("a wrong form: status %d, fields not marked", st)
	}
	if got := prizeRows(body); got != "" {
		t.Errorf("a refused form stored categories: %s", got)
	}

	// The operation's refusal, named and in Italian.
	bad.Set("categories.1.places", "1")
	bad.Set("categories.2.born_by", "1950")
	bad.Set("categories.3.id", "dame")
	st, body = c.Post(page, bad)
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "la categoria &#34;dame&#34; compare due volte") {
		t.Errorf("a duplicate code: status %d, not named in Italian: %s", st, regexp.MustCompile(`field-error">[^<]*`).FindAllString(body, -1))
	}
	bad.Set("categories.3.id", "locale")
	bad.Set("categories.1.places", "0")
	st, body = c.Post(page, bad)
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "un numero di premi da 1 a 100") {
		t.Errorf("0 places: status %d, not named in Italian", st)
	}

	if st, _ = c.Post(page, form); st != http.StatusSeeOther {
		t.Fatalf("save: %d", st)
	}
	st, body = c.Get(page)
	if st != http.StatusOK {
		t.Fatalf("prize page: %d", st)
	}
	if got, want := prizeRows(body), "assoluta=1 assoluta=3 dame=5 senior=8 locale=7 circolo=6"; got != want {
		t.Errorf("awards %q, want %q", got, want)
	}
	if !strings.Contains(body, "Premi — Serata premi") || !strings.Contains(body, "Categorie dei premi") {
		t.Error("the page is not in Italian")
	}
	if _, en := c.Get(page + "?lang=en"); !strings.Contains(en, "Prize categories") || prizeRows(en) != prizeRows(body) {
		t.Error("?lang=en: not the English page with the same awards")
	}
	// The workbook has the same rows (sheet Premi).
	l, err := app.New(db, nil, nil).Prizes(context.Background(), store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}, tid)
	if err != nil || len(l.Awards) != 6 {
		t.Errorf("app.Prizes: %d awards, %v", len(l.Awards), err)
	}
}

// A pasted list with sex and birth-year columns stores them; a
// wrong sex is refused naming the row and the column, in Italian.
func TestPastedEntrantsWithSexAndBirthYear_Issue22(t *testing.T) {
	db := dbtest.SQLite(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	c := webtest.SignInClient(t, site, "segreteria", pw)
	ops := app.New(db, nil, nil)
	p := store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	tr, err := ops.CreateTournament(context.Background(), p, app.TournamentInput{Name: "Elenco", Date: "2026-11-26", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 3, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	paste := "/tournaments/" + tr.ID + "/entrants/paste"
	header := "Numero;Nome 1;Sesso 1;Anno di nascita 1;Nome 2;Sesso 2;Anno di nascita 2\n"
	st, body := c.Post(paste, url.Values{"rows": {header + "1;Rossi Anna;F;1950;Verdi Carla;X;1952\n"}})
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, "sesso del giocatore 2") || !strings.Contains(body, "non è F o M") {
		t.Errorf("sex X: status %d, not named in Italian", st)
	}
	if st, _ = c.Post(paste, url.Values{"rows": {header + "1;Rossi Anna;F;1950;Verdi Carla;f;1952\n2;Bianchi Luca;M;;Neri Ugo;;\n"}}); st != http.StatusSeeOther {
		t.Fatalf("paste: %d", st)
	}
	// The one-entrant form has the same optional fields.
	add := "/tournaments/" + tr.ID + "/entrants"
	one := url.Values{"id": {"3"}, "p1_name": {"Gallo Rita"}, "p1_sex": {"F"}, "p1_birth_year": {"1948"}, "p2_name": {"Conti Ugo"}, "p2_birth_year": {"millenovecento"}}
	st, body = c.Post(add, one)
	if st != http.StatusUnprocessableEntity || !strings.Contains(body, `aria-describedby="p2_birth_year-error"`) || !strings.Contains(body, "non è un anno tra il 1900 e il 2100") {
		t.Errorf("a birth year in words: status %d, the field not marked in Italian", st)
	}
	one.Set("p2_birth_year", "1944")
	if st, _ = c.Post(add, one); st != http.StatusSeeOther {
		t.Fatalf("add one: %d", st)
	}
	es, err := db.ListEntrants(context.Background(), tr.ID)
	if err != nil || len(es) != 3 {
		t.Fatalf("entrants %+v, %v", es, err)
	}
	if got, want := es[2].Players[0], (domain.Player{Name: "Gallo Rita", Sex: "F", BirthYear: 1948}); got != want {
		t.Errorf("entrant 3 player 1: %+v, want %+v", got, want)
	}
	if es[2].Players[1].BirthYear != 1944 {
		t.Errorf("entrant 3 player 2: %+v", es[2].Players[1])
	}
	if err != nil || len(es) < 2 {
		t.Fatalf("entrants %+v, %v", es, err)
	}
	if got, want := es[0].Players[1], (domain.Player{Name: "Verdi Carla", Sex: "F", BirthYear: 1952}); got != want {
		t.Errorf("pair 1 player 2: %+v, want %+v", got, want)
	}
	if got, want := es[1].Players[1], (domain.Player{Name: "Neri Ugo"}); got != want {
		t.Errorf("pair 2 player 2 (nothing given): %+v, want %+v", got, want)
	}
}

// The prize page in a browser (PostgreSQL): the secretary defines two
// categories with the form, the awards appear as rows, the page passes
// axe-core, and printed it shows the prize list without the form.
func TestBrowserPrizesPage_Issue22(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	site := webtest.StartSite(t, db)
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	tid := seedPrizeTournament(t, db)
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "segreteria", pw)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/tournaments/"+tid), chromedp.WaitVisible(chromedp.CSS(`a[data-link="prizes"]`)))
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`a[data-link="prizes"]`)), chromedp.WaitVisible(chromedp.CSS(`form[data-form="prizes"]`)))
	webtest.SetValue(t, ctx, `input[name="categories.0.id"]`, "assoluta")
	webtest.SetValue(t, ctx, `input[name="categories.0.label"]`, "Classifica assoluta")
	webtest.SetValue(t, ctx, `input[name="categories.0.places"]`, "1")
	webtest.SetValue(t, ctx, `input[name="categories.1.id"]`, "dame")
	webtest.SetValue(t, ctx, `select[name="categories.1.kind"]`, "ladies")
	webtest.SetValue(t, ctx, `input[name="categories.1.label"]`, "Coppie femminili")
	webtest.SetValue(t, ctx, `input[name="categories.1.places"]`, "2")
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`form[data-form="prizes"] button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`table[data-list="prizes"]`)))
	// Standings 1, 3, 5, …: assoluta → 1; dame (all-F) → 3, 5.
	for _, sel := range []string{`tr[data-prize="assoluta"][data-entrant="1"]`, `tr[data-prize="dame"][data-entrant="3"]`, `tr[data-prize="dame"][data-entrant="5"]`} {
		if webtest.Count(t, ctx, sel) != 1 {
			t.Errorf("no %s", sel)
		}
	}
	if n := webtest.Count(t, ctx, `tr[data-prize]`); n != 3 {
		t.Errorf("%d award rows, want 3", n)
	}
	webtest.CheckA11y(t, ctx)
	webtest.Screenshot(t, ctx, "prizes")
	webtest.Run(t, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"})
		return err
	}))
	printed, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`getComputedStyle(document.querySelector('form[data-form="prizes"]').closest('section')).display === 'none' && getComputedStyle(document.querySelector('table[data-list="prizes"]')).display !== 'none'`))
	if err != nil || !printed {
		t.Errorf("printed: the form is not hidden or the prize list not shown (%v)", err)
	}
}
