package domain_test

// Property tests: sheets generated legal by construction from RULES.md §3-§6
// (never from the implementation) must raise no error and no warning; the
// same sheets with exactly one injected defect must raise the defect's code at
// the right hand and line, and nothing else that is an error.

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"segnapunti/domain"
)

// dtTruth is what the generator knows about one line of one hand.
type dtTruth struct {
	closer  bool
	untaken bool
	charged int // the -100 in points: 100 when the pozzetto was not taken
	cardSum int // table + hand + unplayed pozzetto + penalty cards
	points  int
	base    int
}

// dtLegal is a generated legal sheet and what RULES says about it.
type dtLegal struct {
	sheet   domain.Sheet
	table   string
	totals  [][2]int // base + points per hand
	running [][2]int
	final   [2]int // with late points
	mp      [2]int
	vp      [2]int
	truth   [][2]dtTruth
}

type dtGen struct {
	r  *rand.Rand
	rs domain.Ruleset
}

func (g *dtGen) chance(pct int) bool { return g.r.IntN(100) < pct }

func dtAbs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// hand generates one legal hand with the given end (RULES §4, §5): the
// closer took its pozzetto and has a burraco (a pulito in the *-int
// rulesets); bases are sums of allowed bonuses (+100 for the closer); card
// points are multiples of 5 inside the deck bounds of §3/§5.1 and plausible.
func (g *dtGen) hand(end domain.HandEnd) (domain.Hand, [2]dtTruth) {
	intl := g.rs == domain.FITABInt || g.rs == domain.FIBurInt
	types := dtAllowed[g.rs]
	for {
		closer := -1
		if end == domain.EndClosed {
			closer = g.r.IntN(2)
		}
		var tr [2]dtTruth
		var bur [2]map[domain.BurracoType]int
		var split [2][4]int // table, hand, unplayed, penalty
		var pz [2]domain.Pozzetto
		cards, cardPoints, untaken := 0, 0, 0
		plausible := true
		for l := range 2 {
			t := &tr[l]
			t.closer = l == closer
			switch {
			case t.closer && g.chance(15):
				pz[l] = dtUnplay // the partner holds it; RULES §5.1 allows the closing
			case t.closer:
				pz[l] = dtTaken
			case g.chance(25):
				pz[l] = dtUntaken
			case g.chance(20):
				pz[l] = dtUnplay
			default:
				pz[l] = dtTaken
			}
			n := g.r.IntN(4)
			if t.closer && n == 0 {
				n = 1
			}
			bur[l] = map[domain.BurracoType]int{}
			for i := range n {
				bt := types[g.r.IntN(len(types))]
				if i == 0 && t.closer && intl {
					bt = dtPulito // FITAB-INT rule 1, FIBur-INT art. 16
				}
				bur[l][bt]++
				t.base += dtBonus[bt]
				cards += dtMinCards[bt]
			}
			if t.closer {
				t.base += 100
			}
			// RULES §4: the burrachi hold at least their types' card points.
			table := dtMinPoints(g.rs, bur[l]) + 5*g.r.IntN(61)
			handPts := 5 * g.r.IntN(31)
			unplayed, penalty := 0, 0
			if pz[l] == dtUnplay {
				unplayed = 55 + 5*g.r.IntN(20) // 11 cards are worth at least 55
			}
			if g.chance(10) {
				penalty = 5 * (1 + g.r.IntN(10))
			}
			if pz[l] == dtUntaken {
				t.untaken, t.charged = true, 100
				untaken++
			}
			split[l] = [4]int{table, handPts, unplayed, penalty}
			t.cardSum = table + handPts + unplayed + penalty
			t.points = table - handPts - unplayed - penalty - t.charged
			cardPoints += t.cardSum
			if dtAbs(t.points) > 700 || t.base+t.points > 1500 {
				plausible = false
			}
		}
		if !plausible || cards > 105-11*untaken || cardPoints > 1065-55*untaken {
			continue
		}
		h := domain.Hand{End: end}
		if !g.chance(80) {
			h.End = domain.EndUnknown // RULES §5: infer what is consistent
		}
		for l := range 2 {
			t := tr[l]
			ls := domain.LineScore{Base: t.base, Points: t.points}
			if g.chance(85) {
				ls.Total = domain.Int(t.base + t.points)
			}
			if g.chance(50) {
				ls.Burrachi = bur[l]
			}
			if g.chance(50) {
				ls.Closed = domain.Bool(t.closer)
			}
			withSplit := g.chance(40)
			if withSplit || g.chance(60) {
				ls.Pozzetto = pz[l]
			}
			if withSplit {
				ls.TablePoints, ls.HandPoints = domain.Int(split[l][0]), domain.Int(split[l][1])
				if split[l][2] > 0 || g.chance(50) {
					ls.PozzettoUnplayedPoints = domain.Int(split[l][2])
				}
				if split[l][3] > 0 || g.chance(50) {
					ls.PenaltyPoints = domain.Int(split[l][3])
				}
			}
			h.Lines[l] = ls
		}
		return h, tr
	}
}

