package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
)

// The referee's desk (UI.md §4): the review queue and the preview of a
// correction — the ruling the codes give now, the standings before and
// after and, in a danese phase, the next seating it would have changed —
// before anything is written.

// ReviewItem is one sheet in the referee's queue.
type ReviewItem struct {
	Round, Table int
	Version      int
	Findings     []domain.Finding // errors then warnings
	Errors       int
	Warnings     int
	Called       bool // a "call the referee" flag is open
}

// Worst is the item's severity for the queue: error, warning or call.
func (it ReviewItem) Worst() string {
	switch {
	case it.Errors > 0:
		return string(domain.SeverityError)
	case it.Warnings > 0:
		return string(domain.SeverityWarning)
	}
	return "call"
}

func (it ReviewItem) rank() int {
	switch {
	case it.Errors > 0:
		return 0
	case it.Warnings > 0:
		return 1
	}
	return 2
}

// ReviewQueue is the referee's queue of one tournament.
type ReviewQueue struct {
	Tournament domain.Tournament
	Access     Access
	CanJudge   bool // the caller may correct (Access.Judge)
	Items      []ReviewItem
	Rounds     []domain.Round // for the links to each round's control
	// Stamp names the state of the tournament the sheets' items were
	// read at: equal stamps and equal Called flags, equal Items.
	Stamp string
}

// Review lists every stored sheet with an error or warning finding, or a
// "call the referee" flag: errors first, then warnings, then flags; then
// by round and table. Anyone who may read the tournament may read it;
// CanJudge says whether the caller may correct.
func (a *App) Review(ctx context.Context, p Principal, tid string) (ReviewQueue, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return ReviewQueue{}, err
	}
	// Read access is settled above: the calls are read without asking again.
	calls, err := a.db.RefereeCalls(ctx, t.ID)
	if err != nil {
		return ReviewQueue{}, err
	}
	called := map[[2]int]bool{}
	for _, c := range calls {
		called[[2]int{c.Round, c.Table}] = true
	}
	sheets, stamp, err := a.reviewSheetsOf(ctx, t.ID)
	if err != nil {
		return ReviewQueue{}, err
	}
	q := ReviewQueue{Tournament: t, Access: acc, CanJudge: acc.Judge(t), Rounds: sheets.rounds, Stamp: string(stamp)}
	seen := map[[2]int]bool{}
	for _, it := range sheets.items {
		k := [2]int{it.Round, it.Table}
		seen[k] = true
		it.Called = called[k]
		if it.Errors+it.Warnings == 0 && !it.Called {
			continue
		}
		q.Items = append(q.Items, it)
	}
	for k := range called {
		if !seen[k] {
			q.Items = append(q.Items, ReviewItem{Round: k[0], Table: k[1], Called: true})
		}
	}
	slices.SortFunc(q.Items, func(x, y ReviewItem) int {
		return cmp.Or(cmp.Compare(x.rank(), y.rank()), cmp.Compare(x.Round, y.Round), cmp.Compare(x.Table, y.Table))
	})
	return q, nil
}

// reviewSheets is what the review queue reads from the stored sheets: one
// item per sheet (its findings, errors then warnings; Called unset) and
// the tournament's rounds. Computed once per tournament stamp
// (store.StandingsStamp: every sheet write, hand and correction moves it,
// and so does every change to the tournament or its rounds), it is shared
// by the requests at that stamp and never modified.
type reviewSheets struct {
	items  []ReviewItem
	rounds []domain.Round
}

