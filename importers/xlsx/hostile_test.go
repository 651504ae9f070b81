package xlsx

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// Untrusted files are bounded before they are read (STYLE.md habit 10): each
// hostile upload is a clear error, quickly, with bounded memory, never a
// panic.

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixturesDir, name))
	if err != nil {
		t.Skipf("fixture not available: %v", err)
	}
	return b
}

// zipOf zips the named entries (in order) with the given compression level.
func zipOf(t testing.TB, level int, entries ...[2]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, level) })
	for _, e := range entries {
		w, err := zw.Create(e[0])
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, e[1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`

func encryptedWorkbook(t testing.TB) []byte {
	f := excelize.NewFile()
	defer f.Close()
	f.SetCellValue("Sheet1", "A1", "Smazzata")
	var buf bytes.Buffer
	if err := f.Write(&buf, excelize.Options{Password: "segreto"}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestHostileFiles(t *testing.T) {
	tidy := fixture(t, "tidy_fitab2025.xlsx")
	corrupt := bytes.Clone(tidy)
	// Flip bytes inside the first entry's compressed data: the central
	// directory is intact, the content is not.
	for i := 100; i < 140; i++ {
		corrupt[i] ^= 0xA5
	}
	cases := []struct {
		name   string
		data   []byte
		opts   Options
		want   error
		detail string
	}{
		{"empty file", nil, Options{}, ErrNotWorkbook, "empty"},
		{"renamed text file", []byte("Turno;Tavolo;NS Base\n1;1;300\n"), Options{}, ErrNotWorkbook, "not an .xlsx file"},
		{"renamed HTML", []byte("<html><table><tr><td>1</td></tr></table></html>"), Options{}, ErrNotWorkbook, "not an .xlsx file"},
		{"truncated zip", tidy[:len(tidy)/2], Options{}, ErrNotWorkbook, "truncated or damaged"},
		{"zip cut before its end record", tidy[:len(tidy)-10], Options{}, ErrNotWorkbook, "truncated or damaged"},
		{"damaged entry", corrupt, Options{}, ErrNotWorkbook, "damaged"},
		{"encrypted workbook", encryptedWorkbook(t), Options{}, ErrNotWorkbook, "password-protected"},
		{"legacy .xls header", append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 512)...), Options{}, ErrNotWorkbook, "old .xls"},
		{"OpenDocument spreadsheet", zipOf(t, flate.DefaultCompression, [2]string{"mimetype", "application/vnd.oasis.opendocument.spreadsheet"}, [2]string{"content.xml", "<x/>"}), Options{}, ErrNotWorkbook, ".ods"},
		{"some other zip", zipOf(t, flate.DefaultCompression, [2]string{"readme.txt", "hello"}), Options{}, ErrNotWorkbook, "not an .xlsx workbook"},
		{"a Word document", zipOf(t, flate.DefaultCompression, [2]string{"[Content_Types].xml", contentTypes}, [2]string{"word/document.xml", "<w:document/>"}), Options{}, ErrNotWorkbook, "not an .xlsx workbook"},
		{"a workbook without sheets", zipOf(t, flate.DefaultCompression, [2]string{"[Content_Types].xml", contentTypes}, [2]string{"xl/workbook.xml", "<workbook/>"}), Options{}, ErrNotWorkbook, ""},
		{"PK then noise", append([]byte("PK\x03\x04"), bytes.Repeat([]byte{0x17}, 300)...), Options{}, ErrNotWorkbook, "truncated or damaged"},
		{"over the byte limit", tidy, Options{MaxBytes: 1000}, ErrTooLarge, "over the limit of 1000"},
		{"too many sheets", buildWorkbook(t, sheetSpec{"a", nil}, sheetSpec{"b", nil}, sheetSpec{"c", nil}), Options{MaxSheets: 2}, ErrTooLarge, "3 worksheets"},
		{"too many rows", tidy, Options{MaxRows: 20}, ErrTooLarge, "more than 20 rows"},
		{"too many columns", tidy, Options{MaxColumns: 5}, ErrTooLarge, "Smazzate!F1: a value beyond the first 5 columns"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wb, err := readWorkbook(t, c.data, c.opts)
			if err == nil {
				t.Fatalf("read succeeded with %d matches", len(wb.Matches))
			}
			if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.detail) {
				t.Errorf("error %q; want %v with %q", err, c.want, c.detail)
			}
			if !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("error %v does not wrap domain.ErrInvalid", err)
			}
		})
	}
}

func TestDeclaredSizeBeyondTheLimitIsRefused(t *testing.T) {
	// A zip bomb: the entry says it unpacks to 1 TiB. Nothing is unpacked.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, err := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CompressedSize64: 2, UncompressedSize64: 1 << 40})
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte{0x03, 0x00})
	zw.Close()
	_, err = readWorkbook(t, buf.Bytes(), Options{})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "unpacks to more than") {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
}

func TestZipBombIsRefused(t *testing.T) {
	// 24 MiB of zeros compress to about 100 KiB.
	zeros := strings.Repeat("\x00", 24<<20)
	bomb := zipOf(t, flate.BestSpeed, [2]string{"[Content_Types].xml", contentTypes}, [2]string{"xl/worksheets/sheet1.xml", zeros})
	t.Logf("bomb: %d bytes, unpacks to %d", len(bomb), len(zeros))
	_, err := readWorkbook(t, bomb, Options{MaxUnzippedBytes: 16 << 20})
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v, want ErrTooLarge", err)
	}
}

func TestEntryLargerThanItsHeaderSaysIsRefused(t *testing.T) {
	// The header says 1 KiB; the data unpacks to 32 MiB. excelize would
	// read it cut short without an error.
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestCompression)
	fw.Write(make([]byte, 32<<20))
	fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	ct, _ := zw.Create("[Content_Types].xml")
	io.WriteString(ct, contentTypes)
	w, _ := zw.CreateRaw(&zip.FileHeader{Name: "xl/worksheets/sheet1.xml", Method: zip.Deflate,
		CompressedSize64: uint64(raw.Len()), UncompressedSize64: 1024})
	w.Write(raw.Bytes())
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := readWorkbook(t, buf.Bytes(), Options{})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrNotWorkbook) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("error %v, want a damaged archive", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("allocated %d bytes reading a 1 KiB entry", alloc)
	}
}

// hugeSheet zips a workbook whose only sheet has the given number of rows,
// written as a stream.
func hugeSheet(t testing.TB, rows int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	add := func(name, body string) {
		w, _ := zw.Create(name)
		io.WriteString(w, body)
	}
	tmpl := rawWorkbook(t, rawSheet{"Smazzate", nil})
	zr, _ := zip.NewReader(bytes.NewReader(tmpl), int64(len(tmpl)))
	for _, f := range zr.File {
		if f.Name == "xl/worksheets/sheet1.xml" {
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		add(f.Name, string(b))
	}
	w, _ := zw.Create("xl/worksheets/sheet1.xml")
	bw := &bytes.Buffer{}
	bw.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	bw.WriteString(`<row r="1"><c r="A1" t="inlineStr"><is><t>Turno</t></is></c></row>`)
	var line []byte
	for r := 2; r <= rows; r++ {
		n := strconv.AppendInt(nil, int64(r), 10)
		line = append(line[:0], `<row r="`...)
		line = append(line, n...)
		line = append(line, `"><c r="A`...)
		line = append(line, n...)
		line = append(line, `"><v>1</v></c></row>`...)
		bw.Write(line)
		if bw.Len() > 1<<20 {
			w.Write(bw.Bytes())
			bw.Reset()
		}
	}
	bw.WriteString(`</sheetData></worksheet>`)
	w.Write(bw.Bytes())
	zw.Close()
	return buf.Bytes()
}