// dtExpectTable is RULES §6.2.
func dtExpectTable(rs domain.Ruleset, k domain.Kind, planned, played int, pinned string) string {
	if pinned != "" {
		return pinned
	}
	if k == domain.KindTeams {
		return "fibur-teams"
	}
	return dtDefaultTable[rs](planned, played)
}

// sheet generates one legal sheet with correct totals, running totals and
// written results (RULES §6).
func (g *dtGen) sheet() dtLegal {
	planned := 2 + g.r.IntN(3)
	played := planned
	timeOut := g.chance(20)
	if timeOut {
		played = 1 + g.r.IntN(planned) // the time-out may cut the round short
	}
	kind := domain.KindPairs
	switch g.r.IntN(10) {
	case 0:
		if g.rs != domain.FITABInt { // RULES §6.2 is silent on fitab-int teams
			kind = domain.KindTeams
		}
	case 1:
		kind = domain.KindIndividual
	case 2:
		kind = domain.KindInternational
	}
	s := domain.Sheet{Ruleset: g.rs, HandsPlanned: planned, Kind: kind}
	pinned := ""
	if g.chance(10) {
		pinned = dtTableIDs[g.r.IntN(len(dtTableIDs))]
		s.VPTable, _ = domain.ParseVPTable(pinned)
	}
	lg := dtLegal{table: dtExpectTable(g.rs, kind, planned, played, pinned)}
	withRunning := g.chance(50)
	var run [2]int
	for h := range played {
		end := domain.EndClosed
		if g.chance(12) {
			end = domain.EndStockExhausted
		}
		if timeOut && h == played-1 {
			end = domain.EndTimeOut // only the last hand (RULES §5)
		}
		hand, tr := g.hand(end)
		var tot [2]int
		for l := range 2 {
			tot[l] = tr[l].base + tr[l].points
			run[l] += tot[l]
			if withRunning {
				hand.Lines[l].RunningTotal = domain.Int(run[l])
			}
		}
		s.Hands = append(s.Hands, hand)
		lg.totals = append(lg.totals, tot)
		lg.running = append(lg.running, run)
		lg.truth = append(lg.truth, tr)
	}
	if g.chance(15) {
		s.LatePoints[g.r.IntN(2)] = []int{100, 150}[g.r.IntN(2)] // FITAB art. 38
	}
	for l := range 2 {
		lg.final[l] = run[l] + s.LatePoints[l]
	}
	diff := lg.final[0] - lg.final[1]
	lg.mp = [2]int{diff, -diff}
	w, lo := dtVP(lg.table, diff)
	lg.vp = [2]int{w, lo}
	if diff < 0 {
		lg.vp = [2]int{lo, w}
	}
	wt, wm, wv := g.chance(80), g.chance(80), g.chance(80)
	for l := range 2 {
		if wt {
			s.Written[l].Total = domain.Int(lg.final[l])
		}
		if wm {
			s.Written[l].MP = domain.Int(lg.mp[l])
		}
		if wv {
			s.Written[l].VP = domain.Int(lg.vp[l])
		}
	}
	lg.sheet = s
	return lg
}

