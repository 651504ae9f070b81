// Package screening looks over a season of stored tournaments for what a
// human at the federation should look at (API §4.4): sheets
// changed after their signatures, corrections applied outside what their
// ruling allowed, two tables with the same hands (a copied sheet), scores
// far outside the season's distribution, a pair whose opponents lose to it
// by improbable margins, tournaments whose standings do not re-derive
// from the hands. Each flag carries its reason, the data behind it and a
// score (larger: more worth a look). The tests and their thresholds are
// the named constants below, stated in docs/screening.md.
//
// The package is pure: it reads domain values and calls domain functions
// (domain.Decide, domain.OfficialStandings); app/ loads the season.
package screening

import (
	"cmp"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"time"

	"segnapunti/domain"
)

// Kinds of flag (API §4.4).
const (
	KindChangedAfterSignature   = "changed_after_signature"
	KindCorrectionOutsideRuling = "correction_outside_ruling"
	KindCopiedSheet             = "copied_sheet"
	KindScoreOutlier            = "score_outlier"
	KindImprobableMargins       = "improbable_margins"
	KindStandingsNotDerivable   = "standings_not_derivable"
)

// Kinds lists every kind, in the order flags are sorted.
var Kinds = []string{KindChangedAfterSignature, KindCorrectionOutsideRuling, KindCopiedSheet, KindScoreOutlier,
	KindImprobableMargins, KindStandingsNotDerivable}

// The tests' thresholds (docs/screening.md).
const (
	// ChangedAfterSignatureSlack: a sheet stored more than this after its
	// last signature, with no correction applied to it since, was changed
	// after signature (FITAB art. 20, FIBur-INT art. 19, RULES §9: a
	// delivered sheet changes only by a referee's correction). The slack absorbs the write of the
	// confirmation itself.
	ChangedAfterSignatureSlack = 2 * time.Second

	// CopiedSheetMinHands: two sheets are a copy when they have the same
	// sequence of hands, line by line (base and points), and at least
	// this many hands that are not all zero.
	CopiedSheetMinHands = 2

	// ScoreOutlierZ: a line's final total is an outlier when it is more
	// than this many robust standard deviations (1.4826 × the median
	// absolute deviation) from the median of the season's final totals
	// of the same ruleset and planned hands.
	ScoreOutlierZ = 6.0
	// ScoreOutlierMinSample: a group with fewer totals has no distribution
	// to be far from.
	ScoreOutlierMinSample = 50

	// ImprobableMarginsScore: a pair's (player's, team's) matches in one
	// tournament are improbable when −Σ log10 S(mp) over its matches is at
	// least this, S(mp) being the share of the season's match results (of
	// the same ruleset and planned hands) with at least that MP (with one
	// added to both counts, so no share is 0). 8 is a chance of 1 in 10^8
	// that independent matches drawn from the season give margins so
	// large.
	ImprobableMarginsScore = 8.0
	// ImprobableMarginsMinMatches: fewer matches say too little.
	ImprobableMarginsMinMatches = 3

	// CorrectionOutsideRulingScore and the score of a standings flag per
	// entrant placed elsewhere are fixed: these are not statistics, any
	// one of them is worth a look.
	CorrectionOutsideRulingScore = 10.0
)

// Tournament is one stored tournament as the screening reads it.
type Tournament struct {
	Tournament  domain.Tournament
	Entrants    []domain.Entrant
	Rounds      []domain.Round
	Sheets      []Sheet
	Corrections []Correction
	Adjustments []domain.RecordedAdjustment
}

// Sheet is one stored sheet with its seating and times.
type Sheet struct {
	Round, Table int
	Sheet        domain.Sheet
	// ChangedAt is when the sheet was last stored; SignedAt its latest
	// signature (zero: not signed).
	ChangedAt, SignedAt time.Time
}

// Correction is one recorded correction.
type Correction struct {
	Round, Table int
	Situation    domain.CorrectionSituation
	Ruling       domain.Ruling
	Applied      bool
	At           time.Time
}

// Flag is one thing for a human to look at.
type Flag struct {
	Kind       string
	Tournament string
	Club       string
	Round      int // 0: none
	Table      int // 0: none
	Entrants   []string
	Reason     string // English
	ReasonIT   string // Italian
	Data       map[string]any
	Score      float64
}

// Message is the reason in l.
func (f Flag) Message(l domain.Lang) string {
	if l == domain.Italian && f.ReasonIT != "" {
		return f.ReasonIT
	}
	return f.Reason
}

// sheetFacts is what the season-wide tests need of one sheet.
type sheetFacts struct {
	t     *Tournament
	s     *Sheet
	ta    domain.TableAssignment
	match domain.OfficialMatch
	group groupKey
}

type groupKey struct {
	ruleset domain.Ruleset
	hands   int
}

