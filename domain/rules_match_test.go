package domain_test

// Decision-table tests for the match rules, written from RULES.md §6, §6.1,
// §6.2 and §6.3 and the report contract — not from the implementation.

import (
	"strings"
	"testing"

	"segnapunti/domain"
)

// dtMatch is a 3-hand fitab-2025 match (fitab-3 table):
//
//	hand  NS base+points = total  running   EO base+points = total  running
//	1     300 + 235 = 535         535       100 - 120 = -20         -20
//	2     100 -  50 =  50         585       400 + 190 = 590         570
//	3     350 + 120 = 470         1055      150 +  85 = 235         805
//
// NS 1055, EO 805: diff 250, fitab-3 165..260 → 12-8.
func dtMatch() domain.Sheet {
	return dtSheet(domain.FITAB2025,
		dtClosedNS(dtLine(300, 235), dtLine(100, -120)),
		dtHand(domain.EndClosed, dtLine(100, -50), dtLine(400, 190)),
		dtClosedNS(dtLine(350, 120), dtLine(150, 85)))
}

// dtMatchRunning is dtMatch's correct running totals.
var dtMatchRunning = [][2]int{{535, -20}, {585, 570}, {1055, 805}}

func dtWithRunning(s domain.Sheet, running [][2]int) domain.Sheet {
	for h, rt := range running {
		for l := range 2 {
			s.Hands[h].Lines[l].RunningTotal = domain.Int(rt[l])
		}
	}
	return s
}

func dtPair(ns, eo int) [2]*int { return [2]*int{domain.Int(ns), domain.Int(eo)} }

// dtWritten sets the bottom of the sheet; a nil entry is "not written".
func dtWritten(s domain.Sheet, total, mp, vp [2]*int) domain.Sheet {
	for l := range 2 {
		s.Written[l] = domain.WrittenResult{Total: total[l], MP: mp[l], VP: vp[l]}
	}
	return s
}

func dtLate(s domain.Sheet, ns, eo int) domain.Sheet { s.LatePoints = [2]int{ns, eo}; return s }

func dtPin(s domain.Sheet, id string) domain.Sheet {
	tab, err := domain.ParseVPTable(id)
	if err != nil {
		panic(err)
	}
	s.VPTable = tab
	return s
}

func dtKind(s domain.Sheet, k domain.Kind) domain.Sheet { s.Kind = k; return s }

// dtMatchCodes are the codes of RULES §6.3.
var dtMatchCodes = []domain.Code{
	domain.RunningTotalMismatch, domain.FinalTotalMismatch, domain.MPMismatch, domain.VPMismatch,
	domain.VPSumNot20, domain.TotalsInverted, domain.ResultInverted, domain.HandsExceedPlanned,
	domain.HandsFewerThanPlanned,
}

var dtNone [2]*int