// dtDescribe prints a sheet compactly for a failure message.
func dtDescribe(s domain.Sheet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  %s planned=%d kind=%s pin=%q late=%v\n", s.Ruleset, s.HandsPlanned, s.Kind, s.VPTable.ID(), s.LatePoints)
	for i, h := range s.Hands {
		fmt.Fprintf(&b, "  hand %d end=%q lost=%v\n", i+1, h.End, h.LostCount)
		for l, ls := range h.Lines {
			closed := "?"
			if ls.Closed != nil {
				closed = fmt.Sprint(*ls.Closed)
			}
			fmt.Fprintf(&b, "    %s base=%d points=%d total=%s run=%s bur=%v closed=%s pozz=%q split=%s/%s/%s/%s\n",
				domain.Line(l), ls.Base, ls.Points, dtIntp(ls.Total), dtIntp(ls.RunningTotal), ls.Burrachi, closed, ls.Pozzetto,
				dtIntp(ls.TablePoints), dtIntp(ls.HandPoints), dtIntp(ls.PozzettoUnplayedPoints), dtIntp(ls.PenaltyPoints))
		}
	}
	for l, w := range s.Written {
		fmt.Fprintf(&b, "  written %s total=%s mp=%s vp=%s\n", domain.Line(l), dtIntp(w.Total), dtIntp(w.MP), dtIntp(w.VP))
	}
	return b.String()
}

const (
	dtSeed             = 20251121 // fixed: the same sheets on every run
	dtLegalPerRuleset  = 600
	dtDefectPerRuleset = 80
	dtMaxReported      = 3 // failing sheets printed per subtest
)

// RULES principle: a legal, plausible sheet raises no error and no warning,
// and its computed figures are the rule's.
func TestPropertyLegalSheetsHaveNoErrors(t *testing.T) {
	for i, rs := range domain.Rulesets {
		t.Run(string(rs), func(t *testing.T) {
			g := &dtGen{r: rand.New(rand.NewPCG(dtSeed, uint64(i))), rs: rs}
			failed := 0
			for range dtLegalPerRuleset {
				lg := g.sheet()
				rep := domain.Validate(lg.sheet)
				var bad []string
				for _, f := range rep.Findings {
					if f.Severity == domain.SeverityError || f.Severity == domain.SeverityWarning {
						bad = append(bad, dtFmt(f))
					}
				}
				if rep.VPTable.ID() != lg.table {
					bad = append(bad, fmt.Sprintf("VP table %q, want %q", rep.VPTable.ID(), lg.table))
				}
				if len(rep.Computed.Hands) != len(lg.totals) {
					bad = append(bad, fmt.Sprintf("%d computed hands, want %d", len(rep.Computed.Hands), len(lg.totals)))
				} else {
					for h, ch := range rep.Computed.Hands {
						if ch.Total != lg.totals[h] || ch.RunningTotal != lg.running[h] {
							bad = append(bad, fmt.Sprintf("hand %d computed %v/%v, want %v/%v", h+1, ch.Total, ch.RunningTotal, lg.totals[h], lg.running[h]))
						}
					}
				}
				for l, lr := range rep.Computed.Lines {
					if lr.Total != lg.final[l] || lr.MP != lg.mp[l] || lr.VP != lg.vp[l] {
						bad = append(bad, fmt.Sprintf("%s computed %d/%d/%d, want %d/%d/%d", domain.Line(l), lr.Total, lr.MP, lr.VP, lg.final[l], lg.mp[l], lg.vp[l]))
					}
				}
				if !rep.OK() {
					bad = append(bad, "OK() is false")
				}
				if len(bad) > 0 {
					failed++
					if failed <= dtMaxReported {
						t.Errorf("legal sheet:\n%s  problems:\n    %s", dtDescribe(lg.sheet), strings.Join(bad, "\n    "))
					}
				}
			}
			if failed > 0 {
				t.Errorf("%d of %d legal sheets failed", failed, dtLegalPerRuleset)
			}
		})
	}
}

