package web

import (
	"cmp"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/messages"
)

// Entrant lists pasted from a spreadsheet or uploaded as .xlsx (UI.md §3):
// one row per entrant, id; name; membership [; name; membership …].

// entrantRow is one entrant with the line of the list it came from.
type entrantRow struct {
	Line  int
	Input app.EntrantInput
	// Offset is the column of the first player's name, 0-based: 1 when
	// the row starts with the entrant's number (errors name the column).
	Offset int
	// Cols, for a list read by its header row (headerLayout), is the
	// 0-based column of each field ("id", "players.K.sex"); nil otherwise.
	Cols map[string]int
}

// column is the spreadsheet column (A, B, …) of a row's field
// "players.K.name" or "players.K.membership"; "" for another field.
func (r entrantRow) column(field string) string {
	if r.Cols != nil {
		n, ok := r.Cols[field]
		if !ok {
			return ""
		}
		name, err := excelize.ColumnNumberToName(n + 1)
		if err != nil {
			return ""
		}
		return name
	}
	parts := strings.Split(field, ".")
	if len(parts) != 3 || parts[0] != "players" {
		if field == "id" && r.Offset == 1 {
			return "A"
		}
		return ""
	}
	k, err := strconv.Atoi(parts[1])
	if err != nil {
		return ""
	}
	n := r.Offset + 2*k + 1
	if parts[2] == "membership" {
		n++
	}
	name, err := excelize.ColumnNumberToName(n)
	if err != nil {
		return ""
	}
	return name
}

// maxEntrantRows bounds a pasted or uploaded list (app.MaxEntrants).
const maxEntrantRows = app.MaxEntrants

// entrantRows reads a pasted or uploaded list for the request's
// tournament: in a team tournament each row also names its team (RULES
// §12.5: a team enters with its name and four or more players), in the
// cell after the team's number (the first cell when there is none).
func (s *Server) entrantRows(r *http.Request, cells [][]string) ([]entrantRow, error) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil || d.Tournament.Kind != domain.KindTeams {
		// Read as pairs; the operation that enters them answers for a
		// tournament that cannot be read.
		return parseEntrantCells(cells)
	}
	names := takeTeamNames(cells)
	rows, err := parseEntrantCells(cells)
	for i := range rows {
		name := names[rows[i].Line]
		rows[i].Input.Team = &name
		rows[i].Offset++ // the players' columns start one further right
	}
	return rows, err
}

// takeTeamNames takes each row's team name out of the row: the cell after
// the entrant's number, or the first cell of a row without a number. The
// names are returned by row, 1-based (entrantRow.Line).
func takeTeamNames(cells [][]string) map[int]string {
	names := map[int]string{}
	for i, row := range cells {
		at := 0
		if len(row) > 0 && isEntrantNumber(strings.TrimSpace(row[0])) {
			at = 1
		}
		if at < len(row) {
			names[i+1] = strings.TrimSpace(row[at])
			cells[i] = slices.Delete(slices.Clone(row), at, at+1)
		}
	}
	return names
}

// parseEntrantCells turns rows of cells into entrants. A row is
// "name; membership" once per player (UI.md §3), optionally after the
// entrant's number: a first cell with a digit and no space is the number
// ("12", "A7"), anything else is the first player's name; a row without
// a number is numbered when it is entered (numberEntrants). Empty rows
// are skipped, and a first row that reads like a header.
func parseEntrantCells(rows [][]string) ([]entrantRow, error) {
	var out []entrantRow
	var layout columnLayout // the header row's, when there is one
	for i, cells := range rows {
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		for len(cells) > 0 && cells[len(cells)-1] == "" {
			cells = cells[:len(cells)-1]
		}
		if len(cells) == 0 {
			continue
		}
		if len(out) == 0 && layout == nil && isHeader(cells) {
			layout = headerLayout(cells)
			continue
		}
		if len(out) >= maxEntrantRows {
			return nil, fmt.Errorf("more than %d rows", maxEntrantRows)
		}
		if layout.byHeader() {
			out = append(out, layout.row(i+1, cells))
			continue
		}
		var e app.EntrantInput
		offset := 0
		if isEntrantNumber(cells[0]) {
			e.ID, cells, offset = cells[0], cells[1:], 1
		}
		for k := 0; k < len(cells); k += 2 {
			p := domain.Player{Name: cells[k]}
			if k+1 < len(cells) {
				p.Membership = cells[k+1]
			}
			e.Players = append(e.Players, p)
		}
		out = append(out, entrantRow{Line: i + 1, Input: e, Offset: offset})
	}
	return out, nil
}

