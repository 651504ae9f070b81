package messages

import (
	"regexp"
	"strconv"
	"strings"
)

// The operations' field refusals in the page's language. Package app
// writes its field details in English for the API (API §3); a page shows
// them to a secretary, in Italian first, and names the list row (the
// pasted row, the seating row) where the API names a JSON pointer.
// A detail not listed here is shown as the operation wrote it; add the
// ones a page can meet.

// detailPattern is an operation's detail with values: re matches it
// whole; key is the message, given the captures in order. A capture
// listed in rows is an index into the request's list, shown as the row
// it came from.
type detailPattern struct {
	re   *regexp.Regexp
	key  string
	rows []int // capture numbers (1-based) that are list indexes
}

func detailPat(re, key string, rows ...int) detailPattern {
	return detailPattern{re: regexp.MustCompile("^" + re + "$"), key: key, rows: rows}
}

// detailPatterns: the entrants list (app.entrantsToDomain, app.checkText,
// app.checkIDSyntax) and the seating (app.RoundInput.toDomain).
var detailPatterns = []detailPattern{
	detailPat(`entrant (".*") is listed twice \(also at /entrants/(\d+)\)`, "detail.entrant_twice", 2),
	detailPat(`entrant (".*") is already entered`, "detail.entrant_entered"),
	detailPat(`a \S+ entrant has (\d+) to (\d+) players, not (\d+)`, "detail.players_range"),
	detailPat(`a \S+ entrant has (\d+) players, not (\d+)`, "detail.players"),
	detailPat(`required in a team tournament: the team's name`, "detail.team_required"),
	detailPat(`required, and not blank`, "detail.required"),
	detailPat(`at most (\d+) characters`, "detail.at_most"),
	detailPat(`control characters are not allowed`, "detail.control"),
	detailPat(`not valid UTF-8 text`, "detail.utf8"),
	detailPat(`want 1 to (\d+) characters`, "detail.id_length"),
	detailPat(`use only letters, digits, '-', '_' and '\.'`, "detail.id_chars"),
	detailPat(`required: at least one entrant`, "detail.no_entrant"),
	detailPat(`at most (\d+) entrants at once`, "detail.too_many_entrants"),
	detailPat(`required: an entrant id`, "detail.seat_required"),
	detailPat(`entrant (".*") is not entered in the tournament`, "detail.not_entered"),
	detailPat(`entrant (".*") appears twice in the round \(also at /tables/(\d+)\S*\): an entrant plays once per round \([^)]*\)`, "detail.seated_twice", 2),
	detailPat(`entrant (".*") appears twice in the round \(also at /byes/\d+\): an entrant plays once per round \([^)]*\)`, "detail.seated_and_bye"),
	detailPat(`an individual line is two players, not (\d+)`, "detail.individual_line"),
	detailPat(`a table number from 1 to (\d+)`, "detail.table_range"),
	detailPat(`table (\d+) is listed twice \(also at /tables/(\d+)\)`, "detail.table_twice", 2),
	detailPat(`required: at least one table`, "detail.no_table"),
	detailPat(`at most (\d+) tables`, "detail.too_many_tables"),
	detailPat(`2, 3 or 4 hands \(left out: the tournament's hands_per_round\)`, "detail.hands"),
	detailPat(`required: a round from 1 to (\d+) \(the tournament's rounds_planned\)`, "detail.round_number"),
	// The players' sex and birth year, the prize categories.
	detailPat(`(".*") is not F or M`, "detail.sex"),
	detailPat(`(?:\S+ is )?not a year between 1900 and 2100`, "detail.year"),
	detailPat(`-?\d+ is not between 1 and (\d+)`, "detail.places"),
	detailPat(`(".*") is not a category name \(.*\)`, "detail.prize_id"),
	detailPat(`category (".*") is defined twice`, "detail.prize_twice"),
	detailPat(`a label of 1 to 100 characters is needed`, "detail.prize_label"),
	detailPat(`the host club's name is needed`, "detail.host_club"),
	detailPat(`unknown attribute ".*" \(want sex, born_by or born_from\)`, "detail.prize_attribute"),
	detailPat(`unknown kind ".*" \(.*\)`, "detail.prize_kind"),
}

// FieldDetail is an operation's field detail in lang; row turns an index
// of the request's list into the row people count (nil: index + 1).
func FieldDetail(lang Lang, detail string, row func(i int) int) string {
	for _, p := range detailPatterns {
		m := p.re.FindStringSubmatch(detail)
		if m == nil {
			continue
		}
		args := make([]any, 0, len(m)-1)
		for k, c := range m[1:] {
			args = append(args, c)
			for _, idx := range p.rows {
				if idx == k+1 {
					i, _ := strconv.Atoi(c)
					if row == nil {
						args[k] = i + 1
					} else {
						args[k] = row(i)
					}
				}
			}
		}
		return Text(lang, p.key, args...)
	}
	return detail
}