func TestMillionRowSheetIsRefusedQuickly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 1,000,000-row sheet")
	}
	start0 := time.Now()
	data := hugeSheet(t, 1_000_000)
	t.Logf("built in %v", time.Since(start0))
	if os.Getenv("XLSX_PROFILE") != "" {
		os.WriteFile("/tmp/xlsxdump/million.xlsx", data, 0o644)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	_, err := readWorkbook(t, data, Options{MaxBytes: 64 << 20})
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	t.Logf("%d-byte file: %v in %v, %d MiB allocated", len(data), err, elapsed, (after.TotalAlloc-before.TotalAlloc)>>20)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than 20000 rows") {
		t.Errorf("error %v, want ErrTooLarge (rows)", err)
	}
}

func TestEmptyRowsBeyondTheCapAreTolerated(t *testing.T) {
	// Formatting-only rows past the data are not data; up to the cap of
	// them is tolerated.
	rows := [][]string{
		{strCell("A1", "Turno"), strCell("B1", "Tavolo"), strCell("C1", "NS Base"), strCell("D1", "NS Punti"), strCell("E1", "EO Base"), strCell("F1", "EO Punti")},
		{numCell("A2", "1"), numCell("B2", "1"), numCell("C2", "300"), numCell("D2", "100"), numCell("E2", "0"), numCell("F2", "20")},
	}
	for range 30 {
		rows = append(rows, nil)
	}
	data := rawWorkbook(t, rawSheet{"Smazzate", rows})
	wb := mustRead(t, data, Options{MaxRows: 20, Ruleset: domain.FITAB2025, HandsPlanned: 3})
	if len(wb.Matches) != 1 {
		t.Errorf("%d matches", len(wb.Matches))
	}
	rows = append(rows, []string{numCell("A33", "1")})
	if _, err := readWorkbook(t, rawWorkbook(t, rawSheet{"Smazzate", rows}), Options{MaxRows: 20, Ruleset: domain.FITAB2025, HandsPlanned: 3}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a value in row 33 of a 20-row cap: error %v, want ErrTooLarge", err)
	}
}