// dtDefect injects one defect into a legal sheet and says what the rule
// reports; ok is false when the sheet cannot carry the defect.
type dtDefect struct {
	name   string
	inject func(g *dtGen, lg *dtLegal) (c dtCase, ok bool)
}

func dtSign(g *dtGen) int {
	if g.chance(50) {
		return -1
	}
	return 1
}

func dtSel(l int) dtLineSel {
	if l == 1 {
		return dtEO
	}
	return dtNS
}

var dtDefects = []dtDefect{
	{"RULES §5.1/HAND_TOTAL_MISMATCH/sum error", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		h, l := g.r.IntN(len(lg.totals)), g.r.IntN(2)
		bad := lg.totals[h][l] + dtSign(g)*5*(1+g.r.IntN(20))
		lg.sheet.Hands[h].Lines[l].Total = domain.Int(bad)
		return dtCase{
			want:  []dtWant{dtErr(domain.HandTotalMismatch, h+1, dtSel(l)).at("total").values(bad, lg.totals[h][l])},
			count: map[domain.Code]int{domain.HandTotalMismatch: 1},
		}, true
	}},
	{"RULES §6.3/RUNNING_TOTAL_MISMATCH/sum error", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		h, l := g.r.IntN(len(lg.totals)), g.r.IntN(2)
		bad := lg.running[h][l] + dtSign(g)*5*(1+g.r.IntN(20))
		lg.sheet.Hands[h].Lines[l].RunningTotal = domain.Int(bad)
		return dtCase{
			want:  []dtWant{dtErr(domain.RunningTotalMismatch, h+1, dtSel(l)).at("running_total").values(bad, lg.running[h][l])},
			count: map[domain.Code]int{domain.RunningTotalMismatch: 1},
		}, true
	}},
	{"RULES §6.3/FINAL_TOTAL_MISMATCH/sum error", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		l := g.r.IntN(2)
		bad := lg.final[l] + dtSign(g)*5*(1+g.r.IntN(20))
		lg.sheet.Written[1-l].Total = domain.Int(lg.final[1-l])
		lg.sheet.Written[l].Total = domain.Int(bad)
		return dtCase{
			want:   []dtWant{dtErr(domain.FinalTotalMismatch, 0, dtSel(l)).at("total").values(bad, lg.final[l])},
			count:  map[domain.Code]int{domain.FinalTotalMismatch: 1},
			absent: []domain.Code{domain.TotalsInverted},
		}, true
	}},
	{"RULES §6.3/MP_MISMATCH/wrong difference", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		d := dtSign(g) * 5 * (1 + g.r.IntN(20))
		if d == -2*lg.mp[0] {
			return dtCase{}, false // that would be an inversion
		}
		lg.sheet.Written[0].MP = domain.Int(lg.mp[0] + d)
		lg.sheet.Written[1].MP = domain.Int(lg.mp[1] - d)
		return dtCase{
			want:   []dtWant{dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(lg.mp[0]+d, lg.mp[0])},
			count:  map[domain.Code]int{domain.MPMismatch: 1},
			absent: []domain.Code{domain.ResultInverted},
		}, true
	}},
	{"RULES §6.3/VP_MISMATCH/wrong band", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		d := dtSign(g) * (1 + g.r.IntN(2))
		ns := lg.vp[0] + d
		if ns < 0 || ns > 20 || ns == lg.vp[1] {
			return dtCase{}, false
		}
		lg.sheet.Written[0].VP = domain.Int(ns)
		lg.sheet.Written[1].VP = domain.Int(20 - ns)
		return dtCase{
			want:   []dtWant{dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(ns, lg.vp[0])},
			count:  map[domain.Code]int{domain.VPMismatch: 1},
			absent: []domain.Code{domain.ResultInverted, domain.VPSumNot20},
		}, true
	}},
	{"RULES §6.3/RESULT_INVERTED/swapped MP or VP", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		if lg.mp[0] == 0 {
			return dtCase{}, false // a tie swapped is the same tie
		}
		w := &lg.sheet.Written
		mode := g.r.IntN(3) // 0: VP only, 1: MP only, 2: both
		if lg.vp[0] == lg.vp[1] {
			mode = 1
		}
		if mode != 1 {
			w[0].VP, w[1].VP = domain.Int(lg.vp[1]), domain.Int(lg.vp[0])
		}
		if mode != 0 {
			w[0].MP, w[1].MP = domain.Int(lg.mp[1]), domain.Int(lg.mp[0])
		}
		return dtCase{
			want:   []dtWant{dtErr(domain.ResultInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.ResultInverted: 1},
			absent: []domain.Code{domain.MPMismatch, domain.VPMismatch, domain.TotalsInverted, domain.FinalTotalMismatch},
		}, true
	}},
	{"RULES §6.3/TOTALS_INVERTED/swapped final totals", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		if lg.final[0] == lg.final[1] {
			return dtCase{}, false
		}
		w := &lg.sheet.Written
		w[0].Total, w[1].Total = domain.Int(lg.final[1]), domain.Int(lg.final[0])
		switch g.r.IntN(3) {
		case 0: // MP and VP follow the swapped totals
			w[0].MP, w[1].MP = domain.Int(lg.mp[1]), domain.Int(lg.mp[0])
			w[0].VP, w[1].VP = domain.Int(lg.vp[1]), domain.Int(lg.vp[0])
		case 1: // MP and VP right
			w[0].MP, w[1].MP = domain.Int(lg.mp[0]), domain.Int(lg.mp[1])
			w[0].VP, w[1].VP = domain.Int(lg.vp[0]), domain.Int(lg.vp[1])
		default: // not written
			w[0].MP, w[1].MP, w[0].VP, w[1].VP = nil, nil, nil, nil
		}
		return dtCase{
			want:   []dtWant{dtErr(domain.TotalsInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.TotalsInverted: 1},
			absent: []domain.Code{domain.FinalTotalMismatch, domain.MPMismatch, domain.VPMismatch, domain.ResultInverted},
		}, true
	}},
	{"RULES §4/BASE_NOT_REPRESENTABLE/illegal base", func(g *dtGen, lg *dtLegal) (dtCase, bool) {
		h := g.r.IntN(len(lg.totals))
		l := g.r.IntN(2)
		tr := lg.truth[h]
		if tr[l].closer {
			l = 1 - l // keep the closing line's base intact
		}
		// +10..+40 leaves a multiple of 50; +50 leaves a multiple of 100 in
		// the *-int rulesets (e.g. a sporco 100 written as 150).
		d := 10 * (1 + g.r.IntN(4))
		if g.rs == domain.FITABInt || g.rs == domain.FIBurInt {
			d = 50
		}
		// The shifted points must stay inside the deck bound under any
		// reading, so that the base is the only defect.
		sum, untaken := 0, 0
		for k := range 2 {
			p := tr[k].points
			if k == l {
				p -= d
			}
			sum += max(dtAbs(p+tr[k].charged), tr[k].cardSum)
			if tr[k].untaken {
				untaken++
			}
		}
		if sum > 1065-55*untaken {
			return dtCase{}, false
		}
		ls := &lg.sheet.Hands[h].Lines[l]
		ls.Base += d
		ls.Points -= d // the total, and so every later figure, is unchanged
		ls.Burrachi, ls.Closed = nil, nil
		ls.TablePoints, ls.HandPoints, ls.PozzettoUnplayedPoints, ls.PenaltyPoints = nil, nil, nil, nil
		return dtCase{
			want:   []dtWant{dtErr(domain.BaseNotRepresentable, h+1, dtSel(l)).at("base").wrote(ls.Base)},
			absent: []domain.Code{domain.PozzettoInBase},
		}, true
	}},
}