// reviewSheetsOf reads the review's sheets of tournament tid at its
// current stamp, from the cache when the stamp has not moved.
func (a *App) reviewSheetsOf(ctx context.Context, tid string) (reviewSheets, store.StandingsStamp, error) {
	stamp, err := a.db.StandingsStamp(ctx, tid)
	if err != nil {
		return reviewSheets{}, "", err
	}
	sheets, err := a.reviewCache.Get(tid, 0, stamp, func() (reviewSheets, error) {
		var out reviewSheets
		var err error
		if out.rounds, err = a.db.ListRounds(ctx, tid); err != nil {
			return reviewSheets{}, err
		}
		for sh, err := range a.db.EachSheet(ctx, tid) {
			if err != nil {
				return reviewSheets{}, err
			}
			it := ReviewItem{Round: sh.Round, Table: sh.Table, Version: sh.Version}
			for _, f := range domain.Validate(sh.Sheet).Findings {
				switch f.Severity {
				case domain.SeverityError:
					it.Errors++
				case domain.SeverityWarning:
					it.Warnings++
				default:
					continue
				}
				it.Findings = append(it.Findings, f)
			}
			slices.SortStableFunc(it.Findings, func(x, y domain.Finding) int {
				return cmp.Compare(severityRank(x.Severity), severityRank(y.Severity))
			})
			out.items = append(out.items, it)
		}
		return out, nil
	})
	return sheets, stamp, err
}

func severityRank(s domain.Severity) int {
	if s == domain.SeverityError {
		return 0
	}
	return 1
}

// StandingsChange is one entrant's line of a standings diff.
type StandingsChange struct {
	Entrant          string
	RankBefore, Rank int
	VPBefore, VP     int
	MPBefore, MP     int
	Changed          bool
}

// StandingsDiff lists every entrant of after with its figures before; the
// changed ones are marked.
func StandingsDiff(before, after StandingsTable) []StandingsChange {
	prev := map[string]domain.Standing{}
	for _, s := range before.Rows {
		prev[s.Entrant.ID] = s
	}
	out := make([]StandingsChange, 0, len(after.Rows))
	for _, s := range after.Rows {
		b := prev[s.Entrant.ID]
		c := StandingsChange{Entrant: s.Entrant.ID, RankBefore: b.Rank, Rank: s.Rank, VPBefore: b.VP, VP: s.VP, MPBefore: b.MP, MP: s.MP}
		c.Changed = c.RankBefore != c.Rank || c.VPBefore != c.VP || c.MPBefore != c.MP
		out = append(out, c)
	}
	return out
}

// SeatingChange is a table of the next round that a pairing from the
// corrected standings would seat differently.
type SeatingChange struct {
	Table        int
	NS, EO       string // as seated
	NewNS, NewEO string // as the corrected standings would seat it
}

// CorrectionPreview is what a correction would do, computed without
// writing anything.
type CorrectionPreview struct {
	Target    SheetTarget
	Version   int // the stored sheet's version it was computed on
	Situation domain.CorrectionSituation
	Decision  domain.Decision
	Stored    domain.Sheet
	Corrected domain.Sheet
	// Official is the match's official result (RULES §8) before and after
	// the correction: after a sum or inversion correction that gives no
	// written values, what the corrected sheet adds up to
	// (domain.CorrectedOfficial), as CreateCorrection stores it; when the
	// ruling does not apply it, After is Before.
	Official        struct{ Before, After domain.OfficialMatch }
	StandingsBefore StandingsTable
	StandingsAfter  StandingsTable
	Diff            []StandingsChange
	// PairingChecked: the next round exists and was seated by standings
	// (danese, danese modificato) and the pairing engine re-ran it.
	PairingChecked bool
	NextRound      int
	Seating        []SeatingChange
}

