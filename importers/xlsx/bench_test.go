package xlsx

import (
	"bytes"
	"math/rand"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// benchMatches is the size of the benchmark workbook: 1,000 matches of 3
// hands (3,000 hand rows), about a season of a club's tournaments.
const benchMatches = 1000

var benchWorkbook = sync.OnceValues(func() ([]byte, error) { return generateWorkbook(benchMatches, 3) })

// generateWorkbook writes a tidy workbook of the given matches with
// excelize's StreamWriter: numbers as numbers, written results computed by
// RULES §6, so every match validates.
func generateWorkbook(matches, hands int) ([]byte, error) {
	rng := rand.New(rand.NewSource(7))
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Smazzate"); err != nil {
		return nil, err
	}
	for _, s := range []string{"Risultati", "Torneo"} {
		if _, err := f.NewSheet(s); err != nil {
			return nil, err
		}
	}
	hw, err := f.NewStreamWriter("Smazzate")
	if err != nil {
		return nil, err
	}
	rw, err := f.NewStreamWriter("Risultati")
	if err != nil {
		return nil, err
	}
	row := func(w *excelize.StreamWriter, r int, values ...any) error {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		return w.SetRow(cell, values)
	}
	hh := []any{"Turno", "Tavolo", "Smazzata", "NS", "EO", "NS Base", "NS Punti", "NS Totale", "EO Base", "EO Punti", "EO Totale"}
	if err := row(hw, 1, hh...); err != nil {
		return nil, err
	}
	if err := row(rw, 1, "Turno", "Tavolo", "NS Totale", "EO Totale", "NS MP", "EO MP", "NS VP", "EO VP"); err != nil {
		return nil, err
	}
	table := domain.ChooseVPTable(domain.FITAB2025, domain.KindPairs, hands, hands, domain.VPTable{})
	bases := []int{0, 100, 150, 200, 250, 300, 350, 400, 450, 500}
	hr := 2
	for m := 0; m < matches; m++ {
		round, tbl := m/50+1, m%50+1
		var total [2]int
		for h := 1; h <= hands; h++ {
			var base, points [2]int
			for l := range 2 {
				base[l] = bases[rng.Intn(len(bases))]
				points[l] = 5 * (rng.Intn(60) - 10)
				total[l] += base[l] + points[l]
			}
			if err := row(hw, hr, round, tbl, h, tbl*2-1, tbl*2,
				base[0], points[0], base[0]+points[0], base[1], points[1], base[1]+points[1]); err != nil {
				return nil, err
			}
			hr++
		}
		diff := total[0] - total[1]
		win, lose := table.Lookup(diff)
		vp := [2]int{win, lose}
		if diff < 0 {
			vp = [2]int{lose, win}
		}
		if err := row(rw, m+2, round, tbl, total[0], total[1], diff, -diff, vp[0], vp[1]); err != nil {
			return nil, err
		}
	}
	if err := hw.Flush(); err != nil {
		return nil, err
	}
	if err := rw.Flush(); err != nil {
		return nil, err
	}
	for i, kv := range [][2]any{{"ruleset", "fitab-2025"}, {"hands_planned", hands}, {"name", "Benchmark"}} {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Torneo", cell, &[]any{kv[0], kv[1]}); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	err = f.Write(&buf)
	return buf.Bytes(), err
}

func TestBenchmarkWorkbookImportsCleanly(t *testing.T) {
	data, err := generateWorkbook(40, 3)
	if err != nil {
		t.Fatal(err)
	}
	wb := mustRead(t, data, Options{})
	if len(wb.Matches) != 40 {
		t.Fatalf("%d matches", len(wb.Matches))
	}
	for _, m := range wb.Matches {
		if len(m.Sheet.Hands) != 3 {
			t.Fatalf("%s: %d hands", m.Origin(), len(m.Sheet.Hands))
		}
		for _, f := range domain.Validate(m.Sheet).Findings {
			if f.Code == domain.VPMismatch || f.Code == domain.MPMismatch || f.Code == domain.FinalTotalMismatch || f.Code == domain.HandTotalMismatch {
				t.Errorf("%s: %s %s", m.Origin(), f.Code, f.MessageEN)
			}
		}
	}
}

// BenchmarkRead: the import of the 1,000-match workbook, validation of
// every match included (the work of an upload before storage).
func BenchmarkRead(b *testing.B) {
	data, err := benchWorkbook()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		wb, err := Read(bytes.NewReader(data), int64(len(data)), Options{})
		if err != nil || len(wb.Matches) != benchMatches {
			b.Fatalf("read: %v", err)
		}
		for _, m := range wb.Matches {
			if m.Err != nil {
				b.Fatal(m.Err)
			}
			_ = domain.Validate(m.Sheet)
		}
	}
}

// BenchmarkReadNoValidate: the import alone.
func BenchmarkReadNoValidate(b *testing.B) {
	data, err := benchWorkbook()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(data), int64(len(data)), Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareExcelizeRows: what excelize alone costs to open the same
// workbook and stream every row of every sheet — the floor for Read.
func BenchmarkBareExcelizeRows(b *testing.B) {
	data, err := benchWorkbook()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	defer reportCPU(b)()
	for b.Loop() {
		f, err := excelize.OpenReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		cells := 0
		for _, s := range f.GetSheetList() {
			rows, err := f.Rows(s)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
				cols, err := rows.Columns()
				if err != nil {
					b.Fatal(err)
				}
				cells += len(cols)
			}
			rows.Close()
		}
		f.Close()
		if cells < benchMatches*3*11 {
			b.Fatalf("%d cells", cells)
		}
	}
}

// reportCPU reports the process CPU time per operation (user + system, GC
// included): on a shared machine the wall time of ns/op also counts the
// time other processes held the cores.
func reportCPU(b *testing.B) func() {
	cpu := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			return 0
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := cpu()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpu()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}
