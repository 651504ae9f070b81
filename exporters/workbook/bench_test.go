package workbook

import (
	"io"
	"iter"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// Season benchmark size: a season of 1,000,000 player-tournament rows
// (about 50,000 players in 20 tournaments each), fixed whatever b.N.
const (
	seasonRows    = 1_000_000
	seasonPlayers = 50_000
)

// seasonPool holds the strings the generated rows cycle through, so the
// benchmarks time the writers, not string formatting.
type seasonPool struct {
	players, members, clubs, tournaments []string
	dates                                []time.Time
}

func newSeasonPool() seasonPool {
	p := seasonPool{}
	for i := range 1000 {
		p.players = append(p.players, "Giocatore "+strconv.Itoa(i))
		p.members = append(p.members, "FT"+strconv.Itoa(100000+i))
	}
	for i := range 100 {
		p.clubs = append(p.clubs, "Circolo "+strconv.Itoa(i))
		p.tournaments = append(p.tournaments, "Torneo "+strconv.Itoa(i))
		p.dates = append(p.dates, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i*3))
	}
	return p
}

func (p seasonPool) row(i int) SeasonRow {
	return SeasonRow{
		Player: p.players[i%1000], Membership: p.members[i%1000], Club: p.clubs[i%100],
		Tournament: p.tournaments[i%100], Date: p.dates[i%100], Level: domain.LevelClub,
		Rank: i%40 + 1, VP: 40 + i%60, MP: i%3000 - 1500,
	}
}

func (p seasonPool) total(i int) SeasonTotal {
	return SeasonTotal{
		Player: p.players[i%1000], Membership: p.members[i%1000], Club: p.clubs[i%100],
		Tournaments: 20, VP: 1000 + i%500, MP: i%9000 - 4500, BestRank: i%40 + 1,
	}
}

func (p seasonPool) rows() iter.Seq2[SeasonRow, error] {
	return func(yield func(SeasonRow, error) bool) {
		for i := range seasonRows {
			if !yield(p.row(i), nil) {
				return
			}
		}
	}
}

func (p seasonPool) totals() iter.Seq2[SeasonTotal, error] {
	return func(yield func(SeasonTotal, error) bool) {
		for i := range seasonPlayers {
			if !yield(p.total(i), nil) {
				return
			}
		}
	}
}

// countingWriter measures the archive without keeping it.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// peakRSS tracks the process's peak resident set (VmHWM), reset at start
// through /proc/self/clear_refs (Linux ≥ 4.0); 0 where that is missing.
type peakRSS struct{ ok bool }

func startPeakRSS() peakRSS {
	runtime.GC()
	return peakRSS{ok: os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil}
}

func (p peakRSS) report(b *testing.B) {
	if !p.ok {
		return
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			if err == nil {
				b.ReportMetric(float64(kb)/1024, "peak-RSS-MB")
			}
		}
	}
}

// cpuTime is the process's user+system CPU time: on a shared machine it
// compares two writers better than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// measure runs write b.N times and reports, besides ns/op, CPU seconds per
// op, the archive size and the peak RSS.
func measure(b *testing.B, unit string, write func(io.Writer) error) {
	rss := startPeakRSS()
	var out countingWriter
	cpu0 := cpuTime()
	for b.Loop() {
		out.n = 0
		if err := write(&out); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(out.n)/1e6, unit)
	rss.report(b)
}

// BenchmarkSeason writes the season workbook of 1,000,000 rows (goal:
// ≤ 1.3× BenchmarkRawStreamWriter, peak RSS ≤ 300 MB).
func BenchmarkSeason(b *testing.B) {
	p := newSeasonPool()
	measure(b, "xlsx-MB", func(w io.Writer) error { return WriteSeason(w, p.rows(), p.totals()) })
}

// BenchmarkRawStreamWriter writes the same cells with excelize's
// StreamWriter used directly, the way its documentation shows: the
// baseline for BenchmarkSeason.
func BenchmarkRawStreamWriter(b *testing.B) {
	p := newSeasonPool()
	measure(b, "xlsx-MB", func(w io.Writer) error { return rawSeason(w, p) })
}

func rawSeason(w io.Writer, p seasonPool) error {
	f := excelize.NewFile()
	defer f.Close()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	if err != nil {
		return err
	}
	dateFmt := "dd/mm/yyyy"
	date, err := f.NewStyle(&excelize.Style{CustomNumFmt: &dateFmt})
	if err != nil {
		return err
	}
	sheet := func(name string, header []string, n int, row func(i int, out []any)) error {
		if name != "Sheet1" {
			if _, err := f.NewSheet(name); err != nil {
				return err
			}
		}
		sw, err := f.NewStreamWriter(name)
		if err != nil {
			return err
		}
		out := make([]any, len(header))
		for i, h := range header {
			out[i] = excelize.Cell{StyleID: bold, Value: h}
		}
		if err := sw.SetRow("A1", out); err != nil {
			return err
		}
		for i := range n {
			row(i, out)
			cell, err := excelize.CoordinatesToCellName(1, i+2)
			if err != nil {
				return err
			}
			if err := sw.SetRow(cell, out); err != nil {
				return err
			}
		}
		return sw.Flush()
	}
	err = sheet("Sheet1", []string{"Giocatore", "Tessera", "Circolo", "Torneo", "Data", "Livello", "Posizione", "VP", "MP"}, seasonRows,
		func(i int, out []any) {
			r := p.row(i)
			out[0], out[1], out[2], out[3] = r.Player, r.Membership, r.Club, r.Tournament
			out[4] = excelize.Cell{StyleID: date, Value: r.Date}
			out[5], out[6], out[7], out[8] = string(r.Level), r.Rank, r.VP, r.MP
		})
	if err != nil {
		return err
	}
	err = sheet("Totali", []string{"Giocatore", "Tessera", "Circolo", "Tornei", "VP", "MP", "Miglior posizione"}, seasonPlayers,
		func(i int, out []any) {
			s := p.total(i)
			out[0], out[1], out[2] = s.Player, s.Membership, s.Club
			out[3], out[4], out[5], out[6] = s.Tournaments, s.VP, s.MP, s.BestRank
		})
	if err != nil {
		return err
	}
	return f.Write(w)
}