// PreviewCorrection rules on a correction now, from the service's records,
// and computes the standings it would give, writing nothing. Same access
// and same input as CreateCorrection. A sheet changed since in.Version is
// a *store.StaleSheetError.
func (a *App) PreviewCorrection(ctx context.Context, scope TournamentScope, in CorrectionInput) (CorrectionPreview, error) {
	if err := scope.allows(TournamentCorrect); err != nil {
		return CorrectionPreview{}, err
	}
	t, p := scope.Tournament, scope.By
	g, err := a.SheetTarget(ctx, p, t.ID, in.Round, in.Table, false)
	if err != nil {
		return CorrectionPreview{}, err
	}
	st, err := a.db.GetSheet(ctx, t.ID, in.Round, in.Table)
	if errors.Is(err, domain.ErrNotFound) {
		return CorrectionPreview{}, invalid([]FieldError{field("/table", "field.nothing_to_correct", in.Table, in.Round)})
	}
	if err != nil {
		return CorrectionPreview{}, err
	}
	if in.Version > 0 && in.Version != st.Version {
		return CorrectionPreview{}, &store.StaleSheetError{What: fmt.Sprintf("sheet of round %d table %d", in.Round, in.Table), Want: in.Version, Current: st.Version}
	}
	corrected, _, _, err := in.Change.Apply(st.Sheet)
	if err != nil {
		return CorrectionPreview{}, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return CorrectionPreview{}, err
	}
	sit := CorrectionSituation(t, rounds, in.Round, in.Kind, in.Facts)
	pv := CorrectionPreview{Target: g, Version: st.Version, Situation: sit, Decision: domain.Decide(sit), Stored: st.Sheet, Corrected: corrected}
	pv.Official.Before = domain.OfficialResult(st.Sheet, domain.Validate(st.Sheet))
	pv.Official.After = pv.Official.Before
	if pv.Decision.Ruling.Applies() {
		// As CreateCorrection stores it (RULES §8): the written result the
		// standings read is what the corrected sheet adds up to.
		corrected = domain.CorrectedOfficial(in.Kind, corrected, !sameWritten(corrected.Written, st.Sheet.Written))
		pv.Official.After = domain.OfficialResult(corrected, domain.Validate(corrected))
	}

	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return CorrectionPreview{}, err
	}
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return CorrectionPreview{}, err
	}
	var sheets, changed []store.SheetAt
	for sh, err := range a.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return CorrectionPreview{}, err
		}
		sheets = append(sheets, sh)
		if sh.Round == in.Round && sh.Table == in.Table {
			sh.Sheet = corrected
		}
		changed = append(changed, sh)
	}
	if pv.StandingsBefore, err = computeStandings(t, entrants, rounds, resultsOf(rounds, sheets), adjustments, 0); err != nil {
		return CorrectionPreview{}, err
	}
	pv.StandingsAfter = pv.StandingsBefore
	if pv.Decision.Ruling.Applies() {
		if pv.StandingsAfter, err = computeStandings(t, entrants, rounds, resultsOf(rounds, changed), adjustments, 0); err != nil {
			return CorrectionPreview{}, err
		}
	}
	pv.Diff = StandingsDiff(pv.StandingsBefore, pv.StandingsAfter)

	// The next round, when seated from the standings: which of its tables
	// the corrected standings would have seated differently.
	for _, r := range rounds {
		if r.Number != in.Round+1 || (r.Phase != domain.PhaseDanese && r.Phase != domain.PhaseDaneseModificato) {
			continue
		}
		pv.NextRound = r.Number
		afterErr := func(sheets []store.SheetAt) (StandingsTable, error) {
			return computeStandings(t, entrants, rounds, resultsOf(rounds, sheets), adjustments, in.Round)
		}
		sb, err := afterErr(sheets)
		if err != nil {
			return CorrectionPreview{}, err
		}
		sa, err := afterErr(changed)
		if err != nil {
			return CorrectionPreview{}, err
		}
		seatB, errB := a.reseat(t, entrants, rounds, r, sb)
		seatA, errA := a.reseat(t, entrants, rounds, r, sa)
		if errB != nil || errA != nil {
			break // the engine cannot seat this round: the page says so
		}
		pv.PairingChecked = true
		for i, tb := range seatB.Tables {
			if i >= len(seatA.Tables) {
				break
			}
			na := seatA.Tables[i]
			if !slices.Equal(tb.NS, na.NS) || !slices.Equal(tb.EO, na.EO) {
				pv.Seating = append(pv.Seating, SeatingChange{Table: tb.Table, NS: strings.Join(tb.NS, "+"), EO: strings.Join(tb.EO, "+"),
					NewNS: strings.Join(na.NS, "+"), NewEO: strings.Join(na.EO, "+")})
			}
		}
	}
	return pv, nil
}