// RULES §6: the computed totals, MP and VP, whatever the sheet says.
func TestRulesMatchComputed(t *testing.T) {
	type want struct {
		table   string
		hands   [][2]int // base + points per hand
		running [][2]int
		total   [2]int
		mp      [2]int
		vp      [2]int
	}
	twoHands := func(r domain.Ruleset) domain.Sheet {
		// NS 535 + 420 = 955, EO -20 + 50 = 30: diff 925.
		return dtSheet(r,
			dtClosedNS(dtLine(300, 235), dtLine(100, -120)),
			dtClosedNS(dtLine(300, 120), dtLine(100, -50)))
	}
	twoHandsWant := func(table string, vpNS int) want {
		return want{table, [][2]int{{535, -20}, {420, 50}}, [][2]int{{535, -20}, {955, 30}}, [2]int{955, 30}, [2]int{925, -925}, [2]int{vpNS, 20 - vpNS}}
	}
	cases := []struct {
		name  string
		sheet domain.Sheet
		want  want
	}{
		{
			name:  "FITAB art. 18/3 hands, diff 250 on fitab-3 is 12-8",
			sheet: dtMatch(),
			want:  want{"fitab-3", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 805}, [2]int{250, -250}, [2]int{12, 8}},
		},
		{
			name:  "FITAB art. 38/late points +100 NS: final total only, diff 350 is 13-7",
			sheet: dtLate(dtMatch(), 100, 0),
			want:  want{"fitab-3", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1155, 805}, [2]int{350, -350}, [2]int{13, 7}},
		},
		{
			name:  "FITAB art. 38/late points +150 EO: diff 100 is 11-9",
			sheet: dtLate(dtMatch(), 0, 150),
			want:  want{"fitab-3", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 955}, [2]int{100, -100}, [2]int{11, 9}},
		},
		{
			name:  "FITAB art. 38/late points turn the result: EO +300, EO wins by 50",
			sheet: dtLate(dtMatch(), 0, 300),
			want:  want{"fitab-3", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 1105}, [2]int{-50, 50}, [2]int{10, 10}},
		},
		{
			name: "RULES §6/tie: MP 0, 10-10",
			sheet: dtSheet(domain.FIBurIta,
				dtClosedNS(dtLine(300, 100), dtLine(200, 100)),
				dtHand(domain.EndClosed, dtLine(100, 0), dtLine(300, -100))),
			want: want{"fibur-2", [][2]int{{400, 300}, {100, 200}}, [][2]int{{400, 300}, {500, 500}}, [2]int{500, 500}, [2]int{0, 0}, [2]int{10, 10}},
		},
		{
			name:  "FIBur-INT art. 17/fibur-int 2 hands played: fibur-3, diff 925 is 17-3",
			sheet: twoHands(domain.FIBurInt),
			want:  twoHandsWant("fibur-3", 17),
		},
		{
			name:  "FIBur-INT art. 17/fibur-ita 2 hands: fibur-2, diff 925 is 19-1",
			sheet: twoHands(domain.FIBurIta),
			want:  twoHandsWant("fibur-2", 19),
		},
		{
			name:  "RULES §6.2 [INTERP]/fitab-2025 3 planned, 2 played (time-out): fitab-3, diff 925 is 17-3",
			sheet: dtPlanned(twoHands(domain.FITAB2025), 3),
			want:  twoHandsWant("fitab-3", 17),
		},
		{
			name:  "RULES §6.2 [INTERP]/fibur-int 4 planned, 2 played: still one up from played, fibur-3",
			sheet: dtPlanned(twoHands(domain.FIBurInt), 4),
			want:  twoHandsWant("fibur-3", 17),
		},
		{
			name:  "FITAB Title V/pinned fitab-4: diff 250 is 11-9",
			sheet: dtPin(dtMatch(), "fitab-4"),
			want:  want{"fitab-4", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 805}, [2]int{250, -250}, [2]int{11, 9}},
		},
		{
			name:  "RULES §6.2 [INTERP]/fitab-2025 teams: fibur-teams, diff 250 is 11-9",
			sheet: dtKind(dtMatch(), domain.KindTeams),
			want:  want{"fibur-teams", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 805}, [2]int{250, -250}, [2]int{11, 9}},
		},
		{
			name: "RULES §6/computed from base + points, never the written totals",
			sheet: dtWritten(dtWithRunning(func() domain.Sheet {
				s := dtMatch()
				s.Hands[1].Lines[0].Total = domain.Int(60)
				return s
			}(), [][2]int{{535, -20}, {595, 570}, {1065, 805}}), dtPair(1065, 805), dtPair(260, -260), dtPair(12, 8)),
			want: want{"fitab-3", [][2]int{{535, -20}, {50, 590}, {470, 235}}, dtMatchRunning, [2]int{1055, 805}, [2]int{250, -250}, [2]int{12, 8}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rep := domain.Validate(c.sheet)
			if rep.VPTable.ID() != c.want.table {
				t.Errorf("VP table %q, want %q", rep.VPTable.ID(), c.want.table)
			}
			if len(rep.Computed.Hands) != len(c.want.hands) {
				t.Fatalf("%d computed hands, want %d", len(rep.Computed.Hands), len(c.want.hands))
			}
			for h, ch := range rep.Computed.Hands {
				if ch.Total != c.want.hands[h] || ch.RunningTotal != c.want.running[h] {
					t.Errorf("hand %d: total %v running %v, want %v and %v", h+1, ch.Total, ch.RunningTotal, c.want.hands[h], c.want.running[h])
				}
			}
			for l, lr := range rep.Computed.Lines {
				if lr.Total != c.want.total[l] || lr.MP != c.want.mp[l] || lr.VP != c.want.vp[l] {
					t.Errorf("%s: total %d MP %d VP %d, want %d, %d, %d", domain.Line(l), lr.Total, lr.MP, lr.VP, c.want.total[l], c.want.mp[l], c.want.vp[l])
				}
			}
		})
	}
}

func TestRulesRunningTotalMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 20/RUNNING_TOTAL_MISMATCH/sum error NS hand 2",
			sheet: dtWithRunning(dtMatch(), [][2]int{{535, -20}, {595, 570}, {1055, 805}}),
			want:  []dtWant{dtErr(domain.RunningTotalMismatch, 2, dtNS).at("running_total").values(595, 585)},
			count: map[domain.Code]int{domain.RunningTotalMismatch: 1},
		},
		{
			name:  "FITAB art. 20/RUNNING_TOTAL_MISMATCH/sum error EO hand 3",
			sheet: dtWithRunning(dtMatch(), [][2]int{{535, -20}, {585, 570}, {1055, 815}}),
			want:  []dtWant{dtErr(domain.RunningTotalMismatch, 3, dtEO).at("running_total").values(815, 805)},
			count: map[domain.Code]int{domain.RunningTotalMismatch: 1},
		},
		{
			name: "RULES §6/RUNNING_TOTAL_MISMATCH/running total built on a wrong hand total",
			sheet: func() domain.Sheet {
				s := dtWithRunning(dtMatch(), [][2]int{{535, -20}, {595, 570}, {1055, 805}})
				s.Hands[1].Lines[0].Total = domain.Int(60)
				return s
			}(),
			want: []dtWant{
				dtErr(domain.HandTotalMismatch, 2, dtNS).at("total").values(60, 50),
				dtErr(domain.RunningTotalMismatch, 2, dtNS).at("running_total").values(595, 585),
			},
		},
		{
			name:  "RULES §6/RUNNING_TOTAL_MISMATCH/running total must not include late points",
			sheet: dtLate(dtWithRunning(dtMatch(), [][2]int{{635, -20}}), 100, 0),
			want:  []dtWant{dtErr(domain.RunningTotalMismatch, 1, dtNS).at("running_total").values(635, 535)},
		},
		{
			name:   "FITAB art. 20/RUNNING_TOTAL_MISMATCH/near-miss: running totals add up",
			sheet:  dtWithRunning(dtMatch(), dtMatchRunning),
			absent: []domain.Code{domain.RunningTotalMismatch},
		},
		{
			name:   "RULES §6/RUNNING_TOTAL_MISMATCH/near-miss: late points stay out of the running totals",
			sheet:  dtLate(dtWithRunning(dtMatch(), dtMatchRunning), 100, 0),
			absent: []domain.Code{domain.RunningTotalMismatch},
		},
	})
}

func TestRulesFinalTotalMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:   "FITAB art. 20/FINAL_TOTAL_MISMATCH/NS total 1050 for 1055",
			sheet:  dtWritten(dtMatch(), dtPair(1050, 805), dtPair(250, -250), dtPair(12, 8)),
			want:   []dtWant{dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(1050, 1055)},
			count:  map[domain.Code]int{domain.FinalTotalMismatch: 1},
			absent: []domain.Code{domain.MPMismatch, domain.VPMismatch, domain.TotalsInverted},
		},
		{
			name:  "FITAB art. 20/FINAL_TOTAL_MISMATCH/both lines wrong: one finding per line",
			sheet: dtWritten(dtMatch(), dtPair(1065, 795), dtPair(250, -250), dtPair(12, 8)),
			want: []dtWant{
				dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(1065, 1055),
				dtErr(domain.FinalTotalMismatch, 0, dtEO).at("total").values(795, 805),
			},
			count: map[domain.Code]int{domain.FinalTotalMismatch: 2},
		},
		{
			name: "RULES §6/FINAL_TOTAL_MISMATCH/final total added from a wrong hand total",
			sheet: func() domain.Sheet {
				s := dtWritten(dtMatch(), dtPair(1065, 805), dtNone, dtNone)
				s.Hands[1].Lines[0].Total = domain.Int(60)
				return s
			}(),
			want: []dtWant{
				dtErr(domain.HandTotalMismatch, 2, dtNS).at("total").values(60, 50),
				dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(1065, 1055),
			},
		},
		{
			name:  "FITAB art. 38/FINAL_TOTAL_MISMATCH/late points left out of the final total",
			sheet: dtLate(dtWritten(dtMatch(), dtPair(1055, 805), dtNone, dtNone), 100, 0),
			want:  []dtWant{dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(1055, 1155)},
		},
		{
			name:   "FITAB art. 38/FINAL_TOTAL_MISMATCH/near-miss: late points in the final total",
			sheet:  dtLate(dtWritten(dtMatch(), dtPair(1155, 805), dtPair(350, -350), dtPair(13, 7)), 100, 0),
			absent: dtMatchCodes,
		},
		{
			name:   "FITAB art. 20/FINAL_TOTAL_MISMATCH/near-miss: everything right",
			sheet:  dtWritten(dtWithRunning(dtMatch(), dtMatchRunning), dtPair(1055, 805), dtPair(250, -250), dtPair(12, 8)),
			absent: dtMatchCodes,
		},
		{
			name:   "RULES §6.3/near-miss: nothing written at the bottom, nothing to compare",
			sheet:  dtMatch(),
			absent: dtMatchCodes,
		},
	})
}

func TestRulesMPMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:  "FITAB art. 18/MP_MISMATCH/240 for 250: one finding, NS first",
			sheet: dtWritten(dtMatch(), dtPair(1055, 805), dtPair(240, -240), dtPair(12, 8)),
			want:  []dtWant{dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(240, 250)},
			count: map[domain.Code]int{domain.MPMismatch: 1},
		},
		{
			name:  "FITAB art. 18/MP_MISMATCH/EO only",
			sheet: dtWritten(dtMatch(), dtPair(1055, 805), dtPair(250, -200), dtPair(12, 8)),
			want:  []dtWant{dtErr(domain.MPMismatch, 0, dtEO).at("mp").values(-200, -250)},
			count: map[domain.Code]int{domain.MPMismatch: 1},
		},
		{
			name:  "FITAB art. 18/MP_MISMATCH/loser's MP written positive",
			sheet: dtWritten(dtMatch(), dtNone, dtPair(250, 250), dtNone),
			want:  []dtWant{dtErr(domain.MPMismatch, 0, dtEO).at("mp").values(250, -250)},
			count: map[domain.Code]int{domain.MPMismatch: 1},
		},
		{
			name:  "FITAB art. 38/MP_MISMATCH/late points left out of the MP",
			sheet: dtLate(dtWritten(dtMatch(), dtPair(1155, 805), dtPair(250, -250), dtPair(13, 7)), 100, 0),
			want:  []dtWant{dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(250, 350)},
			count: map[domain.Code]int{domain.MPMismatch: 1},
		},
		{
			name:   "FITAB art. 18/MP_MISMATCH/near-miss: MP right",
			sheet:  dtWritten(dtMatch(), dtNone, dtPair(250, -250), dtNone),
			absent: []domain.Code{domain.MPMismatch},
		},
	})
}

