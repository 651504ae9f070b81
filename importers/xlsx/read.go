// Package xlsx imports score sheets from .xlsx workbooks in the two layouts
// of API §5: the tidy layout (a Hands/Smazzate sheet, one row per hand, with
// optional Results/Risultati and Tournament/Torneo sheets) and the paper
// layout (one worksheet per match, shaped like the paper score).
//
// Untrusted uploads are bounded before they are read: the byte size, the
// unzipped size, sheets, rows and columns are capped, and sheets are read
// through excelize's streaming row iterator.
package xlsx

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// Default limits; Options may lower or raise them.
const (
	DefaultMaxBytes         = 10 << 20  // the upload
	DefaultMaxUnzippedBytes = 100 << 20 // everything in the zip, unpacked
	DefaultMaxRows          = 20_000    // per worksheet
	DefaultMaxColumns       = 256       // per row
	DefaultMaxSheets        = 1_000
	// maxXMLInMemory: a worksheet larger than this unpacked is spilled by
	// excelize to a temporary file instead of memory.
	maxXMLInMemory = 16 << 20
	// headerRows: header rows are looked for among the first rows only.
	headerRows      = 10
	paperHeaderRows = 40
)

// Options tune a Read. The zero value reads with the default limits and no
// defaults for the ruleset and planned hands.
type Options struct {
	// Ruleset and HandsPlanned apply when the workbook has no
	// Tournament/Torneo sheet saying otherwise.
	Ruleset      domain.Ruleset
	HandsPlanned int
	// Kind applies when the Tournament/Torneo sheet names none (else
	// pairs); in an individual tournament a line's cell names two players
	// (SplitPlayerIDs).
	Kind domain.Kind

	MaxBytes         int64 // default DefaultMaxBytes
	MaxUnzippedBytes int64 // default DefaultMaxUnzippedBytes
	MaxRows          int   // default DefaultMaxRows
	MaxColumns       int   // default DefaultMaxColumns (at most that)
	MaxSheets        int   // default DefaultMaxSheets
	// Shared strings (xl/sharedStrings.xml) and cells, checked before
	// excelize loads the file.
	MaxSharedStrings     int   // default DefaultMaxSharedStrings
	MaxSharedStringBytes int64 // default DefaultMaxSharedStringBytes
	MaxCellText          int   // default DefaultMaxCellText, bytes
	MaxCells             int   // default DefaultMaxCells, non-empty cells in all sheets read
}

type limits struct {
	bytes, unzipped   int64
	rows, cols, sheet int
	strings, cellText int
	ssBytes           int64
	cells             int
}

func (o Options) limits() limits {
	l := limits{
		bytes: DefaultMaxBytes, unzipped: DefaultMaxUnzippedBytes,
		rows: DefaultMaxRows, cols: DefaultMaxColumns, sheet: DefaultMaxSheets,
		strings: DefaultMaxSharedStrings, cellText: DefaultMaxCellText,
		ssBytes: DefaultMaxSharedStringBytes, cells: DefaultMaxCells,
	}
	if o.MaxBytes > 0 {
		l.bytes = o.MaxBytes
	}
	if o.MaxUnzippedBytes > 0 {
		l.unzipped = o.MaxUnzippedBytes
	}
	if o.MaxRows > 0 {
		l.rows = o.MaxRows
	}
	if o.MaxColumns > 0 && o.MaxColumns < l.cols {
		l.cols = o.MaxColumns
	}
	if o.MaxSheets > 0 {
		l.sheet = o.MaxSheets
	}
	if o.MaxSharedStrings > 0 {
		l.strings = o.MaxSharedStrings
	}
	if o.MaxSharedStringBytes > 0 {
		l.ssBytes = o.MaxSharedStringBytes
	}
	if o.MaxCellText > 0 {
		l.cellText = o.MaxCellText
	}
	if o.MaxCells > 0 {
		l.cells = o.MaxCells
	}
	return l
}

// Layout is the shape of an imported workbook (API §5).
type Layout string

