package main

import (
	"fmt"
	"io"

	"segnapunti/domain"
	"segnapunti/importers/xlsx"
)

// maxWorkbook bounds a workbook given to the CLI; the service uses the
// importer's smaller default for uploads.
const maxWorkbook = 100 << 20

// readWorkbook validates every match of an .xlsx workbook (API §5), in
// workbook order. A workbook, or a match, that cannot be read is unreadable
// input: the reason names the sheet and cell.
func readWorkbook(path string, r io.Reader, size int64, emit func(validated) error) error {
	wb, err := xlsx.Read(r, size, xlsx.Options{MaxBytes: maxWorkbook})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	for _, m := range wb.Matches {
		if m.Err != nil {
			return fmt.Errorf("%s: %s: %w", path, m.Origin(), m.Err)
		}
	}
	for _, m := range wb.Matches {
		src := fmt.Sprintf("%s, %s", path, m.Worksheet)
		if m.Sheet.Round > 0 || m.Sheet.Table > 0 {
			src = fmt.Sprintf("%s, %s (round %d, table %d)", path, m.Origin(), m.Sheet.Round, m.Sheet.Table)
		}
		v := validated{source: src, sheet: m.Sheet, report: domain.Validate(m.Sheet), batch: true}
		if err := emit(v); err != nil {
			return err
		}
	}
	return nil
}
