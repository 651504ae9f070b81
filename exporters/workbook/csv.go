package workbook

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"segnapunti/domain"
)

// CSVSheets are the sheet names WriteCSV accepts: every sheet of the
// tournament workbook, Torneo included.
func CSVSheets() []string {
	return []string{SheetTorneo, SheetClassifica, SheetTurni, SheetSmazzate, SheetRettifiche, SheetCorrezioni}
}

// CSVOptions shape a CSV file. The zero value is RFC 4180: comma-separated,
// UTF-8 without BOM.
type CSVOptions struct {
	// Sep separates the fields; 0 is ','. Italian Excel, whose decimal
	// separator is the comma, splits a CSV on ';' when it opens it.
	Sep rune
	// BOM starts the file with a UTF-8 byte-order mark: without it Excel
	// reads a CSV in the Windows code page and "è" comes out as "Ã¨".
	BOM bool
}

// CSVItalian is what Excel set to Italian opens by a double click: ';'
// and a BOM.
var CSVItalian = CSVOptions{Sep: ';', BOM: true}

// CSVOptionsFor is the CSV shape for a language: CSVItalian for Italian,
// RFC 4180 otherwise.
func CSVOptionsFor(lang domain.Lang) CSVOptions {
	if lang == domain.Lang("it") {
		return CSVItalian
	}
	return CSVOptions{}
}

// WriteCSV writes one table of the tournament workbook as RFC 4180 CSV;
// see WriteCSVWith.
func WriteCSV(w io.Writer, t TournamentExport, sheet string) error {
	return WriteCSVWith(w, t, sheet, CSVOptions{})
}

// WriteCSVWith writes one table of the tournament workbook as CSV in the
// given shape, header row and values in Italian, as in the workbook.
// sheet is one of CSVSheets, matched case-insensitively; any other, or a
// separator CSV cannot use (a quote, CR, LF), is an error wrapping
// domain.ErrInvalid. Numbers are plain integers, dates 2006-01-02,
// timestamps RFC 3339 in the export's location; risky text is prefixed
// with "'" (see the package comment: in CSV the apostrophe is the only
// protection there is, so it stays in the data).
func WriteCSVWith(w io.Writer, t TournamentExport, sheet string, opts CSVOptions) error {
	sep := opts.Sep
	if sep == 0 {
		sep = ','
	}
	if sep == '"' || sep == '\r' || sep == '\n' || sep == utf8.RuneError || !utf8.ValidRune(sep) {
		return fmt.Errorf("%w: CSV separator %q cannot be used", domain.ErrInvalid, sep)
	}
	var tb table
	switch {
	case strings.EqualFold(sheet, SheetTorneo):
		tb = torneoTable(t)
	case strings.EqualFold(sheet, SheetClassifica):
		tb = classificaTable(t)
	case strings.EqualFold(sheet, SheetTurni):
		tb = turniTable(t)
	case strings.EqualFold(sheet, SheetSmazzate):
		tb = smazzateTable(t)
	case strings.EqualFold(sheet, SheetRettifiche):
		tb = rettificheTable(t)
	case strings.EqualFold(sheet, SheetCorrezioni):
		tb = correzioniTable(t)
	default:
		return fmt.Errorf("%w: unknown CSV sheet %q (want %s)", domain.ErrInvalid, sheet, strings.Join(CSVSheets(), ", "))
	}
	if opts.BOM {
		if _, err := io.WriteString(w, "\uFEFF"); err != nil {
			return fmt.Errorf("csv %s: %w", tb.name, err)
		}
	}
	loc := t.Location
	if loc == nil {
		loc = time.UTC
	}
	cw := csv.NewWriter(w)
	cw.Comma = sep
	rec := make([]string, len(tb.columns))
	for i, c := range tb.columns {
		rec[i] = c.header
	}
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("csv %s: header: %w", tb.name, err)
	}
	n := 1
	for cells, err := range tb.rows {
		n++
		if err != nil {
			return fmt.Errorf("csv %s, row %d: %w", tb.name, n, err)
		}
		for i, v := range cells {
			rec[i] = csvField(v, loc)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("csv %s, row %d: %w", tb.name, n, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("csv %s: %w", tb.name, err)
	}
	return nil
}

func csvField(v any, loc *time.Location) string {
	switch v := v.(type) {
	case string:
		if risky(v) {
			return "'" + v
		}
		return v
	case int:
		return strconv.Itoa(v)
	case calDate:
		if t := time.Time(v); !t.IsZero() {
			return t.Format(time.DateOnly)
		}
	case instant:
		if t := time.Time(v); !t.IsZero() {
			return t.In(loc).Format(time.RFC3339)
		}
	}
	return ""
}