// messagesDetails are FieldDetail's messages; ids start with "detail.".
var messagesDetails = map[string]msg{
	"detail.entrant_twice":     {"il numero %s compare due volte (anche alla riga %d)", "number %s is listed twice (also on row %d)"},
	"detail.entrant_entered":   {"il numero %s è già iscritto al torneo", "number %s is already entered"},
	"detail.players_range":     {"servono da %s a %s giocatori, non %s", "%s to %s players are needed, not %s"},
	"detail.players":           {"servono %s giocatori, non %s", "%s players are needed, not %s"},
	"detail.team_required":     {"in un torneo a squadre serve il nome della squadra", "a team tournament needs the team's name"},
	"detail.required":          {"obbligatorio", "required"},
	"detail.membership":        {"%q non è un numero di tessera (lettere e cifre, es. FT123456)", "%q is not a membership number (letters and digits, e.g. FT123456)"},
	"detail.field.id":          {"numero", "number"},
	"detail.field.players":     {"giocatori", "players"},
	"detail.field.team":        {"squadra", "team"},
	"detail.field.club":        {"circolo", "club"},
	"detail.field.name":        {"nome del giocatore %d", "name of player %d"},
	"detail.field.membership":  {"tessera del giocatore %d", "membership number of player %d"},
	"detail.at_most":           {"al massimo %s caratteri", "at most %s characters"},
	"detail.control":           {"contiene caratteri non ammessi", "contains characters that are not allowed"},
	"detail.utf8":              {"contiene byte che non sono testo (UTF-8 non valido): riscrivilo", "contains bytes that are not text (invalid UTF-8): type it again"},
	"detail.id_length":         {"da 1 a %s caratteri", "1 to %s characters"},
	"detail.id_chars":          {"solo lettere, cifre, '-', '_' e '.'", "only letters, digits, '-', '_' and '.'"},
	"detail.no_entrant":        {"nessun iscritto", "no entrant"},
	"detail.too_many_entrants": {"al massimo %s iscritti alla volta", "at most %s entrants at once"},
	"detail.seat_required":     {"scrivi il numero di un iscritto", "write an entrant's number"},
	"detail.not_entered":       {"il numero %s non è iscritto al torneo", "number %s is not entered in the tournament"},
	"detail.seated_twice":      {"il numero %s è già in questo turno (riga %d): si gioca una volta per turno", "number %s is already in this round (row %d): an entrant plays once a round"},
	"detail.seated_and_bye":    {"il numero %s è anche tra i riposi: chi riposa non gioca", "number %s is also among the byes: an entrant with a bye does not play"},
	"detail.individual_line":   {"una linea dell'individuale è di due giocatori, non %s", "an individual line is two players, not %s"},
	"detail.table_range":       {"un numero di tavolo da 1 a %s", "a table number from 1 to %s"},
	"detail.table_twice":       {"il tavolo %s compare due volte (anche alla riga %d)", "table %s is listed twice (also on row %d)"},
	"detail.no_table":          {"serve almeno un tavolo", "at least one table is needed"},
	"detail.too_many_tables":   {"al massimo %s tavoli", "at most %s tables"},
	"detail.hands":             {"2, 3 o 4 smazzate", "2, 3 or 4 hands"},
	"detail.round_number":      {"un turno da 1 a %s (i turni previsti)", "a round from 1 to %s (the rounds planned)"},

	// Prize categories: a player's sex and birth year.
	"detail.sex":              {"%s non è F o M", "%s is not F or M"},
	"detail.year":             {"non è un anno tra il 1900 e il 2100", "not a year between 1900 and 2100"},
	"detail.places":           {"un numero di premi da 1 a %s", "a number of prizes from 1 to %s"},
	"detail.prize_id":         {"%s non è un codice di categoria (lettere minuscole, cifre, - e _, al massimo 40)", "%s is not a category code (lower-case letters, digits, - and _, at most 40)"},
	"detail.prize_twice":      {"la categoria %s compare due volte", "category %s is listed twice"},
	"detail.prize_label":      {"serve un nome da 1 a 100 caratteri", "a name of 1 to 100 characters is needed"},
	"detail.host_club":        {"serve il nome del circolo ospitante", "the host club's name is needed"},
	"detail.prize_attribute":  {"scegli l'attributo: sesso, nati entro l'anno, nati dall'anno", "choose the attribute: sex, born by, born from"},
	"detail.prize_kind":       {"tipo di categoria sconosciuto", "unknown kind of category"},
	"detail.field.sex":        {"sesso del giocatore %d", "sex of player %d"},
	"detail.field.birth_year": {"anno di nascita del giocatore %d", "birth year of player %d"},
}

// RowField names a field of a list row ("id", "players.1.membership") as
// the row error shows it: "numero", "tessera del giocatore 2".
func RowField(lang Lang, field string) string {
	parts := strings.Split(field, ".")
	switch {
	case len(parts) == 1 && parts[0] != "":
		if Has("detail.field." + parts[0]) {
			return Text(lang, "detail.field."+parts[0])
		}
	case len(parts) == 3 && parts[0] == "players":
		if i, err := strconv.Atoi(parts[1]); err == nil {
			if Has("detail.field." + parts[2]) {
				return Text(lang, "detail.field."+parts[2], i+1)
			}
		}
	}
	return field
}