// Screen flags the season's tournaments, sorted by kind, then score
// (highest first), then tournament, round and table.
func Screen(ts []Tournament) []Flag {
	var flags []Flag
	var facts []sheetFacts
	for i := range ts {
		t := &ts[i]
		rounds := make(map[int]domain.Round, len(t.Rounds))
		for _, r := range t.Rounds {
			rounds[r.Number] = r
		}
		for j := range t.Sheets {
			s := &t.Sheets[j]
			ta, _ := rounds[s.Round].Assignment(s.Table)
			m := domain.OfficialResult(s.Sheet, domain.Validate(s.Sheet))
			facts = append(facts, sheetFacts{t: t, s: s, ta: ta, match: m, group: groupKey{t.Tournament.Ruleset, s.Sheet.HandsPlanned}})
		}
		flags = append(flags, changedAfterSignature(t)...)
		flags = append(flags, correctionsOutsideRuling(t)...)
	}
	flags = append(flags, copiedSheets(facts)...)
	flags = append(flags, scoreOutliers(facts)...)
	flags = append(flags, improbableMargins(facts)...)
	flags = append(flags, standingsNotDerivable(ts, facts)...)
	slices.SortStableFunc(flags, func(a, b Flag) int {
		return cmp.Or(cmp.Compare(slices.Index(Kinds, a.Kind), slices.Index(Kinds, b.Kind)), cmp.Compare(b.Score, a.Score),
			cmp.Compare(a.Tournament, b.Tournament), cmp.Compare(a.Round, b.Round), cmp.Compare(a.Table, b.Table))
	})
	return flags
}

func flagOf(kind string, t *Tournament, round, table int, entrants []string, score float64, data map[string]any, en, it string) Flag {
	return Flag{Kind: kind, Tournament: t.Tournament.ID, Club: t.Tournament.ClubID, Round: round, Table: table, Entrants: entrants,
		Reason: en, ReasonIT: it, Data: data, Score: math.Round(score*100) / 100}
}

// changedAfterSignature: a delivered sheet is final (FITAB art. 20,
// FIBur-INT art. 19; RULES §9) — a signed sheet changes only by a
// referee's applied correction.
func changedAfterSignature(t *Tournament) []Flag {
	var out []Flag
	for i := range t.Sheets {
		s := &t.Sheets[i]
		if s.SignedAt.IsZero() || !s.ChangedAt.After(s.SignedAt.Add(ChangedAfterSignatureSlack)) {
			continue
		}
		corrected := slices.ContainsFunc(t.Corrections, func(c Correction) bool {
			return c.Round == s.Round && c.Table == s.Table && c.Applied && !c.At.Before(s.SignedAt)
		})
		if corrected {
			continue
		}
		after := s.ChangedAt.Sub(s.SignedAt)
		rule := t.Tournament.Ruleset.SheetRule() // FITAB art. 20, FIBur-INT art. 19
		seated := append(slices.Clone(s.Sheet.Sides[0].Entrants()), s.Sheet.Sides[1].Entrants()...)
		out = append(out, flagOf(KindChangedAfterSignature, t, s.Round, s.Table, seated, after.Minutes(),
			map[string]any{"signed_at": s.SignedAt.UTC().Format(time.RFC3339), "changed_at": s.ChangedAt.UTC().Format(time.RFC3339), "seconds_after": int(after.Seconds())},
			fmt.Sprintf("the sheet was stored %s after its last signature, and no correction was applied to it since: a delivered sheet is final but for a referee's correction (%s)", after.Round(time.Second), rule),
			fmt.Sprintf("lo score è stato modificato %s dopo l'ultima firma, senza alcuna correzione applicata: uno score consegnato è definitivo salvo correzione dell'arbitro (%s)", after.Round(time.Second), rule)))
	}
	return out
}

// correctionsOutsideRuling: RULES §9 — a correction is applied only when
// its ruling allows it, and the ruling is the codes' for its situation.
func correctionsOutsideRuling(t *Tournament) []Flag {
	var out []Flag
	for _, c := range t.Corrections {
		d := domain.Decide(c.Situation)
		var en, it string
		switch {
		case c.Applied && d.Ruling == domain.RulingReject:
			en = fmt.Sprintf("a correction was applied although the codes reject it (%v)", d.Rules)
			it = fmt.Sprintf("una correzione è stata applicata benché i regolamenti la respingano (%v)", d.Rules)
		case c.Ruling != d.Ruling:
			en = fmt.Sprintf("the correction records the ruling %q; its situation gives %q (%v)", c.Ruling, d.Ruling, d.Rules)
			it = fmt.Sprintf("la correzione riporta la decisione %q; la sua situazione dà %q (%v)", c.Ruling, d.Ruling, d.Rules)
		case c.Applied != (d.Ruling != domain.RulingReject):
			en = "a correction the ruling allowed was not applied"
			it = "una correzione ammessa dalla decisione non è stata applicata"
		default:
			continue
		}
		out = append(out, flagOf(KindCorrectionOutsideRuling, t, c.Round, c.Table, nil, CorrectionOutsideRulingScore,
			map[string]any{"recorded_ruling": string(c.Ruling), "applied": c.Applied, "ruling": string(d.Ruling), "rules": d.Rules}, en, it))
	}
	return out
}