func TestRulesVPMismatch(t *testing.T) {
	dtRun(t, []dtCase{
		{
			name:   "FITAB art. 18/VP_MISMATCH/read from the 2-hand column: 13-7 for 12-8",
			sheet:  dtWritten(dtMatch(), dtPair(1055, 805), dtPair(250, -250), dtPair(13, 7)),
			want:   []dtWant{dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(13, 12)},
			count:  map[domain.Code]int{domain.VPMismatch: 1},
			absent: []domain.Code{domain.VPSumNot20, domain.ResultInverted},
		},
		{
			name:   "FITAB art. 18/VP_MISMATCH/only NS written",
			sheet:  dtWritten(dtMatch(), dtNone, dtNone, [2]*int{domain.Int(13), nil}),
			want:   []dtWant{dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(13, 12)},
			count:  map[domain.Code]int{domain.VPMismatch: 1},
			absent: []domain.Code{domain.VPSumNot20},
		},
		{
			name:  "FITAB art. 18/VP_SUM_NOT_20/12 + 9",
			sheet: dtWritten(dtMatch(), dtPair(1055, 805), dtPair(250, -250), dtPair(12, 9)),
			want: []dtWant{
				dtErr(domain.VPSumNot20, 0, dtNoLine),
				dtErr(domain.VPMismatch, 0, dtEO).at("vp").values(9, 8),
			},
			count: map[domain.Code]int{domain.VPSumNot20: 1, domain.VPMismatch: 1},
		},
		{
			name:  "FITAB art. 18/VP_SUM_NOT_20/11 + 10, NS is the first mismatch",
			sheet: dtWritten(dtMatch(), dtNone, dtNone, dtPair(11, 10)),
			want: []dtWant{
				dtErr(domain.VPSumNot20, 0, dtNoLine),
				dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(11, 12),
			},
			count: map[domain.Code]int{domain.VPSumNot20: 1, domain.VPMismatch: 1},
		},
		{
			name:   "FITAB art. 18/VP_MISMATCH/near-miss: 12-8",
			sheet:  dtWritten(dtMatch(), dtNone, dtNone, dtPair(12, 8)),
			absent: []domain.Code{domain.VPMismatch, domain.VPSumNot20},
		},
		{
			name: "FIBur-INT art. 17/VP_MISMATCH/near-miss: tie 10-10",
			sheet: dtWritten(dtSheet(domain.FIBurIta,
				dtClosedNS(dtLine(300, 100), dtLine(200, 100)),
				dtHand(domain.EndClosed, dtLine(100, 0), dtLine(300, -100))), dtPair(500, 500), dtPair(0, 0), dtPair(10, 10)),
			absent: dtMatchCodes,
		},
	})
}

