package workbook

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"segnapunti/domain"
)

// CSVSheets are the sheet names WriteCSV accepts.
func CSVSheets() []string {
	return []string{SheetClassifica, SheetTurni, SheetSmazzate, SheetRettifiche, SheetCorrezioni}
}

// WriteCSV writes one table of the tournament workbook as CSV (RFC 4180,
// comma-separated, UTF-8 without BOM, header row in Italian). sheet is one
// of CSVSheets, matched case-insensitively; any other is an error wrapping
// domain.ErrInvalid. Numbers are plain integers, dates 2006-01-02,
// timestamps RFC 3339 in the export's location; risky text is prefixed
// with "'" (see the package comment).
func WriteCSV(w io.Writer, t TournamentExport, sheet string) error {
	var tb table
	switch {
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
	loc := t.Location
	if loc == nil {
		loc = time.UTC
	}
	cw := csv.NewWriter(w)
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