// reseat re-runs the pairing engine for round next from standings st.
func (a *App) reseat(t domain.Tournament, entrants []domain.Entrant, rounds []domain.Round, next domain.Round, st StandingsTable) (domain.PairedRound, error) {
	req := domain.PairingRequest{Ruleset: t.Ruleset, Kind: t.Kind, System: domain.PairingSystem(next.Phase), Round: next.Number, RoundsPlanned: t.RoundsPlanned}
	for _, e := range entrants {
		req.Entrants = append(req.Entrants, e.ID)
	}
	for _, r := range rounds {
		if r.Number >= next.Number {
			continue
		}
		pr := domain.PairedRound{Number: r.Number, System: domain.PairingSystem(r.Phase), Byes: r.Byes}
		for _, tb := range r.Tables {
			pr.Tables = append(pr.Tables, domain.PairedTable{Table: tb.Table, Match: tb.Match, NS: tb.Line(domain.NS), EO: tb.Line(domain.EO)})
		}
		req.Previous = append(req.Previous, pr)
	}
	slices.SortFunc(req.Previous, func(x, y domain.PairedRound) int { return cmp.Compare(x.Number, y.Number) })
	for _, s := range st.Rows {
		req.Standings = append(req.Standings, s.Entrant.ID)
	}
	return domain.GeneratePairing(req)
}

// CorrectedValues is a correction read from a form's corrected values:
// field name (UI.md §5: "written.ns.total", "hands.0.ns.points") → value,
// nil for "left empty". Base and points are required numbers; totals, MP
// and VP may be removed. The replaced parts (written, hands) are recorded
// before and after as the API records them.
type CorrectedValues map[string]*int

// Apply is SheetChange's: the stored sheet with the values.
func (values CorrectedValues) Apply(cur domain.Sheet) (domain.Sheet, []byte, []byte, error) {
	sh := cur
	sh.Hands = slices.Clone(cur.Hands)
	var keys []string
	var errs []FieldError
	touched := map[string]bool{}
	for name, v := range values {
		parts := strings.Split(name, ".")
		ptr := "/" + strings.Join(parts, "/")
		line := func(s string) (domain.Line, bool) {
			switch s {
			case "ns":
				return domain.NS, true
			case "eo":
				return domain.EO, true
			}
			return 0, false
		}
		switch {
		case len(parts) == 3 && parts[0] == "written":
			l, ok := line(parts[1])
			if !ok {
				errs = append(errs, field(ptr, "field.unknown_line"))
				continue
			}
			w := &sh.Written[l]
			var f **int
			switch parts[2] {
			case "total":
				f = &w.Total
			case "mp":
				f = &w.MP
			case "vp":
				f = &w.VP
			default:
				errs = append(errs, field(ptr, "field.unknown_field"))
				continue
			}
			if !sameInt(*f, v) {
				*f = v
				touched["written"] = true
			}
		case len(parts) == 4 && parts[0] == "hands":
			i, err := strconv.Atoi(parts[1])
			l, ok := line(parts[2])
			if err != nil || i < 0 || i >= len(sh.Hands) || !ok {
				errs = append(errs, field(ptr, "field.no_such_hand"))
				continue
			}
			ls := &sh.Hands[i].Lines[l]
			switch parts[3] {
			case "base", "points":
				if v == nil {
					errs = append(errs, field(ptr, "field.whole_number"))
					continue
				}
				f := &ls.Base
				if parts[3] == "points" {
					f = &ls.Points
				}
				if *f != *v {
					*f = *v
					touched["hands"] = true
				}
			case "total":
				if !sameInt(ls.Total, v) {
					ls.Total = v
					touched["hands"] = true
				}
			case "running_total":
				// A running total is a sum written on the sheet: a
				// sum error the codes let the referee correct (FITAB
				// art. 20, FIBur-INT art. 19).
				if !sameInt(ls.RunningTotal, v) {
					ls.RunningTotal = v
					touched["hands"] = true
				}
			default:
				errs = append(errs, field(ptr, "field.unknown_field"))
				continue
			}
		default:
			errs = append(errs, field(ptr, "field.not_correctable"))
		}
	}
	if len(errs) > 0 {
		slices.SortFunc(errs, func(x, y FieldError) int { return cmp.Compare(x.Pointer, y.Pointer) })
		return domain.Sheet{}, nil, nil, invalid(errs)
	}
	for _, k := range []string{"written", "hands"} {
		if touched[k] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return domain.Sheet{}, nil, nil, invalid([]FieldError{field("/corrected", "field.nothing_changed")})
	}
	before, err := sheetParts(cur, keys)
	if err != nil {
		return domain.Sheet{}, nil, nil, err
	}
	after, err := sheetParts(sh, keys)
	if err != nil {
		return domain.Sheet{}, nil, nil, err
	}
	return sh, before, after, nil
}