func TestRulesInversions(t *testing.T) {
	inverted := []domain.Code{domain.FinalTotalMismatch, domain.MPMismatch, domain.VPMismatch}
	dtRun(t, []dtCase{
		{
			name:   "FITAB art. 20/TOTALS_INVERTED/totals swapped, MP and VP follow them",
			sheet:  dtWritten(dtMatch(), dtPair(805, 1055), dtPair(-250, 250), dtPair(8, 12)),
			want:   []dtWant{dtErr(domain.TotalsInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.TotalsInverted: 1},
			absent: append([]domain.Code{domain.ResultInverted}, inverted...),
		},
		{
			name:   "FITAB art. 20/TOTALS_INVERTED/totals swapped, MP and VP right",
			sheet:  dtWritten(dtMatch(), dtPair(805, 1055), dtPair(250, -250), dtPair(12, 8)),
			want:   []dtWant{dtErr(domain.TotalsInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.TotalsInverted: 1},
			absent: append([]domain.Code{domain.ResultInverted}, inverted...),
		},
		{
			name:   "FIBur-INT art. 19/TOTALS_INVERTED/totals swapped, nothing else written",
			sheet:  dtWritten(dtMatch(), dtPair(805, 1055), dtNone, dtNone),
			want:   []dtWant{dtErr(domain.TotalsInverted, 0, dtNoLine)},
			absent: inverted,
		},
		{
			name:   "FITAB art. 38/TOTALS_INVERTED/late points included, totals swapped",
			sheet:  dtLate(dtWritten(dtMatch(), dtPair(805, 1155), dtNone, dtNone), 100, 0),
			want:   []dtWant{dtErr(domain.TotalsInverted, 0, dtNoLine)},
			absent: inverted,
		},
		{
			name:   "RULES §6.3/TOTALS_INVERTED/near-miss: inversion needs both totals written",
			sheet:  dtWritten(dtMatch(), [2]*int{domain.Int(805), nil}, dtNone, dtNone),
			want:   []dtWant{dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(805, 1055)},
			absent: []domain.Code{domain.TotalsInverted},
		},
		{
			name: "RULES §6.3/TOTALS_INVERTED/near-miss: a tie swapped is the same tie",
			sheet: dtWritten(dtSheet(domain.FIBurIta,
				dtClosedNS(dtLine(300, 100), dtLine(200, 100)),
				dtHand(domain.EndClosed, dtLine(100, 0), dtLine(300, -100))), dtPair(500, 500), dtPair(0, 0), dtPair(10, 10)),
			absent: []domain.Code{domain.TotalsInverted, domain.ResultInverted},
		},
		{
			name:   "FITAB art. 20/RESULT_INVERTED/MP and VP swapped",
			sheet:  dtWritten(dtMatch(), dtPair(1055, 805), dtPair(-250, 250), dtPair(8, 12)),
			want:   []dtWant{dtErr(domain.ResultInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.ResultInverted: 1},
			absent: append([]domain.Code{domain.TotalsInverted}, inverted...),
		},
		{
			name:   "FITAB art. 20/RESULT_INVERTED/VP swapped, MP right",
			sheet:  dtWritten(dtMatch(), dtPair(1055, 805), dtPair(250, -250), dtPair(8, 12)),
			want:   []dtWant{dtErr(domain.ResultInverted, 0, dtNoLine)},
			count:  map[domain.Code]int{domain.ResultInverted: 1},
			absent: append([]domain.Code{domain.TotalsInverted}, inverted...),
		},
		{
			name:   "FIBur-INT art. 19/RESULT_INVERTED/MP swapped, nothing else written",
			sheet:  dtWritten(dtMatch(), dtNone, dtPair(-250, 250), dtNone),
			want:   []dtWant{dtErr(domain.ResultInverted, 0, dtNoLine)},
			absent: inverted,
		},
		{
			// RULES §6.3: "An inversion is the two lines' results swapped; it
			// is never the consequence of a sum error." NS 1055 and EO 805
			// mis-added to 930 and 1180: MP −250/+250 and VP 8-12 follow from
			// those totals, and happen to mirror the computed 250/−250, 12-8.
			name:  "FITAB art. 20/RESULT_INVERTED/near-miss: MP and VP follow mis-added totals, a sum error",
			sheet: dtWritten(dtMatch(), dtPair(930, 1180), dtPair(-250, 250), dtPair(8, 12)),
			want: []dtWant{
				dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(930, 1055),
				dtErr(domain.FinalTotalMismatch, 0, dtEO).at("total").values(1180, 805),
				dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(-250, 250),
				dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(8, 12),
			},
			absent: []domain.Code{domain.ResultInverted, domain.TotalsInverted},
		},
		{
			name:  "FIBur-INT art. 19/RESULT_INVERTED/near-miss: VP follow mis-added totals (no MP written), a sum error",
			sheet: dtWritten(dtSheet(domain.FIBurIta, dtMatch().Hands...), dtPair(930, 1180), dtNone, dtPair(8, 12)),
			want: []dtWant{dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(8, 12),
				dtErr(domain.FinalTotalMismatch, 0, dtNS), dtErr(domain.FinalTotalMismatch, 0, dtEO)},
			absent: []domain.Code{domain.ResultInverted, domain.TotalsInverted},
		},
		{
			name:   "FITAB art. 20/RESULT_INVERTED/near-miss: VP follow a mis-computed MP difference, a sum error",
			sheet:  dtWritten(dtMatch(), dtPair(1055, 805), dtPair(-240, 240), dtPair(8, 12)),
			want:   []dtWant{dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(-240, 250), dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(8, 12)},
			absent: []domain.Code{domain.ResultInverted, domain.TotalsInverted},
		},
		{
			// Mis-added totals, but MP and VP do not follow from them: the
			// results were swapped, an inversion next to the sum error.
			name:   "FITAB art. 20/RESULT_INVERTED/totals mis-added, MP and VP swapped independently",
			sheet:  dtWritten(dtMatch(), dtPair(1060, 805), dtPair(-250, 250), dtPair(8, 12)),
			want:   []dtWant{dtErr(domain.ResultInverted, 0, dtNoLine), dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(1060, 1055)},
			absent: []domain.Code{domain.TotalsInverted, domain.MPMismatch, domain.VPMismatch},
		},
		{
			// Hand 3 totals written 220 (NS, should be 470) and 485 (EO,
			// should be 235): the written hand totals add up to 805 and 1055,
			// the computed totals swapped. The final totals follow the
			// sheet's own sums: a sum error, not TOTALS_INVERTED.
			name: "FITAB art. 20/TOTALS_INVERTED/near-miss: final totals follow mis-added hand totals, a sum error",
			sheet: func() domain.Sheet {
				s := dtWritten(dtMatch(), dtPair(805, 1055), dtPair(-250, 250), dtPair(8, 12))
				s.Hands[2].Lines[0].Total = domain.Int(220)
				s.Hands[2].Lines[1].Total = domain.Int(485)
				return s
			}(),
			want: []dtWant{
				dtErr(domain.HandTotalMismatch, 3, dtNS), dtErr(domain.HandTotalMismatch, 3, dtEO),
				dtErr(domain.FinalTotalMismatch, 0, dtNS).at("total").values(805, 1055),
				dtErr(domain.FinalTotalMismatch, 0, dtEO).at("total").values(1055, 805),
				dtErr(domain.MPMismatch, 0, dtNS), dtErr(domain.VPMismatch, 0, dtNS),
			},
			absent: []domain.Code{domain.ResultInverted, domain.TotalsInverted},
		},
		{
			name: "FITAB art. 20/TOTALS_INVERTED/near-miss: final totals follow mis-added running totals, a sum error",
			sheet: dtWritten(dtWithRunning(dtMatch(), [][2]int{{535, -20}, {335, 820}, {805, 1055}}),
				dtPair(805, 1055), dtNone, dtNone),
			want:   []dtWant{dtErr(domain.RunningTotalMismatch, 2, dtNS), dtErr(domain.FinalTotalMismatch, 0, dtNS), dtErr(domain.FinalTotalMismatch, 0, dtEO)},
			absent: []domain.Code{domain.ResultInverted, domain.TotalsInverted},
		},
		{
			name:   "RULES §6.3/RESULT_INVERTED/near-miss: inversion needs both VPs written",
			sheet:  dtWritten(dtMatch(), dtNone, dtNone, [2]*int{domain.Int(8), nil}),
			want:   []dtWant{dtErr(domain.VPMismatch, 0, dtNS).at("vp").values(8, 12)},
			absent: []domain.Code{domain.ResultInverted},
		},
		{
			name:   "RULES §6.3/RESULT_INVERTED/near-miss: inversion needs both MPs written",
			sheet:  dtWritten(dtMatch(), dtNone, [2]*int{domain.Int(-250), nil}, dtNone),
			want:   []dtWant{dtErr(domain.MPMismatch, 0, dtNS).at("mp").values(-250, 250)},
			absent: []domain.Code{domain.ResultInverted},
		},
	})
}

func TestRulesHandsPlanned(t *testing.T) {
	three := dtMatch()
	dtRun(t, []dtCase{
		{
			name:  "RULES §6.3/HANDS_EXCEED_PLANNED/3 hands in a 2-hand round",
			sheet: dtPlanned(dtMatch(), 2),
			want:  []dtWant{dtErr(domain.HandsExceedPlanned, 0, dtNoLine)},
		},
		{
			name: "RULES §6.3/HANDS_EXCEED_PLANNED/5 hands in a 4-hand round",
			sheet: dtPlanned(dtSheet(domain.FIBurIta, append(append([]domain.Hand{}, three.Hands...),
				dtClosedNS(dtLine(300, 100), dtLine(100, 0)), dtClosedNS(dtLine(300, 100), dtLine(100, 0)))...), 4),
			want: []dtWant{dtErr(domain.HandsExceedPlanned, 0, dtNoLine)},
		},
		{
			name:   "RULES §6.3/HANDS_EXCEED_PLANNED/near-miss: 3 hands in a 3-hand round",
			sheet:  dtMatch(),
			absent: []domain.Code{domain.HandsExceedPlanned, domain.HandsFewerThanPlanned},
		},
		{
			name:  "FITAB art. 15/HANDS_FEWER_THAN_PLANNED/3 hands in a 4-hand round: info",
			sheet: dtPlanned(dtMatch(), 4),
			want:  []dtWant{dtInfo(domain.HandsFewerThanPlanned, 0, dtNoLine)},
		},
		{
			name: "FITAB art. 15/HANDS_FEWER_THAN_PLANNED/time-out after 2 of 3 hands: info",
			sheet: dtPlanned(dtSheet(domain.FITAB2025,
				dtClosedNS(dtLine(300, 235), dtLine(100, -120)),
				dtHand(domain.EndTimeOut, dtLine(200, 150), dtLine(100, 40))), 3),
			want:   []dtWant{dtInfo(domain.HandsFewerThanPlanned, 0, dtNoLine)},
			absent: []domain.Code{domain.HandsExceedPlanned},
		},
		{
			name: "FITAB art. 15/HANDS_FEWER_THAN_PLANNED/near-miss: 2 hands in a 2-hand round",
			sheet: dtSheet(domain.FITAB2025,
				dtClosedNS(dtLine(300, 235), dtLine(100, -120)),
				dtClosedNS(dtLine(300, 120), dtLine(100, -50))),
			absent: []domain.Code{domain.HandsFewerThanPlanned, domain.HandsExceedPlanned},
		},
	})
}

// RULES §7: a line's late_points is 0, 100 or 150 (FITAB art. 38, FIBur-INT
// art. 34: +100 up to five minutes, a further +50 from five to ten).
func TestRulesLatePointsInvalid(t *testing.T) {
	bad := func(l dtLineSel, v int) []dtWant {
		return []dtWant{dtErr(domain.LatePointsInvalid, 0, l).at("late_points").wrote(v)}
	}
	dtRun(t, []dtCase{
		{name: "FITAB art. 38/LATE_POINTS_INVALID/EO 300", sheet: dtLate(dtMatch(), 0, 300), want: bad(dtEO, 300)},
		{name: "FITAB art. 38/LATE_POINTS_INVALID/NS 50 (the further 50 alone)", sheet: dtLate(dtMatch(), 50, 0), want: bad(dtNS, 50)},
		{name: "FITAB art. 38/LATE_POINTS_INVALID/NS -100", sheet: dtLate(dtMatch(), -100, 0), want: bad(dtNS, -100)},
		{name: "FITAB art. 38/LATE_POINTS_INVALID/NS 200 (two credits of 100)", sheet: dtLate(dtMatch(), 200, 0), want: bad(dtNS, 200)},
		{name: "FITAB art. 38/LATE_POINTS_INVALID/near-miss: 0, 100, 150", sheet: dtLate(dtMatch(), 100, 150), absent: []domain.Code{domain.LatePointsInvalid}},
		{
			name:  "FIBur-INT art. 34/LATE_POINTS_INVALID/both lines 120",
			sheet: dtLate(dtSheet(domain.FIBurIta, dtMatch().Hands...), 120, 120),
			want:  append(bad(dtNS, 120), bad(dtEO, 120)...),
		},
	})
	r := domain.Validate(dtLate(dtMatch(), 0, 300))
	for _, f := range r.Findings {
		if f.Code == domain.LatePointsInvalid {
			if f.Pointer != "/late_points/eo" || f.Rule != "FITAB art. 38" {
				t.Errorf("LATE_POINTS_INVALID pointer %q rule %q, want /late_points/eo, FITAB art. 38", f.Pointer, f.Rule)
			}
			if !strings.Contains(f.Message(domain.Italian), "ritardo") {
				t.Errorf("Italian message %q", f.Message(domain.Italian))
			}
		}
	}
	rs := domain.Validate(dtLate(dtSheet(domain.FIBurIta, dtMatch().Hands...), 120, 0))
	for _, f := range rs.Findings {
		if f.Code == domain.LatePointsInvalid && f.Rule != "FIBur-INT art. 34" {
			t.Errorf("FIBur rule %q", f.Rule)
		}
	}
}