const (
	LayoutTidy  Layout = "tidy"  // A: Hands/Smazzate, one row per hand
	LayoutPaper Layout = "paper" // B: one worksheet per match
)

// Workbook is what a workbook holds.
type Workbook struct {
	Layout     Layout
	Tournament Tournament
	// Matches in workbook order: tidy, by the first row of each (round,
	// table), then Results rows without hands; paper, by worksheet.
	Matches []Match
	// Ignored notes what was present but not read: unrecognised columns,
	// sheets that are not score sheets, unknown Tournament keys.
	Ignored []string
}

// Tournament is what the optional Tournament/Torneo sheet says; fields it
// does not give are zero.
type Tournament struct {
	Name         string
	Level        domain.Level
	Ruleset      domain.Ruleset
	HandsPlanned int
	Kind         domain.Kind
	VPTable      domain.VPTable
	// Cells maps each key read ("ruleset", "hands_planned", "name",
	// "level", "kind", "vp_table") to its value's cell, "Torneo!B1".
	Cells map[string]string
}

// Match is one match read from the workbook.
type Match struct {
	// Sheet is the match; its Cells map every JSON pointer read to its
	// cell. Ruleset, HandsPlanned, Kind and VPTable come from the
	// Tournament sheet or the Options.
	Sheet domain.Sheet
	// Worksheet and Cell say where the match starts: the first hand row's
	// first cell (tidy) or the hand header row's first cell (paper).
	Worksheet string
	Cell      string
	// Err is set when the match itself could not be read (hands numbered
	// twice, pair ids that disagree, results without hands ...): a
	// *CellError naming the cell. Sheet is then incomplete. A cell whose
	// value cannot be read fails the whole Read instead.
	Err error
}

// Origin is where the match starts, "Smazzate!A5".
func (m Match) Origin() string {
	if m.Cell == "" {
		return quoteSheet(m.Worksheet)
	}
	return quoteSheet(m.Worksheet) + "!" + m.Cell
}

// ReadFile reads the workbook in the named file.
func ReadFile(name string, opts Options) (*Workbook, error) {
	fh, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	size := int64(-1)
	if st, err := fh.Stat(); err == nil {
		size = st.Size()
	}
	return Read(fh, size, opts)
}

// Read reads a workbook of at most opts.MaxBytes from r. size is the
// declared size when known (e.g. from the upload), -1 otherwise; r is never
// read past the limit. It fails with an error wrapping ErrTooLarge,
// ErrNotWorkbook or ErrLayout, or with a *CellError naming the cell whose
// value cannot be read — a number, an enumerated value, a setting; all wrap
// domain.ErrInvalid. A match that is readable cell by cell but not as a
// whole has its own Match.Err.
func Read(r io.Reader, size int64, opts Options) (wb *Workbook, err error) {
	lim := opts.limits()
	data, err := readUpload(r, size, lim)
	if err != nil {
		return nil, err
	}
	return readBytes(data, opts, lim)
}

// readUpload reads an upload of at most lim.bytes.
func readUpload(r io.Reader, size int64, lim limits) ([]byte, error) {
	if size > lim.bytes {
		return nil, wbErr(ErrTooLarge, "xlsx.bytes", size, lim.bytes)
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(max(size, 0), lim.bytes)+bytes.MinRead))
	_, err := buf.ReadFrom(io.LimitReader(r, lim.bytes+1))
	data := buf.Bytes()
	if err != nil {
		return nil, fmt.Errorf("reading the workbook: %w", err)
	}
	if int64(len(data)) > lim.bytes {
		return nil, wbErr(ErrTooLarge, "xlsx.over_bytes", lim.bytes)
	}
	return data, nil
}

func readBytes(data []byte, opts Options, lim limits) (wb *Workbook, err error) {
	// excelize has panicked on malformed files before; an upload must
	// never take the service down.
	defer func() {
		if p := recover(); p != nil {
			wb, err = nil, fmt.Errorf("%w: %w", ErrNotWorkbook, &panicError{p, debug.Stack()})
		}
	}()
	f, err := openWorkbook(data, lim)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rd := &reader{f: f, lim: lim, opts: opts}
	return rd.read()
}