// copiedSheets: two tables of the season with the same sequence of hands.
func copiedSheets(facts []sheetFacts) []Flag {
	seed := maphash.MakeSeed()
	byHash := make(map[uint64]*sheetFacts, len(facts))
	var out []Flag
	for i := range facts {
		f := &facts[i]
		hands := f.s.Sheet.Hands
		nonZero := 0
		var h maphash.Hash
		h.SetSeed(seed)
		for _, hd := range hands {
			for _, l := range hd.Lines {
				fmt.Fprintf(&h, "%d,%d;", l.Base, l.Points)
				if l.Base != 0 || l.Points != 0 {
					nonZero++
				}
			}
			h.WriteByte('|')
		}
		if len(hands) < CopiedSheetMinHands || nonZero < 2*CopiedSheetMinHands-1 {
			continue
		}
		key := h.Sum64()
		g, ok := byHash[key]
		if !ok {
			byHash[key] = f
			continue
		}
		if !sameHands(g.s.Sheet.Hands, hands) {
			continue // a hash collision
		}
		out = append(out, flagOf(KindCopiedSheet, f.t, f.s.Round, f.s.Table, f.ta.Seated(), float64(len(hands)),
			map[string]any{"hands": len(hands), "same_as": map[string]any{"tournament": g.t.Tournament.ID, "round": g.s.Round, "table": g.s.Table}},
			fmt.Sprintf("its %d hands are, line by line, those of tournament %s, round %d, table %d", len(hands), g.t.Tournament.ID, g.s.Round, g.s.Table),
			fmt.Sprintf("le sue %d smazzate sono, riga per riga, quelle del torneo %s, turno %d, tavolo %d", len(hands), g.t.Tournament.ID, g.s.Round, g.s.Table)))
	}
	return out
}

func sameHands(a, b []domain.Hand) bool {
	return slices.EqualFunc(a, b, func(x, y domain.Hand) bool {
		for l := range 2 {
			if x.Lines[l].Base != y.Lines[l].Base || x.Lines[l].Points != y.Lines[l].Points {
				return false
			}
		}
		return true
	})
}

// scoreOutliers: a line's final total far from the season's median.
func scoreOutliers(facts []sheetFacts) []Flag {
	totals := map[groupKey][]float64{}
	for _, f := range facts {
		for _, l := range domain.Lines {
			totals[f.group] = append(totals[f.group], float64(f.match.Lines[l].Computed.Total))
		}
	}
	type stat struct{ median, scale float64 }
	stats := map[groupKey]stat{}
	for k, xs := range totals {
		if len(xs) < ScoreOutlierMinSample {
			continue
		}
		med := median(xs)
		dev := make([]float64, len(xs))
		for i, x := range xs {
			dev[i] = math.Abs(x - med)
		}
		if mad := median(dev); mad > 0 {
			stats[k] = stat{med, 1.4826 * mad}
		}
	}
	var out []Flag
	for _, f := range facts {
		st, ok := stats[f.group]
		if !ok {
			continue
		}
		for _, l := range domain.Lines {
			total := f.match.Lines[l].Computed.Total
			z := math.Abs(float64(total)-st.median) / st.scale
			if z < ScoreOutlierZ {
				continue
			}
			out = append(out, flagOf(KindScoreOutlier, f.t, f.s.Round, f.s.Table, f.ta.Line(l), z,
				map[string]any{"line": l.String(), "total": total, "season_median": st.median, "season_scale": math.Round(st.scale*10) / 10},
				fmt.Sprintf("%s's final total %d is %.1f robust deviations from the season's median %.0f (%s, %d hands): a total to re-add", l.Label(), total, z, st.median, f.group.ruleset, f.group.hands),
				fmt.Sprintf("il totale finale %d di %s è a %.1f deviazioni robuste dalla mediana di stagione %.0f (%s, %d smazzate): un totale da ricontrollare", total, l.Label(), z, st.median, f.group.ruleset, f.group.hands)))
		}
	}
	return out
}