// bigTournament is a pairs tournament of 500 tables (1,000 pairs), 5
// rounds of 3 hands: 2,500 matches and 7,500 hands.
func bigTournament(b *testing.B) TournamentExport {
	const tables, rounds, hands = 500, 5, 3
	entrants := make([]domain.Entrant, 2*tables)
	for i := range entrants {
		id := strconv.Itoa(i + 1)
		entrants[i] = domain.Entrant{ID: id, Club: "Circolo " + strconv.Itoa(i%50), Players: []domain.Player{
			{Name: "Giocatore " + id + "a", Membership: "FT" + id + "1"},
			{Name: "Giocatore " + id + "b", Membership: "FT" + id + "2"},
		}}
	}
	var rs []domain.Round
	var ms []MatchRow
	var hs []HandRow
	for r := 1; r <= rounds; r++ {
		round := domain.Round{Number: r, HandsPlanned: hands, Phase: domain.PhaseMitchell, State: domain.RoundNextPairingPublished}
		for t := 1; t <= tables; t++ {
			ns, eo := entrants[t-1].ID, entrants[tables+(t-1+r-1)%tables].ID
			round.Tables = append(round.Tables, domain.TableAssignment{Table: t, NS: ns, EO: eo})
			m := MatchRow{Round: r, Table: t, Entrants: [2]string{ns, eo}}
			for h := 1; h <= hands; h++ {
				hr := HandRow{Round: r, Table: t, Hand: h, Entrants: m.Entrants, End: domain.EndClosed,
					Base: [2]int{300, 100}, Points: [2]int{(t * h) % 400, 120}}
				for l := range 2 {
					hr.Total[l] = hr.Base[l] + hr.Points[l]
					m.Total[l] += hr.Total[l]
				}
				hs = append(hs, hr)
			}
			m.MP = [2]int{m.Total[0] - m.Total[1], m.Total[1] - m.Total[0]}
			m.VP = [2]int{10, 10}
			ms = append(ms, m)
		}
		rs = append(rs, round)
	}
	st := make([]StandingRow, len(entrants))
	for i, e := range entrants {
		st[i] = StandingRow{Rank: i + 1, Entrant: e, VP: 100 - i/20, MP: 2000 - i, Wins: 3}
	}
	var adj []AdjustmentRow
	var cor []CorrectionRow
	at := time.Date(2026, 11, 21, 18, 0, 0, 0, time.UTC)
	for i := range 50 {
		adj = append(adj, AdjustmentRow{Entrant: entrants[i].ID, Round: 1 + i%rounds, Reason: domain.ReasonWarning, Author: "Arbitro", At: at})
		cor = append(cor, CorrectionRow{Round: 1, Table: i + 1, Kind: domain.CorrectionSum, Ruling: domain.RulingApply, Rules: []string{"FITAB art. 20"},
			Reason: "fase Mitchell", Author: "Arbitro", At: at, Before: &MatchResult{}, After: &MatchResult{}})
	}
	return TournamentExport{
		Tournament: domain.Tournament{ID: "t_big", Name: "Campionato", Date: at, Level: domain.LevelNational,
			Ruleset: domain.FITAB2025, Kind: domain.KindPairs, RoundsPlanned: rounds, HandsPerRound: hands},
		ExportedAt: at,
		Entrants:   Slice(entrants), Rounds: Slice(rs), Standings: Slice(st), Matches: Slice(ms), Hands: Slice(hs),
		Adjustments: Slice(adj), Corrections: Slice(cor),
	}
}

// BenchmarkTournament500Tables writes the tournament workbook of a
// 500-table tournament (goal: < 1 s).
func BenchmarkTournament500Tables(b *testing.B) {
	t := bigTournament(b)
	measure(b, "xlsx-MB", func(w io.Writer) error { return WriteTournament(w, t) })
}

func BenchmarkTournamentJSON500Tables(b *testing.B) {
	t := bigTournament(b)
	measure(b, "json-MB", func(w io.Writer) error { return WriteJSON(w, t) })
}

func BenchmarkTournamentCSV500Tables(b *testing.B) {
	t := bigTournament(b)
	measure(b, "csv-MB", func(w io.Writer) error { return WriteCSV(w, t, SheetSmazzate) })
}
