package messages

import (
	"strconv"
	"strings"
)

// The operations' field details on a page. Package app words its field
// details for the API (API §3, codes "field." and "api."); a page shows
// some of them to a secretary in its own words, and names the list row
// (the pasted row, the seating row) where the API names a JSON pointer.

// pageVariant is the page's wording of an operation's detail: key takes
// the detail's arguments numbered in args (1-based, in order); those also
// listed in rows are indexes into the request's list (or a pointer into
// it, "/tables/3/ns/id"), shown as the row they came from.
type pageVariant struct {
	key  string
	args []int
	rows []int
}

// pageVariants: the entrants list (app.entrantsToDomain), the seating
// (app.RoundInput.toDomain) and the prize categories.
var pageVariants = map[string]pageVariant{
	"field.entrant_twice":     variant("detail.entrant_twice", []int{1, 2}, 2),
	"field.entrant_entered":   variant("detail.entrant_entered", []int{1}),
	"field.players_range":     variant("detail.players_range", []int{2, 3, 4}),
	"field.players":           variant("detail.players", []int{2, 3}),
	"field.team_required":     variant("detail.team_required", nil),
	"field.no_entrant":        variant("detail.no_entrant", nil),
	"field.too_many_entrants": variant("detail.too_many_entrants", []int{1}),
	"field.seat_required":     variant("detail.seat_required", nil),
	"field.not_entered":       variant("detail.not_entered", []int{1}),
	"field.seated_twice":      variant("detail.seated_twice", []int{1, 2}, 2),
	"field.seated_and_bye":    variant("detail.seated_and_bye", []int{1}),
	"field.table_range":       variant("detail.table_range", []int{1}),
	"field.table_twice":       variant("detail.table_twice", []int{1, 2}, 2),
	"field.too_many_tables":   variant("detail.too_many_tables", []int{1}),
	"field.no_table":          variant("detail.no_table", nil),
	"field.hands_planned":     variant("detail.hands", nil),
	"field.round_number":      variant("detail.round_number", []int{1}),
	"field.sex":               variant("detail.sex", []int{1}),
	"field.birth_year":        variant("detail.year", nil),
	// The prize categories (domain.ValidatePrizeCategories).
	"prize.bad_id":    variant("detail.prize_id", []int{1}),
	"prize.twice":     variant("detail.prize_twice", []int{1}),
	"prize.label":     variant("detail.prize_label", nil),
	"prize.places":    variant("detail.places", []int{2}),
	"prize.born_by":   variant("detail.year", nil),
	"prize.host_club": variant("detail.host_club", nil),
	"prize.sex":       variant("detail.sex", []int{1}),
	"prize.year":      variant("detail.year", nil),
	"prize.attribute": variant("detail.prize_attribute", nil),
	"prize.kind":      variant("detail.prize_kind", nil),
}

// variant is a page wording taking args, rows among them.
func variant(key string, args []int, rows ...int) pageVariant {
	return pageVariant{key: key, args: args, rows: rows}
}

// OnPage is m as a page words it: the page's own wording when it has one
// (pageVariants), with a list index shown as row(index) (nil: index + 1).
func (m M) OnPage(row func(i int) int) M {
	v, ok := pageVariants[m.Key]
	if !ok {
		return m
	}
	out := M{Key: v.key}
	for _, k := range v.args {
		if k > len(m.Args) {
			return m
		}
		a := m.Args[k-1]
		for _, r := range v.rows {
			if r == k {
				a = rowOf(a, row)
			}
		}
		out.Args = append(out.Args, a)
	}
	return out
}

// rowOf is the row of a list index, or of the first index in a pointer.
func rowOf(a any, row func(i int) int) any {
	i, ok := a.(int)
	if s, isText := a.(string); isText {
		parts := strings.Split(strings.Trim(s, "/"), "/")
		if len(parts) < 2 {
			return a
		}
		n, err := strconv.Atoi(parts[1])
		if err != nil {
			return a
		}
		i, ok = n, true
	}
	if !ok {
		return a
	}
	if row == nil {
		return i + 1
	}
	return row(i)
}

// messagesDetails are the pages' wordings (pageVariants) and the names
// of a list row's fields (RowField); ids start with "detail.".
var messagesDetails = map[string]msg{
	"detail.entrant_twice":     {"il numero %q compare due volte (anche alla riga %d)", "number %q is listed twice (also on row %d)"},
	"detail.entrant_entered":   {"il numero %q è già iscritto al torneo", "number %q is already entered"},
	"detail.players_range":     {"servono da %d a %d giocatori, non %d", "%d to %d players are needed, not %d"},
	"detail.players":           {"servono %d giocatori, non %d", "%d players are needed, not %d"},
	"detail.team_required":     {"in un torneo a squadre serve il nome della squadra", "a team tournament needs the team's name"},
	"detail.membership":        {"%q non è un numero di tessera (lettere e cifre, es. FT123456)", "%q is not a membership number (letters and digits, e.g. FT123456)"},
	"detail.field.id":          {"numero", "number"},
	"detail.field.players":     {"giocatori", "players"},
	"detail.field.team":        {"squadra", "team"},
	"detail.field.club":        {"circolo", "club"},
	"detail.field.name":        {"nome del giocatore %d", "name of player %d"},
	"detail.field.membership":  {"tessera del giocatore %d", "membership number of player %d"},
	"detail.no_entrant":        {"nessun iscritto", "no entrant"},
	"detail.too_many_entrants": {"al massimo %d iscritti alla volta", "at most %d entrants at once"},
	"detail.seat_required":     {"scrivi il numero di un iscritto", "write an entrant's number"},
	"detail.not_entered":       {"il numero %q non è iscritto al torneo", "number %q is not entered in the tournament"},
	"detail.seated_twice":      {"il numero %q è già in questo turno (riga %d): si gioca una volta per turno", "number %q is already in this round (row %d): an entrant plays once a round"},
	"detail.seated_and_bye":    {"il numero %q è anche tra i riposi: chi riposa non gioca", "number %q is also among the byes: an entrant with a bye does not play"},
	"detail.table_range":       {"un numero di tavolo da 1 a %d", "a table number from 1 to %d"},
	"detail.table_twice":       {"il tavolo %d compare due volte (anche alla riga %d)", "table %d is listed twice (also on row %d)"},
	"detail.no_table":          {"serve almeno un tavolo", "at least one table is needed"},
	"detail.too_many_tables":   {"al massimo %d tavoli", "at most %d tables"},
	"detail.hands":             {"2, 3 o 4 smazzate", "2, 3 or 4 hands"},
	"detail.round_number":      {"un turno da 1 a %d (i turni previsti)", "a round from 1 to %d (the rounds planned)"},

	// Prize categories: a player's sex and birth year.
	"detail.sex":              {"%q non è F o M", "%q is not F or M"},
	"detail.year":             {"non è un anno tra il 1900 e il 2100", "not a year between 1900 and 2100"},
	"detail.places":           {"un numero di premi da 1 a %d", "a number of prizes from 1 to %d"},
	"detail.prize_id":         {"%q non è un codice di categoria (lettere minuscole, cifre, - e _, al massimo 40)", "%q is not a category code (lower-case letters, digits, - and _, at most 40)"},
	"detail.prize_twice":      {"la categoria %q compare due volte", "category %q is listed twice"},
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