func TestFarColumnIsRefused(t *testing.T) {
	data := rawWorkbook(t, rawSheet{"Smazzate", [][]string{{strCell("A1", "Turno"), strCell("XFD1", "x")}}})
	_, err := readWorkbook(t, data, Options{})
	if !errors.Is(err, ErrTooLarge) || cellErrorRef(err) != "Smazzate!XFD1" {
		t.Errorf("error %v, want ErrTooLarge naming Smazzate!XFD1", err)
	}
}

func TestDeclaredSizeOverTheLimitIsRefusedUnread(t *testing.T) {
	r := &countingReader{}
	_, err := Read(r, 1<<30, Options{})
	if !errors.Is(err, ErrTooLarge) || r.n != 0 {
		t.Errorf("error %v after reading %d bytes; want ErrTooLarge before reading", err, r.n)
	}
	// An endless body is read only up to the limit.
	r = &countingReader{endless: true}
	_, err = Read(r, -1, Options{MaxBytes: 1 << 20})
	if !errors.Is(err, ErrTooLarge) || r.n > 1<<20+1 {
		t.Errorf("error %v after reading %d bytes", err, r.n)
	}
}

type countingReader struct {
	n       int
	endless bool
}

func (r *countingReader) Read(p []byte) (int, error) {
	if !r.endless {
		return 0, io.EOF
	}
	r.n += len(p)
	return len(p), nil
}

// Every prefix of a real workbook is an error or a workbook, never a panic.
func TestTruncationsNeverPanic(t *testing.T) {
	data := fixture(t, "paper_fitabint.xlsx")
	for n := 0; n < len(data); n += 97 {
		wb, err := readWorkbook(t, data[:n], Options{})
		if err == nil && wb == nil {
			t.Fatalf("prefix %d: no workbook and no error", n)
		}
	}
}