// openWorkbook checks the container within lim (checkContainer) and opens
// it; the caller closes the file, and recovers from excelize's panics.
func openWorkbook(data []byte, lim limits) (*excelize.File, error) {
	if err := checkContainer(data, lim); err != nil {
		return nil, err
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{
		UnzipSizeLimit:    lim.unzipped,
		UnzipXMLSizeLimit: min(lim.unzipped, maxXMLInMemory),
	})
	if err != nil {
		if f != nil {
			f.Close()
		}
		return nil, fmt.Errorf("%w: %v", ErrNotWorkbook, err)
	}
	return f, nil
}

// checkContainer recognises what the bytes are before excelize unpacks them,
// so that each wrong kind of file gets its own clear message and the zip's
// declared sizes are checked first.
func checkContainer(data []byte, lim limits) error {
	switch {
	case len(data) == 0:
		return wbErr(ErrNotWorkbook, "xlsx.file_empty")
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}):
		// The OLE container holds both password-protected .xlsx and old .xls.
		return wbErr(ErrNotWorkbook, "xlsx.ole")
	case !bytes.HasPrefix(data, []byte("PK")):
		return wbErr(ErrNotWorkbook, "xlsx.not_zip")
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%w: a truncated or damaged zip archive (%v)", ErrNotWorkbook, err)
	}
	var total uint64
	types, xl := false, false
	for _, zf := range zr.File {
		total += zf.UncompressedSize64
		if total > uint64(lim.unzipped) {
			return wbErr(ErrTooLarge, "xlsx.unzipped", lim.unzipped)
		}
		if isSharedStrings(zf) && zf.UncompressedSize64 > uint64(lim.ssBytes) {
			return fmt.Errorf("%w: %s: more than %d bytes unpacked", ErrTooLarge, zf.Name, lim.ssBytes)
		}
		name := strings.ToLower(zf.Name)
		xl = xl || strings.HasPrefix(name, "xl/")
		switch name {
		case "[content_types].xml":
			types = true
		case "mimetype":
			if zf.UncompressedSize64 < 200 {
				if rc, err := zf.Open(); err == nil {
					b, _ := io.ReadAll(io.LimitReader(rc, 200))
					rc.Close()
					if bytes.Contains(b, []byte("opendocument")) {
						return wbErr(ErrNotWorkbook, "xlsx.ods")
					}
				}
			}
		}
	}
	if !types || !xl {
		// A .docx or .pptx is a zip with content types too, but no xl/ part.
		return wbErr(ErrNotWorkbook, "xlsx.zip_not_xlsx")
	}
	// excelize ignores read errors inside the zip: a damaged entry, or one
	// larger than its header says, would be read cut short without a word.
	// Unpacking each entry once to nowhere checks its size and checksum;
	// the total is already bounded above. The shared strings are read as
	// XML on the way, within their own limits (sharedstrings.go).
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err == nil {
			if isSharedStrings(zf) {
				err = checkSharedStrings(rc, lim)
				if err == nil {
					_, err = io.Copy(io.Discard, rc) // the checksum, at the end
				}
				if err != nil && (errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNotWorkbook)) {
					rc.Close()
					return err
				}
			} else {
				_, err = io.Copy(io.Discard, rc)
			}
			rc.Close()
		}
		if err != nil {
			return fmt.Errorf("%w: a damaged zip archive (%s: %v)", ErrNotWorkbook, zf.Name, err)
		}
	}
	return nil
}

// reader reads one opened workbook.
type reader struct {
	f    *excelize.File
	lim  limits
	opts Options
	wb   Workbook
	// cells counts the non-empty cells read so far, in all sheets,
	// against lim.cells.
	cells int
}