// One defect per sheet: the rule's code at the right hand and line, and no
// other error.
func TestPropertyInjectedDefects(t *testing.T) {
	for i, rs := range domain.Rulesets {
		for j, d := range dtDefects {
			t.Run(string(rs)+"/"+d.name, func(t *testing.T) {
				g := &dtGen{r: rand.New(rand.NewPCG(dtSeed+uint64(1000+i), uint64(j))), rs: rs}
				failed := 0
				for n := 0; n < dtDefectPerRuleset; {
					lg := g.sheet()
					c, ok := d.inject(g, &lg)
					if !ok {
						continue
					}
					n++
					c.name = d.name
					rep := domain.Validate(lg.sheet)
					dtMessagesAgree(t, rep)
					var got dtCollect
					dtCheck(&got, rep, c)
					if len(got.msgs) > 0 {
						failed++
						if failed <= dtMaxReported {
							t.Errorf("sheet with the defect:\n%s  problems:\n    %s", dtDescribe(lg.sheet), strings.Join(got.msgs, "\n    "))
						}
					}
				}
				if failed > 0 {
					t.Errorf("%d of %d sheets failed", failed, dtDefectPerRuleset)
				}
			})
		}
	}
}

// FuzzValidate builds a sheet from arbitrary bytes: Validate must not panic,
// OK() must agree with the error count, every finding must name a hand of the
// sheet, and the computed figures must cover every hand.
func FuzzValidate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 3, 0, 3, 1, 0, 44, 1, 235, 0, 255, 100, 0, 0, 0})
	f.Add([]byte("fitab-2025 three hands, everything written"))
	f.Add([]byte{3, 2, 3, 2, 4, 1, 255, 255, 255, 255, 9, 9, 9, 9, 0, 0, 7, 7, 7, 7, 1, 2, 3, 4, 5, 6, 7, 8})
	f.Add([]byte{1, 4, 1, 5, 2, 0, 128, 0, 128, 0, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := dtSheetFromBytes(data)
		rep := domain.Validate(s)
		dtMessagesAgree(t, rep)
		if rep.OK() != (rep.Count(domain.SeverityError) == 0) {
			t.Fatalf("OK() = %v with %d errors", rep.OK(), rep.Count(domain.SeverityError))
		}
		for _, fd := range rep.Findings {
			if fd.Hand < 0 || fd.Hand > len(s.Hands) {
				t.Fatalf("finding on hand %d of %d: %s", fd.Hand, len(s.Hands), dtFmt(fd))
			}
			switch fd.Severity {
			case domain.SeverityError, domain.SeverityWarning, domain.SeverityInfo:
			default:
				t.Fatalf("severity %q: %s", fd.Severity, dtFmt(fd))
			}
		}
		if len(rep.Computed.Hands) != len(s.Hands) {
			t.Fatalf("%d computed hands for %d hands", len(rep.Computed.Hands), len(s.Hands))
		}
		ns, eo := rep.Computed.Lines[0], rep.Computed.Lines[1]
		if len(s.Hands) > 0 && (ns.MP != -eo.MP || ns.VP+eo.VP != 20) {
			t.Fatalf("computed MP %d/%d VP %d/%d: MP must be opposite and VP add up to 20", ns.MP, eo.MP, ns.VP, eo.VP)
		}
	})
}

