package xlsx

import (
	"fmt"
	"io"
	"runtime/debug"
)

// ReadList reads the first worksheet of an uploaded list (the entrants of
// UI.md §3) as rows of cell text, within the limits of Read (of opts only
// the Max… fields count): the file's bytes, its unpacked size and shared
// strings, checked before excelize unpacks anything; then the rows (more
// is ErrTooLarge) and the columns (a longer row is cut). It fails with an
// error wrapping ErrTooLarge or ErrNotWorkbook, both domain.ErrInvalid.
// size is the declared length, or -1.
func ReadList(r io.Reader, size int64, opts Options) (rows [][]string, err error) {
	lim := opts.limits()
	data, err := readUpload(r, size, lim)
	if err != nil {
		return nil, err
	}
	defer func() {
		if p := recover(); p != nil {
			rows, err = nil, fmt.Errorf("%w: %w", ErrNotWorkbook, &panicError{p, debug.Stack()})
		}
	}()
	f, err := openWorkbook(data, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, fmt.Errorf("%w: the workbook has no worksheet", ErrNotWorkbook)
	}
	it, err := f.Rows(sheets[0])
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotWorkbook, err)
	}
	defer it.Close()
	for it.Next() {
		if len(rows) >= lim.rows {
			return nil, fmt.Errorf("%w: %s: more than %d rows", ErrTooLarge, sheets[0], lim.rows)
		}
		cols, err := it.Columns()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrNotWorkbook, err)
		}
		if len(cols) > lim.cols {
			cols = cols[:lim.cols]
		}
		rows = append(rows, cols)
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotWorkbook, err)
	}
	return rows, nil
}
