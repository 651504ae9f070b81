package web

import (
	"strings"
	"testing"

	"segnapunti/domain"
)

// UI.md §3: entrant lists as people keep them — a header row in
// Italian or English is recognised and skipped, pasted or uploaded; data
// rows (names, numbers, membership numbers) never are.
func TestEntrantListHeaderRow(t *testing.T) {
	headers := []string{
		"Numero\tNome\tTessera\tNome\tTessera",
		"Coppia;Nome giocatore 1;Tessera 1;Nome giocatore 2;Tessera 2",
		"N.\tCognome e nome\tTessera FITAB\tCognome e nome\tTessera FITAB",
		"Pair\tPlayer 1\tMembership 1\tPlayer 2\tMembership 2",
		"Nome;Tessera;Nome;Tessera",
		"n°;Giocatore 1;N. tessera;Giocatore 2;N. tessera",
		"Player 1 name\tMembership no.\tPlayer 2 name\tMembership no.",
	}
	for _, h := range headers {
		data := "1;Rossi Anna;FT100001;Bianchi Luca;FT100002"
		if strings.Contains(h, "\t") {
			data = strings.ReplaceAll(data, ";", "\t")
		}
		rows, err := parseEntrantCells(splitPasted(h + "\n" + data + "\n"))
		if err != nil || len(rows) != 1 || rows[0].Line != 2 || rows[0].Input.ID != "1" || rows[0].Input.Players[1].Membership != "FT100002" {
			t.Errorf("header %q: %+v, %v; want one entrant from row 2", h, rows, err)
		}
	}
	for _, data := range []string{
		"Rossi Anna;FT100001;Bianchi Luca;FT100002",
		"1;Rossi Anna;FT100001;Bianchi Luca;FT100002",
		"Nome Rossi;FT1;Numero Verdi;FT2", // surnames that are header words, with membership numbers
		"12;Rossi;;Bianchi;",
	} {
		cells := strings.Split(data, ";")
		if isHeader(cells) {
			t.Errorf("data row %q taken for a header", data)
		}
	}
}

// The errors of an entrant list name the row and the column.
func TestEntrantRowColumn(t *testing.T) {
	rows, err := parseEntrantCells(splitPasted("Nome;Tessera;Nome;Tessera\nRossi Anna;FT1;Bianchi Luca;F#2\n7;Verdi Carla;F#3;Neri Paolo;FT4\n"))
	if err != nil || len(rows) != 2 {
		t.Fatal(rows, err)
	}
	msgs := membershipRowErrors(domain.Italian, rows)
	want := []string{"Riga 2, colonna D", "Riga 3, colonna C"}
	if len(msgs) != 2 || !strings.HasPrefix(msgs[0], want[0]) || !strings.HasPrefix(msgs[1], want[1]) {
		t.Errorf("errors %q; want them to start with %q", msgs, want)
	}
}