// dtMessagesAgree: AppendMessage writes exactly Message, in both languages,
// for every finding the validator raised (the report writers use the one,
// the pages the other).
func dtMessagesAgree(t *testing.T, rep domain.Report) {
	t.Helper()
	for _, fd := range rep.Findings {
		for _, l := range []domain.Lang{domain.English, domain.Italian} {
			if got, want := string(fd.AppendMessage([]byte("x"), l)), "x"+fd.Message(l); got != want {
				t.Fatalf("AppendMessage(%s) = %q, Message = %q", l, got, want)
			}
		}
	}
}

// dtBytes hands out fuzz bytes; past the end it gives zeros.
type dtBytes struct {
	b []byte
	i int
}

func (d *dtBytes) byte() byte {
	if d.i >= len(d.b) {
		return 0
	}
	d.i++
	return d.b[d.i-1]
}

func (d *dtBytes) intn(n int) int { return int(d.byte()) % n }

// num is a signed number, sometimes small and round, sometimes anything.
func (d *dtBytes) num() int {
	switch d.byte() % 4 {
	case 0:
		return 5 * (int(d.byte()) - 128)
	case 1:
		return 50 * int(d.byte()%40)
	case 2:
		return int(int16(binary.LittleEndian.Uint16([]byte{d.byte(), d.byte()})))
	default:
		return int(int32(binary.LittleEndian.Uint32([]byte{d.byte(), d.byte(), d.byte(), d.byte()})))
	}
}

