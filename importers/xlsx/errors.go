package xlsx

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"segnapunti/domain"
	"segnapunti/messages"
)

// Workbook-level failures. Each wraps domain.ErrInvalid (the upload is bad
// input, a 4xx), and is wrapped in turn with the precise reason.
var (
	// ErrTooLarge: the file, its unzipped content, or a sheet is over a limit.
	ErrTooLarge = fmt.Errorf("%w: workbook too large", domain.ErrInvalid)
	// ErrNotWorkbook: not an .xlsx file (another format, truncated,
	// encrypted, corrupt).
	ErrNotWorkbook = fmt.Errorf("%w: not a readable .xlsx workbook", domain.ErrInvalid)
	// ErrLayout: an .xlsx workbook in neither import layout (API §5), or one
	// whose required sheets, headers or settings are missing.
	ErrLayout = fmt.Errorf("%w: not in an import layout", domain.ErrInvalid)
)

// workbookError is a failure of the workbook as a whole (kind: one of
// ErrTooLarge, ErrNotWorkbook, ErrLayout) worded from the catalogue.
type workbookError struct {
	kind error
	m    messages.M
}

func (e *workbookError) Error() string { return e.kind.Error() + ": " + e.m.English() }
func (e *workbookError) Unwrap() error { return e.kind }

// wbErr is a workbookError of kind by key with args.
func wbErr(kind error, key string, args ...any) error {
	return &workbookError{kind, messages.New(key, args...)}
}

// kinds are the codes of the workbook-level failures' own words.
var kinds = []struct {
	err error
	key string
}{{ErrTooLarge, "xlsx.too_large"}, {ErrNotWorkbook, "xlsx.not_workbook"}, {ErrLayout, "xlsx.layout"}}

// Message is an error of Read, or a match's Err, as a catalogue message
// whose English is the error's text without the "invalid: " of
// domain.ErrInvalid; ok is false when part of it was written by another
// package (a zip or XML library), which only reads in English.
func Message(err error) (m messages.M, ok bool) {
	var ce *CellError
	var we *workbookError
	switch {
	case errors.As(err, &ce) && ce.Msg.Key != "":
		m = messages.New("xlsx.cell", ce.Ref(), ce.Msg)
	case errors.As(err, &we):
		m = we.m
	default:
		return messages.M{}, false
	}
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return messages.New(k.key, m), true
		}
	}
	return m, true
}

// CellError is a problem with one cell (or, when Cell is empty, with one
// worksheet). Callers put Ref() in problem+json `errors[].cell`.
type CellError struct {
	Sheet  string // worksheet name
	Cell   string // A1 reference within the sheet, e.g. "G4"; "" for the whole sheet
	Detail string // what is wrong, in English, e.g. `"12O" is not a number`
	// Msg is Detail as a catalogue code and its arguments (package
	// messages), worded in the reader's language; zero when Detail is
	// another package's English.
	Msg messages.M
	Err error // the underlying error, if any
}

// Ref is the cell as a spreadsheet names it: "Smazzate!G4" (the sheet name
// quoted when it needs it: "'Turno 1'!G4"), or the sheet alone.
func (e *CellError) Ref() string {
	if e.Cell == "" {
		return quoteSheet(e.Sheet)
	}
	return quoteSheet(e.Sheet) + "!" + e.Cell
}

func (e *CellError) Error() string { return e.Ref() + ": " + e.Detail }

// Unwrap makes every cell error an invalid input, and keeps its cause.
func (e *CellError) Unwrap() []error {
	if e.Err != nil {
		return []error{domain.ErrInvalid, e.Err}
	}
	return []error{domain.ErrInvalid}
}

// DetailIn is the detail in lang: worded from the catalogue when coded,
// else Detail as written.
func (e *CellError) DetailIn(lang domain.Lang) string {
	if e.Msg.Key != "" {
		return e.Msg.In(lang)
	}
	return e.Detail
}

// In is the error in lang: the cell, then the detail.
func (e *CellError) In(lang domain.Lang) string { return e.Ref() + ": " + e.DetailIn(lang) }

// valueError is a value the reader cannot take, as a catalogue code and
// its arguments; its Error is the English.
type valueError struct{ m messages.M }

func (e *valueError) Error() string { return e.m.English() }

// refuse is a valueError of key with args.
func refuse(key string, args ...any) error { return &valueError{messages.New(key, args...)} }

// msgOf is err's catalogue message, or the zero M when err was written
// by another package.
func msgOf(err error) messages.M {
	var ve *valueError
	var ne *NumberError
	switch {
	case errors.As(err, &ve):
		return ve.m
	case errors.As(err, &ne):
		return ne.msg()
	}
	return messages.M{}
}

// detailOf is err as an argument of a catalogue message: its message when
// coded, else its English.
func detailOf(err error) any {
	if m := msgOf(err); m.Key != "" {
		return m
	}
	return err.Error()
}

// whatWord names what a number counts ("round", "table", "hand") in the
// reader's language, or the workbook's own label as written.
func whatWord(what string) any {
	if messages.Has("xlsx.what." + what) {
		return messages.New("xlsx.what." + what)
	}
	return what
}

// cellErr builds a CellError for the cell at (col, row), both 1-based.
func cellErr(sheet string, col, row int, err error) *CellError {
	return &CellError{Sheet: sheet, Cell: cellName(col, row), Detail: err.Error(), Err: err, Msg: msgOf(err)}
}

// cellErrf builds a CellError worded from the catalogue: key and args.
func cellErrf(sheet string, col, row int, key string, args ...any) *CellError {
	m := messages.New(key, args...)
	return &CellError{Sheet: sheet, Cell: cellName(col, row), Detail: m.English(), Msg: m}
}

// sheetErrf builds a CellError about a whole worksheet (key and args as
// cellErrf's).
func sheetErrf(sheet, key string, args ...any) *CellError {
	m := messages.New(key, args...)
	return &CellError{Sheet: sheet, Detail: m.English(), Msg: m}
}

// panicError is a failure of the reader itself on a malformed file: Read
// turns it into an ordinary error rather than crash the service.
type panicError struct {
	value any
	stack []byte
}

func (e *panicError) Error() string { return fmt.Sprintf("internal reader failure: %v", e.value) }

var errPanic = errors.New("reader panic")

func (e *panicError) Unwrap() error { return errPanic }

// colNames caches the letters of the first columns: building the Cells map
// names thousands of cells per workbook.
var colNames = func() []string {
	n := make([]string, DefaultMaxColumns+1)
	for c := 1; c < len(n); c++ {
		n[c] = colLetters(c)
	}
	return n
}()

func colLetters(col int) string {
	var b []byte
	for ; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}

// cellName is the A1 name of a cell; col and row are 1-based.
func cellName(col, row int) string {
	if col < len(colNames) {
		return colNames[col] + strconv.Itoa(row)
	}
	return colLetters(col) + strconv.Itoa(row)
}

// cellRef is the full reference of a cell: "Smazzate!K32".
func cellRef(sheet string, col, row int) string {
	return quoteSheet(sheet) + "!" + cellName(col, row)
}

// quoteSheet quotes a sheet name the way a spreadsheet formula would when
// it holds anything but letters, digits, "_" and ".": 'Turno 1'.
func quoteSheet(name string) string {
	plain := name != ""
	for _, r := range name {
		if !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			plain = false
			break
		}
	}
	if plain && !(name[0] >= '0' && name[0] <= '9') {
		return name
	}
	return "'" + strings.ReplaceAll(name, "'", "''") + "'"
}
