package xlsx

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"segnapunti/domain"
)

// bombSheet is a tidy Smazzate sheet whose n data cells all point at the
// shared string idx: the header row is inline text.
func bombSheet(n, idx int) string {
	var sd strings.Builder
	sd.WriteString(`<row r="1">` + strCell("A1", "Turno") + strCell("B1", "Tavolo") + strCell("C1", "NS Base") +
		strCell("D1", "NS Punti") + strCell("E1", "EO Base") + strCell("F1", "EO Punti") + `</row>`)
	for r := 2; n > 0; r++ {
		fmt.Fprintf(&sd, `<row r="%d">`, r)
		for c := 1; c <= 6 && n > 0; c, n = c+1, n-1 {
			fmt.Fprintf(&sd, `<c r="%s" t="s"><v>%d</v></c>`, cellName(c, r), idx)
		}
		sd.WriteString(`</row>`)
	}
	return sd.String()
}

// withSharedStrings adds an xl/sharedStrings.xml part written by body to
// a workbook. header, when set, is the entry's declared size (a lying
// header; the data is then stored raw-deflated by hand).
func withSharedStrings(t testing.TB, wb []byte, body func(w io.Writer), header uint64) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(wb), int64(len(wb)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	for _, f := range zr.File {
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`
	write := func(w io.Writer) {
		bw := newChunkWriter(w)
		io.WriteString(bw, head)
		body(bw)
		io.WriteString(bw, `</sst>`)
		bw.flush()
	}
	if header == 0 {
		w, err := zw.Create(sharedStringsPart)
		if err != nil {
			t.Fatal(err)
		}
		write(w)
	} else {
		var raw bytes.Buffer
		fw, _ := flate.NewWriter(&raw, flate.BestSpeed)
		write(fw)
		fw.Close()
		w, err := zw.CreateRaw(&zip.FileHeader{Name: sharedStringsPart, Method: zip.Deflate,
			CompressedSize64: uint64(raw.Len()), UncompressedSize64: header})
		if err != nil {
			t.Fatal(err)
		}
		w.Write(raw.Bytes())
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// chunkWriter batches small writes into the compressor.
type chunkWriter struct {
	w   io.Writer
	buf []byte
}

func newChunkWriter(w io.Writer) *chunkWriter { return &chunkWriter{w: w, buf: make([]byte, 0, 1<<20)} }

func (c *chunkWriter) Write(p []byte) (int, error) {
	if len(c.buf)+len(p) > cap(c.buf) {
		c.flush()
	}
	if len(p) > cap(c.buf) {
		return c.w.Write(p)
	}
	c.buf = append(c.buf, p...)
	return len(p), nil
}

func (c *chunkWriter) flush() { c.w.Write(c.buf); c.buf = c.buf[:0] }

// oneHugeString: one shared string of n bytes.
func oneHugeString(n int) func(io.Writer) {
	return func(w io.Writer) {
		io.WriteString(w, `<si><t>`)
		chunk := strings.Repeat("9", 1<<20)
		for ; n > 0; n -= len(chunk) {
			io.WriteString(w, chunk[:min(n, len(chunk))])
		}
		io.WriteString(w, `</t></si>`)
	}
}

// manyTinyStrings: n one-letter shared strings.
func manyTinyStrings(n int) func(io.Writer) {
	return func(w io.Writer) {
		for range n {
			io.WriteString(w, `<si><t>a</t></si>`)
		}
	}
}

// bomb is one of the two known shared-strings bombs.
type bomb struct {
	name   string
	data   []byte
	opts   Options
	want   error
	detail string
}

func sharedStringBombs(t testing.TB) []bomb {
	const hugeLen = 95 << 20
	const tiny = 5_300_000
	huge := withSharedStrings(t, rawWorkbookXML(t, []string{"Smazzate"}, []string{bombSheet(1000, 0)}), oneHugeString(hugeLen), 0)
	many := withSharedStrings(t, rawWorkbookXML(t, []string{"Smazzate"}, []string{bombSheet(1, tiny-1)}), manyTinyStrings(tiny), 0)
	liar := withSharedStrings(t, rawWorkbookXML(t, []string{"Smazzate"}, []string{bombSheet(1000, 0)}), oneHugeString(hugeLen), 1000)
	raised := Options{MaxSharedStringBytes: 256 << 20, MaxUnzippedBytes: 256 << 20}
	return []bomb{
		// The declared size of the part is over the limit: refused from
		// the zip directory, nothing unpacked.
		{"one 95 MB string, 1000 cells", huge, Options{}, ErrTooLarge, "xl/sharedStrings.xml: more than 8388608 bytes unpacked"},
		{"5.3 million tiny strings", many, Options{}, ErrTooLarge, "xl/sharedStrings.xml: more than 8388608 bytes unpacked"},
		// The header lies: the read stops where the header says the part
		// ends (the zip reader refuses more).
		{"one 95 MB string, header says 1000 bytes", liar, Options{}, ErrNotWorkbook, "xl/sharedStrings.xml: zip: not a valid zip file"},
		// With the byte limit raised, the item and count limits still hold.
		{"one 95 MB string, byte limit raised", huge, raised, ErrTooLarge, "xl/sharedStrings.xml: string 1 is longer than 1000 bytes"},
		{"5.3 million tiny strings, byte limit raised", many, raised, ErrTooLarge, "xl/sharedStrings.xml: more than 100000 strings"},
	}
}

// A shared-strings bomb is refused before excelize loads it,
// with an error naming the part, in bounded memory.
func TestSharedStringsBombsAreRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two 95 MB shared-strings parts")
	}
	for _, b := range sharedStringBombs(t) {
		t.Run(b.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := readWorkbook(t, b.data, b.opts)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			alloc := after.TotalAlloc - before.TotalAlloc
			t.Logf("%d-byte file: %v in %v, %d KiB allocated", len(b.data), err, elapsed, alloc>>10)
			if !errors.Is(err, b.want) || !errors.Is(err, domain.ErrInvalid) || !strings.Contains(err.Error(), b.detail) {
				t.Errorf("error %v; want %v with %q", err, b.want, b.detail)
			}
			// Budget: 32 MiB whatever the limits, plus the upload itself.
			// The XML decoder never holds more than one run between two
			// '<' (maxRun), and stops at the first item over a limit.
			if budget := uint64(len(b.data)) + 32<<20; alloc > budget {
				t.Errorf("allocated %d bytes, over the budget of %d", alloc, budget)
			}
		})
	}
}

// Shared strings within the limits read as before: names and words.
func TestSharedStringsWithinLimitsAreRead(t *testing.T) {
	sheet := `<row r="1">` + strCell("A1", "Turno") + strCell("B1", "Tavolo") + strCell("C1", "NS Base") +
		strCell("D1", "NS Punti") + strCell("E1", "EO Base") + strCell("F1", "EO Punti") + strCell("G1", "Fine") + `</row>` +
		`<row r="2">` + numCell("A2", "1") + numCell("B2", "1") + numCell("C2", "300") + numCell("D2", "100") +
		numCell("E2", "0") + numCell("F2", "20") + `<c r="G2" t="s"><v>1</v></c></row>`
	data := withSharedStrings(t, rawWorkbookXML(t, []string{"Smazzate"}, []string{sheet}), func(w io.Writer) {
		io.WriteString(w, `<si><t>Rossi Anna</t></si><si><r><t>chiu</t></r><r><t>sura</t></r></si>`)
	}, 0)
	wb := mustRead(t, data, Options{Ruleset: domain.FITAB2025, HandsPlanned: 3, MaxSharedStrings: 2, MaxCellText: 10})
	if len(wb.Matches) != 1 || len(wb.Matches[0].Sheet.Hands) != 1 || wb.Matches[0].Sheet.Hands[0].End != domain.EndClosed {
		t.Fatalf("read %+v", wb.Matches)
	}
	// One string more than the limit, or one byte longer, is refused.
	for _, o := range []Options{{MaxSharedStrings: 1}, {MaxCellText: 9}} {
		o.Ruleset, o.HandsPlanned = domain.FITAB2025, 3
		if _, err := readWorkbook(t, data, o); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), sharedStringsPart) {
			t.Errorf("%+v: error %v, want ErrTooLarge naming %s", o, err, sharedStringsPart)
		}
	}
}

// An inline string cell is held to the same length, and all cells to a
// count; the error names the cell.
func TestCellTextAndCellCountLimits(t *testing.T) {
	long := strings.Repeat("x", 1001)
	data := rawWorkbook(t, rawSheet{"Smazzate", [][]string{{strCell("A1", "Turno"), strCell("B1", long)}}})
	if _, err := readWorkbook(t, data, Options{}); !errors.Is(err, ErrTooLarge) || cellErrorRef(err) != "Smazzate!B1" {
		t.Errorf("1001-byte cell: error %v, want ErrTooLarge naming Smazzate!B1", err)
	}
	data = rawWorkbook(t, rawSheet{"Smazzate", [][]string{{strCell("A1", "Turno"), strCell("B1", "Tavolo")}, {numCell("A2", "1"), numCell("B2", "1")}}})
	if _, err := readWorkbook(t, data, Options{MaxCells: 3}); !errors.Is(err, ErrTooLarge) || cellErrorRef(err) != "Smazzate!B2" {
		t.Errorf("4 cells over a cap of 3: error %v, want ErrTooLarge naming Smazzate!B2", err)
	}
}

func BenchmarkSharedStringsBombs(b *testing.B) {
	for _, bm := range sharedStringBombs(b) {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Read(bytes.NewReader(bm.data), int64(len(bm.data)), bm.opts); !errors.Is(err, bm.want) {
					b.Fatal(err)
				}
			}
		})
	}
}
