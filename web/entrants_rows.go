package web

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"segnapunti/app"
	"segnapunti/domain"
)

// Entrant lists pasted from a spreadsheet or uploaded as .xlsx (UI.md §3):
// one row per entrant, id; name; membership [; name; membership …].

// entrantRow is one entrant with the line of the list it came from.
type entrantRow struct {
	Line  int
	Input app.EntrantInput
}

// maxEntrantRows bounds a pasted or uploaded list (app.MaxEntrants).
const maxEntrantRows = app.MaxEntrants

// parseEntrantCells turns rows of cells into entrants. A row is
// "name; membership" once per player (UI.md §3), optionally after the
// entrant's number: a first cell with a digit and no space is the number
// ("12", "A7"), anything else is the first player's name; a row without
// a number is numbered when it is entered (numberEntrants). Empty rows
// are skipped, and a first row that reads like a header.
func parseEntrantCells(rows [][]string) ([]entrantRow, error) {
	var out []entrantRow
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
		if len(out) == 0 && isHeader(cells) {
			continue
		}
		if len(out) >= maxEntrantRows {
			return nil, fmt.Errorf("more than %d rows", maxEntrantRows)
		}
		var e app.EntrantInput
		if isEntrantNumber(cells[0]) {
			e.ID, cells = cells[0], cells[1:]
		}
		for k := 0; k < len(cells); k += 2 {
			p := domain.Player{Name: cells[k]}
			if k+1 < len(cells) {
				p.Membership = cells[k+1]
			}
			e.Players = append(e.Players, p)
		}
		out = append(out, entrantRow{Line: i + 1, Input: e})
	}
	return out, nil
}

var idLike = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// isEntrantNumber: an entrant's number has a digit and no space; a
// player's name has no digit.
func isEntrantNumber(cell string) bool {
	return idLike.MatchString(cell) && strings.ContainsAny(cell, "0123456789")
}

// headerWord matches the first cell of a header row, in Italian or English.
var headerWord = regexp.MustCompile(`(?i)^(id|n\.?|nr\.?|num(ero)?|coppia|iscritto|number|pair|entrant|nome|name|cognome( e nome)?|giocatore( ?1)?|player( ?1)?)$`)

// isHeader: a header row has no digit anywhere (a data row has its
// number or a membership number) and starts with a word such as "Numero"
// or "Nome".
func isHeader(cells []string) bool {
	for _, c := range cells {
		if strings.ContainsAny(c, "0123456789") {
			return false
		}
	}
	return headerWord.MatchString(cells[0])
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

// Bounds of an uploaded entrant list (STYLE §10).
const (
	maxEntrantListBytes = 4 << 20
	maxEntrantListCols  = 2 + 2*8
)

var errNotWorkbook = errors.New("not an .xlsx workbook")

// readEntrantWorkbook reads the first sheet of an uploaded .xlsx list,
// bounded: the unzipped size, the rows and the columns.
func readEntrantWorkbook(r io.Reader) ([][]string, error) {
	f, err := excelize.OpenReader(r, excelize.Options{UnzipSizeLimit: 16 << 20, UnzipXMLSizeLimit: 8 << 20})
	if err != nil {
		return nil, errNotWorkbook
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, errNotWorkbook
	}
	rows, err := f.Rows(sheets[0])
	if err != nil {
		return nil, errNotWorkbook
	}
	defer rows.Close()
	var out [][]string
	for rows.Next() {
		if len(out) > maxEntrantRows+1 {
			return nil, fmt.Errorf("more than %d rows", maxEntrantRows)
		}
		cols, err := rows.Columns()
		if err != nil {
			return nil, errNotWorkbook
		}
		if len(cols) > maxEntrantListCols {
			cols = cols[:maxEntrantListCols]
		}
		out = append(out, cols)
	}
	return out, rows.Error()
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
				ms = append(ms, msg{rows[i].Line, translate(lang, "secretary.row_error", rows[i].Line, rows[i].Input.ID, rowField(lang, field), detail)})
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

// membershipNumber is a federation membership number as people write it:
// letters and digits, maybe "-", "/" or "." between them, at least one
// digit (FT123456, 123456, RM-004512). Left empty, a player has none.
var membershipNumber = regexp.MustCompile(`^[A-Za-z0-9]+(?:[-/.][A-Za-z0-9]+)*$`)

// malformedMembership: UI.md §3 refuses malformed membership numbers. The
// length is the operation's (app.MaxMembershipLength, both doors); the
// shape is checked here, where a person types or pastes them.
func malformedMembership(m string) bool {
	m = strings.TrimSpace(m)
	return m != "" && (!membershipNumber.MatchString(m) || !strings.ContainsAny(m, "0123456789"))
}

// membershipRowErrors names each list row with a malformed membership
// number, as rowErrors does.
func membershipRowErrors(lang Lang, rows []entrantRow) []string {
	var out []string
	for _, row := range rows {
		for k, p := range row.Input.Players {
			if malformedMembership(p.Membership) {
				field := rowField(lang, "players."+strconv.Itoa(k)+".membership")
				out = append(out, translate(lang, "secretary.row_error", row.Line, row.Input.ID, field, translate(lang, "detail.membership", p.Membership)))
			}
		}
	}
	return out
}