func sameInt(a, b *int) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}

// sheetParts is the JSON of the named top-level parts of a sheet.
func sheetParts(sh domain.Sheet, keys []string) ([]byte, error) {
	enc, err := sheetjson.Encode(sh)
	if err != nil {
		return nil, fmt.Errorf("encode sheet: %w", err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(enc, &all); err != nil {
		return nil, fmt.Errorf("read sheet: %w", err)
	}
	out := map[string]json.RawMessage{}
	for _, k := range keys {
		if v, ok := all[k]; ok {
			out[k] = v
		} else {
			out[k] = json.RawMessage("null")
		}
	}
	return json.Marshal(out)
}

// CorrectionDesk is the sheet a referee corrects: the stored sheet and
// its corrections, for a caller who may correct it (Access.Judge).
func (a *App) CorrectionDesk(ctx context.Context, p Principal, tid string, round, table int) (SheetView, error) {
	if _, err := a.refereed(ctx, p, tid, "corrects sheets"); err != nil {
		return SheetView{}, err
	}
	return a.Sheet(ctx, p, tid, round, table)
}

// RoundDesk is a round as the referee moves it through the states of
// RULES §10.
type RoundDesk struct {
	Tournament domain.Tournament
	Round      domain.Round
	Next       []domain.RoundState // the states it may move to, in order
}

// RoundControl is a round for a caller who may change its state
// (Access.Judge).
func (a *App) RoundControl(ctx context.Context, p Principal, tid string, n int) (RoundDesk, error) {
	t, err := a.refereed(ctx, p, tid, "changes round states")
	if err != nil {
		return RoundDesk{}, err
	}
	r, err := a.round(ctx, t, n)
	if err != nil {
		return RoundDesk{}, err
	}
	d := RoundDesk{Tournament: t, Round: r}
	for _, s := range domain.RoundStates {
		if r.State.CanMoveTo(s) {
			d.Next = append(d.Next, s)
		}
	}
	return d, nil
}

// The federation's desk (UI.md: the federation export page).

// FederationFilter narrows the federation's list of tournaments; empty
// fields do not filter.
type FederationFilter struct {
	Season  string // "2026" (a calendar year) or "2025-2026" (September to August)
	ClubID  string
	Level   string
	Ruleset string
}

// FederationDesk is every club's tournaments, filtered, and the clubs.
type FederationDesk struct {
	Tournaments []domain.Tournament
	Clubs       []domain.Club
}

// Federation lists the tournaments of every club for the federation and
// admins, filtered by season, club, level and ruleset.
func (a *App) Federation(ctx context.Context, p Principal, f FederationFilter) (FederationDesk, error) {
	if err := RequireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		return FederationDesk{}, forbidden("api.federation_desk")
	}
	var from, to time.Time
	if f.Season != "" {
		var err error
		if from, to, err = ParseSeason(f.Season); err != nil {
			return FederationDesk{}, err
		}
	}
	if f.Level != "" {
		if _, err := domain.ParseLevel(f.Level); err != nil {
			return FederationDesk{}, paramError("level", domainDetail(err))
		}
	}
	clubs, err := a.db.ListClubs(ctx)
	if err != nil {
		return FederationDesk{}, err
	}
	all, err := a.db.ListTournaments(ctx, store.TournamentFilter{ClubID: f.ClubID})
	if err != nil {
		return FederationDesk{}, err
	}
	d := FederationDesk{Clubs: clubs}
	for _, t := range all {
		if (f.Season != "" && (t.Date.Before(from) || t.Date.After(to))) ||
			(f.Level != "" && string(t.Level) != f.Level) || (f.Ruleset != "" && string(t.Ruleset) != f.Ruleset) {
			continue
		}
		d.Tournaments = append(d.Tournaments, t)
	}
	return d, nil
}

var seasonPattern = regexp.MustCompile(`^([0-9]{4})(?:-([0-9]{4}))?$`)

// ParseSeason reads a season: "2026" is January 1 to December 31;
// "2025-2026" the federation season, September 1, 2025 to August 31,
// 2026. [Same reading as package api's parseSeason of the season export.]
func ParseSeason(v string) (from, to time.Time, err error) {
	bad := func(key string, args ...any) (time.Time, time.Time, error) {
		return time.Time{}, time.Time{}, paramError("season", key, args...)
	}
	m := seasonPattern.FindStringSubmatch(v)
	if m == nil {
		return bad("api.season_syntax", v)
	}
	y1, _ := strconv.Atoi(m[1])
	if y1 < 1900 {
		return bad("api.season_old", v)
	}
	if m[2] == "" {
		return time.Date(y1, time.January, 1, 0, 0, 0, 0, time.UTC), time.Date(y1, time.December, 31, 0, 0, 0, 0, time.UTC), nil
	}
	y2, _ := strconv.Atoi(m[2])
	if y2 != y1+1 {
		return bad("api.season_second", v, y1+1)
	}
	return time.Date(y1, time.September, 1, 0, 0, 0, 0, time.UTC), time.Date(y2, time.August, 31, 0, 0, 0, 0, time.UTC), nil
}

// AdjustmentItem is one adjustment with its effect on the standings: the
// VP and MP it adds or takes (as a result in place of a match, or a
// penalty) and the entrant's rank without it and with it.
type AdjustmentItem struct {
	store.Adjustment
	Score             domain.MatchScore
	HasScore          bool
	RankWithout, Rank int
}

// AdjustmentDesk is the adjustments page: the list with their effects,
// and what the form offers.
type AdjustmentDesk struct {
	Tournament domain.Tournament
	CanJudge   bool
	Items      []AdjustmentItem
	Entrants   []domain.Entrant
	Rounds     []domain.Round
}

// AdjustmentsDesk reads the tournament's adjustments with their effect on
// the current standings, for anyone who may read it.
func (a *App) AdjustmentsDesk(ctx context.Context, p Principal, tid string) (AdjustmentDesk, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return AdjustmentDesk{}, err
	}
	d := AdjustmentDesk{Tournament: t, CanJudge: acc.Judge(t)}
	facts, _, err := a.factsNow(ctx, t.ID)
	if err != nil {
		return AdjustmentDesk{}, err
	}
	d.Entrants, d.Rounds = facts.entrants, facts.rounds
	adjs, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return AdjustmentDesk{}, err
	}
	if len(adjs) == 0 {
		// No effect to show: the sheets are not read (every sheet of a
		// 100-table evening through gorm was most of the page).
		return d, nil
	}
	var sheets []store.SheetAt
	for sh, err := range a.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return AdjustmentDesk{}, err
		}
		sheets = append(sheets, sh)
	}
	rankOf := func(list []store.Adjustment, entrant string) (int, error) {
		st, err := computeStandings(t, d.Entrants, d.Rounds, resultsOf(d.Rounds, sheets), list, 0)
		if err != nil {
			return 0, err
		}
		for _, s := range st.Rows {
			if s.Entrant.ID == entrant {
				return s.Rank, nil
			}
		}
		return 0, nil
	}
	for i, adj := range adjs {
		it := AdjustmentItem{Adjustment: adj}
		it.Score, it.HasScore = adj.Score()
		without := append(slices.Clone(adjs[:i]), adjs[i+1:]...)
		if it.RankWithout, err = rankOf(without, adj.Entrant); err != nil {
			return AdjustmentDesk{}, err
		}
		if it.Rank, err = rankOf(adjs, adj.Entrant); err != nil {
			return AdjustmentDesk{}, err
		}
		d.Items = append(d.Items, it)
	}
	return d, nil
}
