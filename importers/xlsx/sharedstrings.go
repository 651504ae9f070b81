package xlsx

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Shared-strings limits. A score sheet cell is a number or a name, and a
// workbook repeats the same few words ("chiusura", "sì", player names):
// excelize, though, loads the whole shared-strings part and hands every
// cell that points into it a copy of the string, so one 95 MB string
// referenced by a thousand cells, or five million tiny strings, costs
// gigabytes. The part is inspected with a streaming, bounded XML read
// before excelize sees the file.
const (
	// sharedStringsPart is the only part excelize reads shared strings
	// from (matched case-insensitively, as excelize does).
	sharedStringsPart = "xl/sharedStrings.xml"

	DefaultMaxSharedStrings     = 100_000 // <si> items in xl/sharedStrings.xml
	DefaultMaxSharedStringBytes = 8 << 20 // the part, unpacked
	DefaultMaxCellText          = 1_000   // bytes of text in one cell (shared or inline)
	DefaultMaxCells             = 1_000_000
)

// checkSharedStrings reads a shared-strings part as a stream and fails with
// an error wrapping ErrTooLarge naming the part when it holds more than
// lim.strings items, more than lim.ssBytes bytes, or an item longer than
// lim.cellText bytes; malformed XML wraps ErrNotWorkbook. It holds at most
// lim.ssBytes bytes of the part in memory, whatever the part's size.
func checkSharedStrings(r io.Reader, lim limits) error {
	lr := &io.LimitedReader{R: r, N: lim.ssBytes + 1}
	runs := &runLimitReader{r: lr, max: maxRun(lim)}
	dec := xml.NewDecoder(runs)
	dec.Strict = true
	var (
		count   int
		inSI    bool
		inText  int   // depth inside <t> elements of the current item
		itemLen int64 // text bytes of the current item
	)
	over := func() error {
		return fmt.Errorf("%w: %s: more than %d bytes unpacked", ErrTooLarge, sharedStringsPart, lim.ssBytes)
	}
	for {
		tok, err := dec.RawToken()
		if lr.N <= 0 {
			return over()
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, errLongRun) {
			if inSI {
				return fmt.Errorf("%w: %s: string %d is longer than %d bytes (a score sheet cell holds a number or a name)",
					ErrTooLarge, sharedStringsPart, count, lim.cellText)
			}
			return fmt.Errorf("%w: %s: more than %d bytes without markup", ErrTooLarge, sharedStringsPart, runs.max)
		}
		if err != nil {
			return fmt.Errorf("%w: %s: %v", ErrNotWorkbook, sharedStringsPart, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				if count++; count > lim.strings {
					return fmt.Errorf("%w: %s: more than %d strings", ErrTooLarge, sharedStringsPart, lim.strings)
				}
				inSI, itemLen = true, 0
			case "t":
				if inSI {
					inText++
				}
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				inSI, inText = false, 0
			case "t":
				inText = max(inText-1, 0)
			}
		case xml.CharData:
			if inText > 0 {
				if itemLen += int64(len(t)); itemLen > int64(lim.cellText) {
					return fmt.Errorf("%w: %s: string %d is longer than %d bytes (a score sheet cell holds a number or a name)",
						ErrTooLarge, sharedStringsPart, count, lim.cellText)
				}
			}
		}
	}
}

// errLongRun: too many bytes between two '<'.
var errLongRun = errors.New("too long without markup")

// maxRun bounds the bytes between two '<' in the part: every token the XML
// decoder builds (a text, a tag with its attributes) lies between two, so
// the decoder never buffers more than this for one token, however long
// the text. An item's decoded text is never longer than its raw bytes
// (an entity is longer than the character it stands for), so a raw run
// of 8 times the item limit only refuses items the limit refuses anyway.
func maxRun(lim limits) int {
	return max(8*lim.cellText, 64<<10)
}

// runLimitReader fails with errLongRun when more than max bytes pass
// without a '<'.
type runLimitReader struct {
	r   io.Reader
	max int
	run int
}

func (l *runLimitReader) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '<' {
			l.run = 0
		} else if l.run++; l.run > l.max {
			return 0, errLongRun
		}
	}
	return n, err
}

// isSharedStrings reports whether a zip entry is the part excelize reads
// shared strings from.
func isSharedStrings(zf *zip.File) bool {
	return strings.EqualFold(zf.Name, sharedStringsPart)
}