func (d *dtBytes) optNum() *int {
	if d.byte()%3 == 0 {
		return nil
	}
	return domain.Int(d.num())
}

func dtSheetFromBytes(data []byte) domain.Sheet {
	d := &dtBytes{b: data}
	s := domain.Sheet{
		Ruleset:      domain.Rulesets[d.intn(len(domain.Rulesets))],
		HandsPlanned: d.intn(6),
		Kind:         domain.Kinds[d.intn(len(domain.Kinds))],
	}
	if d.intn(4) == 0 {
		s.VPTable, _ = domain.ParseVPTable(dtTableIDs[d.intn(len(dtTableIDs))])
	}
	s.LatePoints = [2]int{50 * d.intn(4), 50 * d.intn(4)}
	ends := append([]domain.HandEnd{domain.EndUnknown}, domain.HandEnds...)
	pozz := []domain.Pozzetto{domain.PozzettoUnknown, dtTaken, dtUntaken, dtUnplay}
	for range d.intn(6) {
		h := domain.Hand{End: ends[d.intn(len(ends))], LostCount: d.intn(5) == 0}
		for l := range 2 {
			ls := domain.LineScore{Base: d.num(), Points: d.num(), Total: d.optNum(), RunningTotal: d.optNum()}
			if d.intn(2) == 0 {
				ls.Burrachi = map[domain.BurracoType]int{}
				for range d.intn(4) {
					ls.Burrachi[domain.BurracoTypes[d.intn(len(domain.BurracoTypes))]] += d.intn(20)
				}
			}
			if c := d.intn(3); c > 0 {
				ls.Closed = domain.Bool(c == 1)
			}
			ls.Pozzetto = pozz[d.intn(len(pozz))]
			if d.intn(2) == 0 {
				ls.TablePoints, ls.HandPoints = d.optNum(), d.optNum()
				ls.PozzettoUnplayedPoints, ls.PenaltyPoints = d.optNum(), d.optNum()
			}
			h.Lines[l] = ls
		}
		s.Hands = append(s.Hands, h)
	}
	for l := range 2 {
		s.Written[l] = domain.WrittenResult{Total: d.optNum(), MP: d.optNum(), VP: d.optNum()}
	}
	return s
}

// dtMinPoints is the least card points of a line's burrachi, from RULES §4:
// reale 120, reale_sporco 140, super 40, super_sporco 60, pulito 35,
// semipulito 55, sporco 50; in fitab-int and fibur-int a line's second
// pulito needs at least 45, its third 45 more.
func dtMinPoints(rs domain.Ruleset, bur map[domain.BurracoType]int) int {
	minPts := map[domain.BurracoType]int{dtReale: 120, dtRealeS: 140, dtSuper: 40, dtSuperS: 60, dtPulito: 35, dtSemi: 55, dtSporco: 50}
	intl := rs == domain.FITABInt || rs == domain.FIBurInt
	sum := 0
	for t, n := range bur {
		for i := range n {
			if t == dtPulito && intl && i > 0 {
				sum += 45
				continue
			}
			sum += minPts[t]
		}
	}
	return sum
}
