package web

import "testing"

// RULES §12.5: a team enters with its name and its players. A team list's
// row is number; team; name; membership … — or, without the number,
// team; name; membership …; a header row stays a header.
func TestTeamListRowsNameTheirTeam(t *testing.T) {
	cells := splitPasted("N.;Squadra;Giocatore 1;Tessera 1;Giocatore 2;Tessera 2;Giocatore 3;Tessera 3;Giocatore 4;Tessera 4\n" +
		"1;Circolo Roma A;Rossi Anna;FT1;Bianchi Luca;FT2;Verdi Carla;FT3;Neri Paolo;FT4\n" +
		"Quelli del giovedì;Gallo Rita;FT5;Conti Ugo;FT6;Ferri Lia;FT7;Marini Enzo;FT8\n")
	names := takeTeamNames(cells)
	rows, err := parseEntrantCells(cells)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2 (the header skipped)", len(rows))
	}
	if got := names[rows[0].Line]; got != "Circolo Roma A" || rows[0].Input.ID != "1" {
		t.Errorf("row 2: team %q, number %q", got, rows[0].Input.ID)
	}
	if got := names[rows[1].Line]; got != "Quelli del giovedì" || rows[1].Input.ID != "" {
		t.Errorf("row 3: team %q, number %q", got, rows[1].Input.ID)
	}
	for i, r := range rows {
		if len(r.Input.Players) != 4 || r.Input.Players[0].Membership == "" || r.Input.Players[3].Name == "" {
			t.Errorf("row %d players %+v, want four with their membership numbers", i, r.Input.Players)
		}
	}
	if rows[0].Input.Players[0].Name != "Rossi Anna" || rows[1].Input.Players[3].Membership != "FT8" {
		t.Errorf("players read from the wrong columns: %+v / %+v", rows[0].Input.Players, rows[1].Input.Players)
	}
}