// median sorts xs in place and returns its median.
func median(xs []float64) float64 {
	slices.Sort(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// improbableMargins: an entrant whose opponents lose to it by margins the
// season makes improbable.
func improbableMargins(facts []sheetFacts) []Flag {
	mps := map[groupKey][]int{}
	for _, f := range facts {
		for _, l := range domain.Lines {
			mps[f.group] = append(mps[f.group], f.match.Lines[l].Official.MP)
		}
	}
	for _, xs := range mps {
		slices.Sort(xs)
	}
	// survival is S(mp): the share of results with at least mp, plus one.
	survival := func(k groupKey, mp int) float64 {
		xs := mps[k]
		i, _ := slices.BinarySearch(xs, mp)
		return float64(len(xs)-i+1) / float64(len(xs)+1)
	}
	type entrantKey struct {
		t  *Tournament
		id string
	}
	type tally struct {
		score   float64
		matches int
		mps     []int
	}
	tallies := map[entrantKey]*tally{}
	var order []entrantKey
	for _, f := range facts {
		for _, l := range domain.Lines {
			mp := f.match.Lines[l].Official.MP
			s := -math.Log10(survival(f.group, mp))
			for _, id := range f.ta.Line(l) {
				k := entrantKey{f.t, id}
				tl, ok := tallies[k]
				if !ok {
					tl = &tally{}
					tallies[k] = tl
					order = append(order, k)
				}
				tl.score += s
				tl.matches++
				tl.mps = append(tl.mps, mp)
			}
		}
	}
	var out []Flag
	for _, k := range order {
		tl := tallies[k]
		if tl.matches < ImprobableMarginsMinMatches || tl.score < ImprobableMarginsScore {
			continue
		}
		out = append(out, flagOf(KindImprobableMargins, k.t, 0, 0, []string{k.id}, tl.score,
			map[string]any{"matches": tl.matches, "mp": tl.mps},
			fmt.Sprintf("entrant %s won its %d matches by margins %v MP: a chance of 1 in 10^%.1f over the season's results", k.id, tl.matches, tl.mps, tl.score),
			fmt.Sprintf("%s ha vinto i suoi %d incontri con scarti di %v MP: una probabilità di 1 su 10^%.1f sui risultati della stagione", k.id, tl.matches, tl.mps, tl.score)))
	}
	return out
}

// standingsNotDerivable: the tournament's standings, built from the
// official results (the written figures, RULES §8), are not those the
// hands give — some entrant would be placed elsewhere had the sheets
// been added up right and not corrected.
func standingsNotDerivable(ts []Tournament, facts []sheetFacts) []Flag {
	byT := map[*Tournament][]domain.TableResult{}
	for _, f := range facts {
		ns, eo := f.match.Lines[domain.NS], f.match.Lines[domain.EO]
		byT[f.t] = append(byT[f.t], domain.TableResult{Round: f.s.Round, Table: f.s.Table, NS: f.ta.NS, EO: f.ta.EO, NS2: f.ta.NS2, EO2: f.ta.EO2,
			Official: [2]domain.LineResult{ns.Official, eo.Official}, Computed: [2]domain.LineResult{ns.Computed, eo.Computed}})
	}
	var out []Flag
	for i := range ts {
		t := &ts[i]
		results := byT[t]
		if !slices.ContainsFunc(results, func(r domain.TableResult) bool { return r.Official != r.Computed }) {
			continue
		}
		computed := slices.Clone(results)
		for j := range computed {
			computed[j].Official = computed[j].Computed
		}
		in := domain.OfficialStandingsInput{Tournament: t.Tournament, Entrants: t.Entrants, Rounds: t.Rounds, Adjustments: t.Adjustments}
		in.Results = results
		official, err1 := domain.OfficialStandings(in)
		in.Results = computed
		derived, err2 := domain.OfficialStandings(in)
		if err1 != nil || err2 != nil {
			out = append(out, flagOf(KindStandingsNotDerivable, t, 0, 0, nil, CorrectionOutsideRulingScore, map[string]any{},
				"the standings cannot be built from the stored records", "la classifica non si costruisce dai dati registrati"))
			continue
		}
		rank := map[string]int{}
		for _, r := range derived.Rows {
			rank[r.Entrant.ID] = r.Rank
		}
		var moved []string
		placed := map[string]any{}
		for _, r := range official.Rows {
			if rank[r.Entrant.ID] != r.Rank {
				moved = append(moved, r.Entrant.ID)
				placed[r.Entrant.ID] = map[string]int{"published": r.Rank, "from_hands": rank[r.Entrant.ID]}
			}
		}
		if len(moved) == 0 {
			continue
		}
		out = append(out, flagOf(KindStandingsNotDerivable, t, official.AfterRound, 0, moved, float64(len(moved)), map[string]any{"ranks": placed},
			fmt.Sprintf("%d entrants are placed elsewhere than the hands of the sheets give (RULES §8: the written results count until corrected)", len(moved)),
			fmt.Sprintf("%d iscritti sono in una posizione diversa da quella che danno le smazzate (RULES §8: i risultati scritti valgono finché non corretti)", len(moved))))
	}
	return out
}