var idLike = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// isEntrantNumber: an entrant's number has a digit and no space; a
// player's name has no digit.
func isEntrantNumber(cell string) bool {
	return idLike.MatchString(cell) && strings.ContainsAny(cell, "0123456789")
}

// headerWords are the words of column names people give an entrant list,
// in Italian or English ("Numero", "Coppia", "Nome 1", "Tessera FITAB 2",
// "Cognome e nome", "Player 1 name", "Membership no."): a header row is
// made of them (and of numbers of players), nothing else.
var headerWords = map[string]bool{
	"id": true, "n": true, "nr": true, "no": true, "num": true, "numero": true, "number": true, "nro": true,
	"coppia": true, "pair": true, "squadra": true, "team": true, "iscritto": true, "iscrizione": true, "entrant": true,
	"nome": true, "name": true, "cognome": true, "surname": true, "first": true, "last": true, "full": true,
	"giocatore": true, "giocatrice": true, "player": true, "primo": true, "secondo": true, "second": true,
	"tessera": true, "membership": true, "member": true, "card": true, "socio": true, "codice": true, "code": true,
	"fitab": true, "fibur": true, "federale": true, "federation": true,
	"e": true, "and": true, "di": true, "del": true, "della": true, "of": true, "the": true,
	// Issue 22: the players' sex and birth year, for the prize categories.
	"sesso": true, "sex": true, "gender": true, "anno": true, "nascita": true, "birth": true, "year": true,
	"nato": true, "nata": true, "nel": true, "born": true, "in": true,
	// Issue 22: the entrant's club (the season workbook's Circolo).
	"circolo": true, "club": true, "società": true, "societa": true, "associazione": true, "asd": true,
}

// columnLayout is what each column of a list holds, read from its header
// row: "id", "club", "name", "membership", "sex", "birth_year" or ""
// (ignored).
type columnLayout []string

// headerWordKinds: the header words that say what a column holds, in the
// order they are tried (a "Numero tessera" is a membership number, a
// "Nome coppia" a name).
var headerWordKinds = []struct {
	kind  string
	words []string
}{
	{"club", []string{"circolo", "club", "società", "societa", "associazione", "asd"}},
	{"sex", []string{"sesso", "sex", "gender"}},
	{"birth_year", []string{"anno", "nascita", "birth", "year", "nato", "nata", "born"}},
	{"membership", []string{"tessera", "membership", "member", "card", "socio", "codice", "code", "fitab", "fibur", "federale", "federation"}},
	{"name", []string{"nome", "name", "cognome", "surname", "giocatore", "giocatrice", "player", "first", "last", "full"}},
	{"id", []string{"id", "n", "nr", "no", "num", "numero", "number", "nro", "coppia", "pair", "squadra", "team", "iscritto", "iscrizione", "entrant"}},
}

// headerLayout reads what each column of a header row holds.
func headerLayout(cells []string) columnLayout {
	out := make(columnLayout, len(cells))
	for i, c := range cells {
		words := headerToken.FindAllString(strings.ToLower(c), -1)
		for _, k := range headerWordKinds {
			if slices.ContainsFunc(words, func(w string) bool { return slices.Contains(k.words, w) }) {
				out[i] = k.kind
				break
			}
		}
	}
	return out
}

// byHeader: the list is read by its header row when the header names a
// club, sex or birth-year column (issue 22); any other list keeps the
// positional reading (number; name; membership; …) it always had.
func (l columnLayout) byHeader() bool {
	return slices.Contains(l, "sex") || slices.Contains(l, "birth_year") || slices.Contains(l, "club")
}

// row reads one data row by the layout: each name column starts a player,
// the membership, sex and birth-year columns after it are that player's.
// A birth year that is not a number is -1, which the operation refuses
// naming the field.
func (l columnLayout) row(line int, cells []string) entrantRow {
	r := entrantRow{Line: line, Cols: map[string]int{}}
	k := -1
	var players []domain.Player
	for i, kind := range l {
		cell := ""
		if i < len(cells) {
			cell = cells[i]
		}
		switch kind {
		case "id":
			r.Input.ID, r.Cols["id"] = cell, i
			continue
		case "club":
			if cell != "" {
				r.Input.Club, r.Cols["club"] = &cell, i
			}
			continue
		case "name":
			k++
			players = append(players, domain.Player{Name: cell})
		case "membership", "sex", "birth_year":
			if k < 0 {
				k = 0
				players = append(players, domain.Player{})
			}
		default:
			continue
		}
		p := &players[k]
		switch kind {
		case "membership":
			p.Membership = cell
		case "sex":
			p.Sex = cell
		case "birth_year":
			if cell != "" {
				y, err := strconv.Atoi(cell)
				if err != nil {
					y = -1
				}
				p.BirthYear = y
			}
		}
		r.Cols[fmt.Sprintf("players.%d.%s", k, kind)] = i
	}
	// A player with nothing written (a pair list's second player in an
	// individual tournament, say) is left out.
	for _, p := range players {
		if p != (domain.Player{}) {
			r.Input.Players = append(r.Input.Players, p)
		}
	}
	return r
}

