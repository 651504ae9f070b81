package web

import (
	"strings"
	"testing"

	"segnapunti/domain"
)

// Prizes: a list whose header row names sex and birth-year
// columns (Italian or English) is read by its header: each player's sex
// and birth year land on that player, and errors name their column. A
// header without them keeps the positional reading.
func TestEntrantListSexAndBirthYearColumns_Issue22(t *testing.T) {
	lists := []string{
		"Numero;Nome 1;Tessera 1;Sesso 1;Anno di nascita 1;Nome 2;Tessera 2;Sesso 2;Anno di nascita 2\n" +
			"7;Rossi Anna;FT100001;F;1950;Bianchi Luca;;M;1961\n",
		"Pair\tPlayer 1\tSex\tBirth year\tMembership\tPlayer 2\tSex\tBirth year\tMembership\n" +
			"7\tRossi Anna\tF\t1950\tFT100001\tBianchi Luca\tM\t1961\t\n",
	}
	want := []domain.Player{{Name: "Rossi Anna", Membership: "FT100001", Sex: "F", BirthYear: 1950}, {Name: "Bianchi Luca", Sex: "M", BirthYear: 1961}}
	for _, text := range lists {
		rows, err := parseEntrantCells(splitPasted(text))
		if err != nil || len(rows) != 1 {
			t.Fatalf("%q: %+v, %v", text, rows, err)
		}
		r := rows[0]
		if r.Line != 2 || r.Input.ID != "7" || len(r.Input.Players) != 2 || r.Input.Players[0] != want[0] || r.Input.Players[1] != want[1] {
			t.Errorf("%q: row %+v, want entrant 7 with %+v", text, r, want)
		}
	}
	// Errors name the column of the field, by the header.
	rows, _ := parseEntrantCells(splitPasted(lists[0]))
	for field, col := range map[string]string{"id": "A", "players.0.name": "B", "players.0.sex": "D", "players.1.birth_year": "I", "players.1.membership": "G"} {
		if got := rows[0].column(field); got != col {
			t.Errorf("column of %s = %q, want %s", field, got, col)
		}
	}
	// A birth year that is not a number is kept as refused (-1), not as
	// "not given".
	rows, _ = parseEntrantCells(splitPasted("Nome;Sesso;Anno\nRossi Anna;F;cinquanta\n"))
	if len(rows) != 1 || rows[0].Input.Players[0].BirthYear != -1 || domain.ValidBirthYear(rows[0].Input.Players[0].BirthYear) {
		t.Errorf("a birth year in words: %+v", rows)
	}
	// A header without sex or birth year: the positional reading as before.
	rows, _ = parseEntrantCells(splitPasted("Coppia;Nome;Tessera;Nome;Tessera\n3;Rossi Anna;FT1;Bianchi Luca;FT2\n"))
	if len(rows) != 1 || rows[0].Cols != nil || rows[0].Input.Players[1].Membership != "FT2" || rows[0].column("players.1.membership") != "E" {
		t.Errorf("positional list: %+v", rows)
	}
	if !isHeader(strings.Split("Numero;Nome;Sesso;Anno di nascita", ";")) || isHeader(strings.Split("Anna;F;1950", ";")) {
		t.Error("isHeader with the sex and birth-year words")
	}
}

// Issue 22, the season workbook's Circolo: a list whose header names a
// club column ("Circolo", "Club", "Società") gives each entrant its club;
// an empty cell gives none (the organising club's then counts in the
// season workbook); errors name the column.
func TestEntrantListClubColumn_Issue22(t *testing.T) {
	for _, text := range []string{
		"Numero;Nome 1;Nome 2;Circolo\n7;Rossi Anna;Bianchi Luca;Circolo Roma\n8;Verdi Carla;Neri Paolo;\n",
		"Pair\tPlayer 1\tPlayer 2\tClub\n7\tRossi Anna\tBianchi Luca\tCircolo Roma\n8\tVerdi Carla\tNeri Paolo\t\n",
		"N.;Cognome e nome;Cognome e nome;Società\n7;Rossi Anna;Bianchi Luca;Circolo Roma\n8;Verdi Carla;Neri Paolo;\n",
	} {
		rows, err := parseEntrantCells(splitPasted(text))
		if err != nil || len(rows) != 2 {
			t.Fatalf("%q: %+v, %v", text, rows, err)
		}
		if c := rows[0].Input.Club; c == nil || *c != "Circolo Roma" || rows[0].column("club") != "D" || len(rows[0].Input.Players) != 2 || rows[0].Input.Players[1].Name != "Bianchi Luca" {
			t.Errorf("%q: row 1 %+v, want entrant 7 of Circolo Roma (column D)", text, rows[0])
		}
		if rows[1].Input.Club != nil || rows[1].Input.ID != "8" {
			t.Errorf("%q: row 2 %+v, want entrant 8 without a club", text, rows[1])
		}
	}
}
