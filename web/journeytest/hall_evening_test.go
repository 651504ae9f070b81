package journeytest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
	"segnapunti/web"
	"segnapunti/web/webtest"
)

// hallLAN is the address serve found on the club's Wi-Fi (issue 22): the
// test's site listens on loopback, but what the cards carry is this.
const hallLAN = "http://192.168.1.20:8080"

// Issue 22, "Done when": the evening in a real hall, in Chromium. The
// secretary, on a laptop reached by its LAN address, pastes the pairs with
// an ordinary header row, prints the table cards once (their QR codes carry
// the LAN address, not localhost) and opens the round's print page twice
// (the same codes). A phone opens table 1 by its card's code, the scoring
// line corrects a typo in its last hand before the confirmation, ends the
// sheet, tries to confirm it with its own number (refused:
// CONFIRM_OWN_LINE), and the other line confirms it. Then the prizes of a
// 40-pair tournament with 5 categories, on its public page, against the
// table worked by hand in fortyPairPrizes.
func TestHallEvening_Issue22(t *testing.T) {
	t.Parallel()
	db := dbtest.SQLite(t)
	site := webtest.StartSiteWith(t, db, web.Deps{LANURL: hallLAN})
	pw := site.CreatePerson(t, domain.RoleClub, "segreteria", "bc-roma")
	club := store.Principal{Role: domain.RoleClub, Name: "segreteria", ClubID: "bc-roma"}
	ctx := context.Background()
	tr, err := site.App.CreateTournament(ctx, club, app.TournamentInput{Name: "Giovedì in sala", Date: "2026-11-26", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 1, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	tid := tr.ID
	laptop := webtest.NewBrowser(t)
	webtest.SignIn(t, laptop, site, "segreteria", pw)

	// The pairs as a spreadsheet keeps them: a header row first.
	rows := "Numero;Nome 1;Tessera 1;Nome 2;Tessera 2;Circolo\n1;Rossi Anna;FT001;Bianchi Luca;FT002;Circolo Roma\n2;Verdi Carla;;Neri Paolo;;\n3;Gallo Rita;FT005;Conti Ugo;;Torino\n4;Sala Pia;;Moro Ivo;FT008;\n"
	webtest.Run(t, laptop, chromedp.Navigate(site.URL+"/tournaments/"+tid+"/entrants"), chromedp.WaitVisible(chromedp.CSS(`textarea[name="rows"]`)),
		webtest.JS(`document.querySelector('textarea[name="rows"]').value = `+strconv.Quote(rows)),
		webtest.JS(`document.querySelector('form[data-form="entrants-paste"]').requestSubmit()`),
		chromedp.WaitVisible(chromedp.CSS(`tr[data-entrant="4"]`)))
	if n := webtest.Count(t, laptop, `table[data-list="entrants"] tr[data-entrant]`); n != 4 {
		t.Fatalf("%d pairs after pasting a list with a header row, want 4", n)
	}
	if es, err := db.ListEntrants(ctx, tid); err != nil || len(es) != 4 || es[0].Club != "Circolo Roma" || es[1].Club != "" || es[2].Club != "Torino" ||
		es[0].Players[1] != (domain.Player{Name: "Bianchi Luca", Membership: "FT002"}) || es[3].Players[1].Membership != "FT008" {
		t.Errorf("the pasted pairs are stored as %+v, %v", es, err)
	}
	in := app.RoundInput{Number: 1, Phase: "mitchell", Tables: []domain.TableAssignment{{Table: 1, NS: "1", EO: "3"}, {Table: 2, NS: "2", EO: "4"}}}
	if _, err := site.App.CreateRound(ctx, club, tid, in); err != nil {
		t.Fatal(err)
	}

	// The table cards, printed once: the QR carries the LAN address.
	shorts := map[int]string{}
	for _, tb := range []int{1, 2} {
		sel := `img[data-qr="` + strconv.Itoa(tb) + `"]`
		webtest.Run(t, laptop, chromedp.Navigate(site.URL+"/tournaments/"+tid+"/tables/"+strconv.Itoa(tb)+"/card"), chromedp.WaitVisible(chromedp.CSS(sel)))
		if got := webtest.Attr(t, laptop, `[data-public-url]`, "data-public-url"); got != hallLAN {
			t.Errorf("card %d: the phones' address %q, want %s", tb, got, hallLAN)
		}
		if webtest.Count(t, laptop, `[data-loopback="true"]`) != 0 {
			t.Errorf("card %d warns of a loopback address", tb)
		}
		qr := webtest.Attr(t, laptop, sel, "data-url")
		if !strings.HasPrefix(qr, hallLAN+"/table/") || strings.Contains(qr, "127.0.0.1") || strings.Contains(qr, "localhost") {
			t.Errorf("card %d's QR carries %q, want %s/table/…", tb, qr, hallLAN)
		}
		shorts[tb] = webtest.Attr(t, laptop, `[data-short]`, "data-short")
		if tb == 1 {
			webtest.CheckA11y(t, laptop)
			webtest.Screenshot(t, laptop, "hall-evening-card")
		}
	}
	// The round's print page, opened twice (a preview, then the print):
	// the same codes, none revoked.
	codes := func() string {
		t.Helper()
		webtest.Run(t, laptop, chromedp.Navigate(site.URL+"/tournaments/"+tid+"/rounds/1/print"), chromedp.WaitVisible(chromedp.CSS(`[data-short]`)))
		got, err := chromedp.Run(laptop, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('[data-short]')).map(e => e.dataset.short).join(" ")`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	first, second := codes(), codes()
	if first == "" || first != second || len(strings.Fields(first)) != 2 {
		t.Errorf("the print page opened twice shows %q, then %q; want the same two codes", first, second)
	}
	if !strings.Contains(webtest.Text(t, laptop, `[data-public-url]`), hallLAN) {
		t.Errorf("the print page does not say the phones open %s", hallLAN)
	}

	// A phone at table 1 types its card's code.
	phone := webtest.NewBrowser(t)
	webtest.Run(t, phone, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table"),
		chromedp.SendKeys(chromedp.CSS(`input[name="code"]`), shorts[1]),
		chromedp.Click(chromedp.CSS(`[data-action="open-table"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	if got := webtest.Text(t, phone, `main`); !strings.Contains(got, "Turno 1 · Tavolo 1") {
		t.Fatalf("the card's code did not open round 1's table 1: %.200s", got)
	}
	// Three hands; the third with a typo: EO's points 650 for 65.
	webtest.Run(t, phone, webtest.TypeHand(0, 300, 235, 100, -120, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="1"]`)),
		webtest.TypeHand(1, 0, -55, 400, 180, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="2"]`)),
		webtest.TypeHand(2, 350, 120, 200, 650, ""), chromedp.WaitVisible(chromedp.CSS(`tr[data-hand="3"]`)))
	// Corrected at the table before the confirmation (edit-hand).
	webtest.Run(t, phone, chromedp.Click(chromedp.CSS(`[data-action="edit-hand"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#edit-form input[name="hands.2.eo.points"]`)),
		webtest.JS(`document.querySelector('#edit-form input[name="hands.2.eo.points"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`#edit-form input[name="hands.2.eo.points"]`), "65\r"),
		chromedp.WaitNotPresent(chromedp.CSS(`#edit-form`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-action="end-sheet"]`)))
	st, err := db.GetSheet(ctx, tid, 1, 1)
	if err != nil || len(st.Sheet.Hands) != 3 || st.Sheet.Hands[2].Lines[domain.EO].Points != 65 {
		t.Fatalf("after the correction the stored sheet is %+v, %v; want hand 3 with EO's 65", st.Sheet.Hands, err)
	}
	if hist, err := db.SheetHistory(ctx, tid, 1, 1); err != nil || len(hist) != 1 {
		t.Errorf("the sheet's history: %d versions, %v; want the sheet with the typo kept", len(hist), err)
	}
	// The scoring line (NS, pair 1) ends the sheet, then tries to confirm
	// it with its own number: refused. Pair 3 (EO) confirms.
	webtest.Run(t, phone,
		chromedp.SetValue(chromedp.CSS(`select[name="line"]`), "ns"),
		chromedp.SendKeys(chromedp.CSS(`input[name="scorer_entrant"]`), "1"),
		chromedp.Click(chromedp.CSS(`[data-action="end-sheet"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-confirmation="ns"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="entrant"]`), "1"),
		chromedp.Click(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-code="CONFIRM_OWN_LINE"]`)))
	webtest.Screenshot(t, phone, "hall-evening-own-line")
	webtest.Run(t, phone, chromedp.EmulateViewport(360, 800),
		webtest.JS(`document.querySelector('input[name="entrant"]').value = ""`),
		chromedp.SendKeys(chromedp.CSS(`input[name="entrant"]`), "3"),
		chromedp.Click(chromedp.CSS(`[data-action="confirm"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-delivered="true"]`)))
	signed, err := site.App.Confirmations(ctx, club, tid, 1, 1)
	if err != nil || len(signed) != 2 || signed[0].Line != domain.NS || signed[0].Kind != store.SignEnd || signed[1].Line != domain.EO || signed[1].Kind != store.SignConfirm {
		t.Errorf("signatures %+v, %v; want NS's end and EO's confirmation", signed, err)
	}

	// Prizes: 40 pairs, 5 categories, on the public page.
	ptid := seedFortyPairPrizes(t, site, club)
	webtest.Run(t, laptop, chromedp.Navigate(site.URL+"/p/"+ptid+"/prizes"), chromedp.WaitVisible(chromedp.CSS(`table[data-list="prizes"]`)))
	got, err := chromedp.Run(laptop, chromedp.Evaluate[string](`Array.from(document.querySelectorAll('tr[data-prize]')).map(e => e.dataset.prize + "=" + e.dataset.entrant).join(" ")`))
	if err != nil {
		t.Fatal(err)
	}
	if got != fortyPairPrizes {
		t.Errorf("the prizes of 40 pairs:\n got %s\nwant %s", got, fortyPairPrizes)
	}
	webtest.Screenshot(t, laptop, "hall-evening-prizes")
}

// fortyPairPrizes is the prize list of seedFortyPairPrizes, worked by hand
// from the rules' reading (domain/interp.go: categories in order of value,
// one prize an entrant; best club: each club's best-ranked pair still
// without a prize, clubs in that pair's order).
//
// Standings: NS pairs 1, 3, …, 39 win (ranks 1-20, pair 2k−1 at rank k),
// then the EO pairs from table 20 down (pair 2k at rank 41−k).
//
//   - assoluta (3): ranks 1-3 → 1, 3, 5.
//   - dame (2; pairs 3, 9, 14, 21 are all-F): 3 has won → 9 (rank 5), 21 (rank 11).
//   - senior (2; born by 1950: pairs 1, 7, 21, 30): 1 and 21 have won → 7 (rank 4), 30 (rank 26).
//   - locale (1; Circolo Roma: 5, 11, 12): 5 has won → 11 (rank 6).
//   - circolo (2): Torino's best still without a prize 13 (rank 7),
//     Milano's 15 (rank 8; 1, 3, 7, 9 have won), Roma's 12 (rank 35) → 13, 15.
const fortyPairPrizes = "assoluta=1 assoluta=3 assoluta=5 dame=9 dame=21 senior=7 senior=30 locale=11 circolo=13 circolo=15"

// seedFortyPairPrizes: a public tournament of one round, 40 pairs at 20
// tables, its standings published; every NS wins by a margin that falls
// with the table number (NS 1530 against EO 750 + 3·table).
func seedFortyPairPrizes(t *testing.T, site *webtest.Site, club store.Principal) string {
	t.Helper()
	ctx := context.Background()
	ops := site.App
	tr, err := ops.CreateTournament(ctx, club, app.TournamentInput{Name: "Quaranta coppie", Date: "2026-11-27", Level: "club", Ruleset: "fitab-2025", Kind: "pairs", RoundsPlanned: 1, HandsPerRound: 3})
	if err != nil {
		t.Fatal(err)
	}
	var es []app.EntrantInput
	for i := 1; i <= 40; i++ {
		a, b := domain.Player{Name: "Giocatore " + strconv.Itoa(i) + "A", Sex: "M", BirthYear: 1970}, domain.Player{Name: "Giocatore " + strconv.Itoa(i) + "B", Sex: "F", BirthYear: 1975}
		switch i {
		case 3, 9, 14:
			a.Sex = "F"
		case 21:
			a.Sex, a.BirthYear, b.BirthYear = "F", 1948, 1950
		case 1, 7, 30:
			a.BirthYear, b.BirthYear = 1945, 1949
		}
		c := "Milano"
		switch i {
		case 5, 11, 12:
			c = "Circolo Roma"
		case 13, 17:
			c = "Torino"
		}
		es = append(es, app.EntrantInput{ID: strconv.Itoa(i), Players: []domain.Player{a, b}, Club: &c})
	}
	if _, err := ops.AddEntrants(ctx, club, tr.ID, es); err != nil {
		t.Fatal(err)
	}
	webtest.SeedWinningRound(t, ops, club, tr.ID, 20)
	if _, err := ops.SetPrizeCategories(ctx, club, tr.ID, []domain.PrizeCategory{
		{ID: "assoluta", Kind: domain.PrizeOverall, Label: "Classifica assoluta", Places: 3},
		{ID: "dame", Kind: domain.PrizeLadies, Label: "Coppie femminili", Places: 2},
		{ID: "senior", Kind: domain.PrizeSeniors, Label: "Senior", Places: 2, BornBy: 1950},
		{ID: "locale", Kind: domain.PrizeHostClub, Label: "Miglior coppia locale", Places: 1, Club: "Circolo Roma"},
		{ID: "circolo", Kind: domain.PrizeBestClub, Label: "Miglior circolo", Places: 2},
	}); err != nil {
		t.Fatal(err)
	}
	admin := store.Principal{Role: domain.RoleAdmin, Name: "admin"}
	for _, s := range []string{"sheets_delivered", "standings_published"} {
		if _, err := ops.SetRoundState(ctx, admin, tr.ID, 1, s); err != nil {
			t.Fatal(err)
		}
	}
	public := true
	if _, err := ops.PatchTournament(ctx, club, tr.ID, app.PublicPatch{Public: &public}); err != nil {
		t.Fatal(err)
	}
	// The standings the table above was worked from.
	pt, err := ops.PublicTournament(ctx, tr.ID)
	if err != nil {
		t.Fatal(err)
	}
	table, _, err := pt.Standings(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range table.Rows {
		n, _ := strconv.Atoi(r.Entrant.ID)
		want := (n + 1) / 2
		if n%2 == 0 {
			want = 41 - n/2
		}
		if r.Rank != want {
			t.Fatalf("pair %d at rank %d, want %d: the hand-made table does not apply", n, r.Rank, want)
		}
	}
	if res, err := http.Get(site.URL + "/p/" + tr.ID + "/prizes"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("public prize page: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	return tr.ID
}