// headerToken splits a cell into its words: letters only; digits (player
// 1, 2) and punctuation ("n.", "n°", "/") separate words.
var headerToken = regexp.MustCompile(`\p{L}+`)

// isHeader: a first row is a header when every cell is made only of
// column-name words (numbers of players aside) and at least one cell
// has a word: a data row has names that are not such words, or
// membership numbers.
func isHeader(cells []string) bool {
	words := 0
	for _, c := range cells {
		if c == "" {
			continue
		}
		if strings.ContainsAny(c, "0123456789") && len(c) > 3 && !headerToken.MatchString(c) {
			return false // a number alone, longer than a player's ordinal
		}
		for _, w := range headerToken.FindAllString(strings.ToLower(c), -1) {
			if !headerWords[w] {
				return false
			}
			words++
		}
	}
	return words > 0
}

// numberEntrants gives each entrant of in without a number the next free
// one after the highest number already entered or listed (1 for the
// first), in list order.
func numberEntrants(entered []domain.Entrant, in []app.EntrantInput) {
	next := 0
	see := func(id string) {
		if n, err := strconv.Atoi(id); err == nil && n > next {
			next = n
		}
	}
	for _, e := range entered {
		see(e.ID)
	}
	for _, e := range in {
		see(e.ID)
	}
	for i := range in {
		if in[i].ID == "" {
			next++
			in[i].ID = strconv.Itoa(next)
		}
	}
}

// splitPasted splits text pasted from a spreadsheet: tab-separated when
// the text has a tab, else ";"-separated.
func splitPasted(text string) [][]string {
	sep := ";"
	if strings.Contains(text, "\t") {
		sep = "\t"
	}
	var rows [][]string
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		rows = append(rows, strings.Split(line, sep))
	}
	return rows
}

// maxEntrantListCols bounds the columns read of an uploaded list: an id
// and a name and membership number for each of up to 8 players.
const maxEntrantListCols = 2 + 2*8

// trimEntrantColumns cuts each row of an uploaded list at
// maxEntrantListCols.
func trimEntrantColumns(rows [][]string) [][]string {
	for i, r := range rows {
		if len(r) > maxEntrantListCols {
			rows[i] = r[:maxEntrantListCols]
		}
	}
	return rows
}

// rowErrors turns an operation's field errors about /entrants/{i}/… into
// one message per list row ("row 4: …"), by the row each entrant came from.
func rowErrors(lang Lang, rows []entrantRow, fe fieldErrors) []string {
	type msg struct {
		line int
		text string
	}
	var ms []msg
	for name, detail := range fe {
		parts := strings.SplitN(name, ".", 3)
		if len(parts) >= 2 && parts[0] == "entrants" {
			if i, err := strconv.Atoi(parts[1]); err == nil && i < len(rows) {
				field := ""
				if len(parts) == 3 {
					field = parts[2]
				}
				ms = append(ms, msg{rows[i].Line, rowMessage(lang, rows[i], field, detail)})
				continue
			}
		}
		ms = append(ms, msg{0, name + ": " + detail})
	}
	slices.SortFunc(ms, func(a, b msg) int { return cmp.Or(a.line-b.line, strings.Compare(a.text, b.text)) })
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.text
	}
	return out
}

// malformedMembership: UI.md §3 refuses malformed membership numbers; the
// shape and length are the operation's (app.ValidMembership, both doors),
// checked here first so that the row is named in the page's words.
func malformedMembership(m string) bool { return !app.ValidMembership(m) }

// membershipRowErrors names each list row with a malformed membership
// number, as rowErrors does.
func membershipRowErrors(lang Lang, rows []entrantRow) []string {
	var out []string
	for _, row := range rows {
		for k, p := range row.Input.Players {
			if malformedMembership(p.Membership) {
				out = append(out, rowMessage(lang, row, "players."+strconv.Itoa(k)+".membership", translate(lang, "detail.membership", p.Membership)))
			}
		}
	}
	return out
}

// rowMessage is one list row's error, naming the row, the column when the
// field has one, the entrant and the field (issue 22).
func rowMessage(lang Lang, row entrantRow, field, detail string) string {
	if col := row.column(field); col != "" {
		return translate(lang, "secretary.row_col_error", row.Line, col, row.Input.ID, messages.RowField(lang, field), detail)
	}
	return translate(lang, "secretary.row_error", row.Line, row.Input.ID, messages.RowField(lang, field), detail)
}