func (rd *reader) read() (*Workbook, error) {
	names := rd.f.GetSheetList()
	if len(names) == 0 {
		return nil, wbErr(ErrNotWorkbook, "xlsx.no_worksheets")
	}
	if len(names) > rd.lim.sheet {
		return nil, wbErr(ErrTooLarge, "xlsx.worksheets", len(names), rd.lim.sheet)
	}
	special := map[string]string{} // sheetHands etc. → the first sheet of that name
	read := names[:0:0]            // the sheets that may hold data
	for _, n := range names {
		k, ok := lookup(sheetNames, n)
		if ok && k == sheetInstructions {
			continue // instructions and examples are never data
		}
		read = append(read, n)
		if ok && special[k] == "" {
			special[k] = n
		}
	}
	names = read
	if name := special[sheetTournament]; name != "" {
		g, err := readGrid(rd.f, name, rd.lim, &rd.cells)
		if err != nil {
			return nil, err
		}
		if rd.wb.Tournament, err = rd.readTournament(g); err != nil {
			return nil, err
		}
	}
	var err error
	if name := special[sheetHands]; name != "" {
		rd.wb.Layout = LayoutTidy
		for _, n := range names {
			if n != name && n != special[sheetResults] && n != special[sheetTournament] {
				rd.wb.Ignored = append(rd.wb.Ignored, fmt.Sprintf("sheet %s: not part of the tidy layout, not read", quoteSheet(n)))
			}
		}
		err = rd.readTidy(name, special[sheetResults])
	} else {
		rd.wb.Layout = LayoutPaper
		err = rd.readPaper(names, special[sheetTournament])
	}
	if err != nil {
		return nil, err
	}
	return &rd.wb, nil
}

// settings are the match settings every sheet of the workbook shares, from
// the Tournament sheet or the Options.
type settings struct {
	ruleset      domain.Ruleset
	handsPlanned int
	kind         domain.Kind
	vpTable      domain.VPTable
	name         string
	cells        map[string]string // JSON pointer → cell
}

// settings resolves the shared settings; the ruleset and the planned hands
// are required (API §1), never guessed (RULES §2).
func (rd *reader) settings() (settings, error) {
	t := rd.wb.Tournament
	s := settings{ruleset: t.Ruleset, handsPlanned: t.HandsPlanned, kind: t.Kind, vpTable: t.VPTable, name: t.Name, cells: map[string]string{}}
	if s.ruleset == "" {
		if rd.opts.Ruleset == "" {
			return s, wbErr(ErrLayout, "xlsx.no_ruleset")
		}
		r, err := domain.ParseRuleset(string(rd.opts.Ruleset))
		if err != nil {
			return s, err
		}
		s.ruleset = r
	}
	if s.handsPlanned == 0 {
		if rd.opts.HandsPlanned == 0 {
			return s, wbErr(ErrLayout, "xlsx.no_hands_planned")
		}
		s.handsPlanned = rd.opts.HandsPlanned
	}
	if s.kind == "" {
		s.kind = rd.opts.Kind
	}
	if s.kind == "" {
		s.kind = domain.KindPairs
	}
	for key, ptr := range map[string]string{kRuleset: "/ruleset", kHandsPlanned: "/hands_planned", kKind: "/kind", kVPTable: "/vp_table", kName: "/tournament"} {
		if c, ok := t.Cells[key]; ok {
			s.cells[ptr] = c
		}
	}
	return s, nil
}

// newSheet starts a sheet with the shared settings.
func (s settings) newSheet() domain.Sheet {
	sh := domain.Sheet{
		Ruleset:      s.ruleset,
		HandsPlanned: s.handsPlanned,
		Kind:         s.kind,
		VPTable:      s.vpTable,
		Tournament:   s.name,
		Cells:        make(map[string]string, 48),
	}
	for p, c := range s.cells {
		sh.Cells[p] = c
	}
	return sh
}

// isPanic reports whether err is a recovered reader panic (for tests).
func isPanic(err error) (*panicError, bool) {
	var p *panicError
	ok := errors.As(err, &p)
	return p, ok
}
