package app

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"slices"
	"strings"
	"time"

	"segnapunti/domain"
	"segnapunti/exporters/workbook"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
)

// The federation exports (API §6): what a tournament's workbook and the
// season's workbook show, gathered here so that the JSON API and the
// pages export the same thing. Writing the file (xlsx, CSV, JSON) is the
// door's business; the rows are read while it writes.

// ExportTournament gathers the export of a tournament p may read (its
// club, its referees, the federation, an admin). Call release when the
// export is written. nested: matches and hands are read side by side (the
// JSON export) rather than one after the other (the workbook).
func (a *App) ExportTournament(ctx context.Context, p Principal, tid string, nested bool) (ex workbook.TournamentExport, release func(), err error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	return a.tournamentExport(ctx, t, nested)
}

// SeasonQuery chooses the tournaments of a season export: those dated in
// [From, To), optionally of one organising club and one level ("" any).
type SeasonQuery struct {
	From, To time.Time
	ClubID   string
	Level    string
}

// SeasonExport is the season's rows, per player and tournament, and the
// players' totals. Totals are complete only once Rows has been read to
// its end (they are added up while the rows are written).
type SeasonExport struct {
	Rows   iter.Seq2[workbook.SeasonRow, error]
	Totals func() iter.Seq2[workbook.SeasonTotal, error]
}

// ExportSeason is the season export, for the federation and admins only.
func (a *App) ExportSeason(ctx context.Context, p Principal, q SeasonQuery) (SeasonExport, error) {
	if err := RequireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		return SeasonExport{}, forbidden("api.season_export")
	}
	f := store.SeasonFilter{From: q.From, To: q.To, ClubID: q.ClubID}
	if q.ClubID != "" {
		if !ValidID(q.ClubID) {
			return SeasonExport{}, paramError("club", "api.no_club", q.ClubID)
		}
		if _, err := a.db.GetClub(ctx, q.ClubID); errors.Is(err, domain.ErrNotFound) {
			return SeasonExport{}, paramError("club", "api.no_club", q.ClubID)
		} else if err != nil {
			return SeasonExport{}, err
		}
	}
	if q.Level != "" {
		var err error
		if f.Level, err = domain.ParseLevel(q.Level); err != nil {
			return SeasonExport{}, paramError("level", domainDetail(err))
		}
	}
	tally := newSeasonTally()
	return SeasonExport{Rows: a.seasonRows(ctx, f, tally), Totals: tally.totals}, nil
}

// standingRows is the rows of t's standings after every round with a sheet.
func (a *App) standingRows(ctx context.Context, t domain.Tournament) ([]domain.Standing, error) {
	after := 0
	if r, ok := t.Interruption(); ok {
		after = r.AfterRound // FITAB art. 39: the final standings are those after round k
	}
	st, err := a.StandingsOf(ctx, t, after)
	return st.Rows, err
}

// tournamentExport gathers what the tournament exports show. Entrants,
// rounds and standings are read now (they are bounded by the tournament's
// size, and a failure here is still a clean problem answer); matches and
// hands are iterators over the stored sheets, read while the export is
// written. nested is for WriteJSON, which reads matches and hands side by
// side: both then come from one pass over the sheets; the workbook reads
// them one sheet after the other, from two passes.
func (a *App) tournamentExport(ctx context.Context, t domain.Tournament, nested bool) (workbook.TournamentExport, func(), error) {
	club, err := a.db.GetClub(ctx, t.ClubID)
	switch {
	case errors.Is(err, domain.ErrNotFound) || t.ClubID == "":
		club = domain.Club{ID: t.ClubID}
	case err != nil:
		return workbook.TournamentExport{}, nil, err
	}
	entrants, err := a.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	plan := t.EffectivePlan()
	for i := range rounds {
		rounds[i].Session = plan.SessionOf(rounds[i].Number) // RULES §12.1
	}
	after := 0
	if r, ok := t.Interruption(); ok {
		after = r.AfterRound // FITAB art. 39: the final standings are those after round k
	}
	table, err := a.StandingsOf(ctx, t, after)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	standings := table.Rows
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	corrections, err := a.correctionRows(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	// The prizes, from the same standings (none when void).
	cats, err := a.db.PrizeCategories(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	var prizes []workbook.PrizeRow
	if !t.Void() {
		awards, err := domain.AwardPrizes(cats, standings)
		if err != nil {
			return workbook.TournamentExport{}, nil, err
		}
		for _, aw := range awards {
			prizes = append(prizes, workbook.PrizeRow{Category: aw.Category, Label: aw.Label, Place: aw.Place, Rank: aw.Standing.Rank,
				Entrant: aw.Standing.Entrant, VP: aw.Standing.VP, MP: aw.Standing.MP})
		}
	}
	rows := make([]workbook.StandingRow, len(standings))
	for i, st := range standings {
		rows[i] = workbook.StandingRow{Rank: st.Rank, Entrant: st.Entrant, VP: st.VP, MP: st.MP, Wins: st.Wins, TieBreak: st.Tiebreak,
			Differs: differsCell(table.Discrepancies[st.Entrant.ID])}
	}
	ex := workbook.TournamentExport{
		Tournament:  t,
		Club:        club,
		ExportedAt:  a.now(),
		Location:    TournamentZone(t), // issue 22: the hall's clock
		Entrants:    workbook.Slice(entrants),
		Rounds:      workbook.Slice(rounds),
		Standings:   workbook.Slice(rows),
		Adjustments: workbook.Slice(toAdjustmentRows(adjustments)),
		Corrections: workbook.Slice(corrections),
		Prizes:      workbook.Slice(prizes),
	}
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	lineups := map[int][]domain.Lineup{}
	if t.Kind == domain.KindTeams {
		for _, r := range rounds {
			if lineups[r.Number], err = a.db.ListLineups(ctx, t.ID, r.Number); err != nil {
				return workbook.TournamentExport{}, nil, err
			}
		}
	}
	seats := seatsOf(rounds, entrants, subs, lineups)
	signed, err := a.db.TournamentConfirmations(ctx, t.ID) // table entry: the lines' signatures
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	if !nested {
		ex.Matches, ex.Hands = matchesOf(a.matchItems(ctx, t.ID, seats, signed)), handsOf(a.matchItems(ctx, t.ID, seats, signed))
		return ex, func() {}, nil
	}
	pass := newTee(a.matchItems(ctx, t.ID, seats, signed))
	ex.Matches, ex.Hands = matchesOf(pass.reader(0)), handsOf(pass.reader(1))
	return ex, pass.close, nil
}

// matchItem is one stored sheet as the exports show it: the match result
// computed from its hands (RULES §6, whatever the sheet says at its
// bottom) and its hands.
type matchItem struct {
	match workbook.MatchRow
	hands []workbook.HandRow
}

// matchItems reads the tournament's stored sheets in round and table order.
func (a *App) matchItems(ctx context.Context, tid string, seats map[[2]int]seating, signed map[[2]int][]store.Confirmation) iter.Seq2[matchItem, error] {
	return func(yield func(matchItem, error) bool) {
		for st, err := range a.db.EachSheet(ctx, tid) {
			if err != nil {
				yield(matchItem{}, err)
				return
			}
			item := toMatchItem(st, seats)
			for _, c := range signed[[2]int{st.Round, st.Table}] {
				if !c.Signed() { // ended by the other line's confirmation: no time of its own
					item.match.EndedByConfirmation[c.Line] = true
					continue
				}
				at := c.At
				item.match.Confirmed[c.Line] = &at
			}
			if !yield(item, nil) {
				return
			}
		}
	}
}

// seatsOf maps (round, table) to the entrants the round seats there, NS
// and EO: an individual line's two players as one cell, "3 / 11" (the
// import reads it back: importers/xlsx SplitPlayerIDs), with the players
// apart in players.
//
// match is the team match of the table (RULES §12.5), seated the names of
// the players who sat at each line that round (RULES §12.4: substitutes
// in place of the players they replaced; teams: the table's line-up, ""
// while it has none).
type seating struct {
	ids     [2]string
	players [2][]string // individual lines only
	match   int
	seated  [2]string
}

func seatsOf(rounds []domain.Round, entrants []domain.Entrant, subs []domain.Substitution, lineups map[int][]domain.Lineup) map[[2]int]seating {
	byID := make(map[string]domain.Entrant, len(entrants))
	for _, e := range entrants {
		byID[e.ID] = e
	}
	out := map[[2]int]seating{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			s := seating{match: tb.Match}
			var lineup *domain.Lineup
			for i := range lineups[r.Number] {
				if lineups[r.Number][i].Table == tb.Table {
					lineup = &lineups[r.Number][i]
				}
			}
			for _, l := range domain.Lines {
				ids := tb.Line(l)
				s.ids[l] = strings.Join(ids, " / ")
				if len(ids) > 1 {
					s.players[l] = ids
				}
				s.seated[l] = seatedNames(ids, byID, subs, r.Number, tb.Match, lineup, l)
			}
			out[[2]int{r.Number, tb.Table}] = s
		}
	}
	return out
}

// seatedNames names the players who sat at line l of a table in round n
// (RULES §12.4): each entrant's players with the substitutions of that
// round applied; a team's line (match > 0) only through the table's
// line-up (FITAB art. 2.2: the team chooses its pairs before each match),
// "" without one.
func seatedNames(ids []string, byID map[string]domain.Entrant, subs []domain.Substitution, n, match int, lineup *domain.Lineup, l domain.Line) string {
	var names []string
	for _, id := range ids {
		players := domain.PlayersAt(byID[id], subs, n)
		if match == 0 {
			for _, p := range players {
				names = append(names, p.Name)
			}
			continue
		}
		if lineup == nil {
			return ""
		}
		for _, m := range lineup.Line(l) {
			name := m
			for _, p := range players {
				if p.Membership == m {
					name = p.Name
				}
			}
			names = append(names, name)
		}
	}
	return strings.Join(names, " – ")
}

func toMatchItem(st store.SheetAt, seats map[[2]int]seating) matchItem {
	sh := st.Sheet
	// The entrants the round seats at the table, as the standings credit
	// them; the ids written on the sheet only if the round has no such
	// table (the service refuses such a sheet, so only for old data).
	seat, ok := seats[[2]int{st.Round, st.Table}]
	if !ok {
		seat.ids = [2]string{strings.Join(sh.Sides[domain.NS].Entrants(), " / "), strings.Join(sh.Sides[domain.EO].Entrants(), " / ")}
	}
	ids := seat.ids
	// The result that counts is the official one, as written on the
	// delivered sheet (RULES §8); the computed one beside it when they
	// differ.
	om := domain.OfficialResult(sh, domain.Validate(sh))
	m := workbook.MatchRow{Round: st.Round, Table: st.Table, Entrants: ids, Players: seat.players, Differs: om.Differs,
		Match: seat.match, Seated: seat.seated}
	for _, l := range domain.Lines {
		o, c := om.Lines[l].Official, om.Lines[l].Computed
		m.Total[l], m.MP[l], m.VP[l] = o.Total, o.MP, o.VP
		m.Computed.Total[l], m.Computed.MP[l], m.Computed.VP[l] = c.Total, c.MP, c.VP
	}
	hands := make([]workbook.HandRow, len(sh.Hands))
	for i, h := range sh.Hands {
		hr := workbook.HandRow{Round: st.Round, Table: st.Table, Hand: i + 1, Entrants: ids, End: h.End}
		for _, l := range domain.Lines {
			ls := h.Lines[l]
			hr.Base[l], hr.Points[l] = ls.Base, ls.Points
			// The hand total as written, so the sheet Smazzate reads back in
			// (API §5 A) as it was entered; computed when it was not written.
			hr.Total[l] = ls.Base + ls.Points
			if ls.Total != nil {
				hr.Total[l] = *ls.Total
			}
		}
		hands[i] = hr
	}
	return matchItem{match: m, hands: hands}
}

// toAdjustmentRows lists the referee adjustments (RULES §7) with the VP and
// MP each adds to the standings — the result it puts in place of a match
// plus any penalty; none when it adds nothing (a first warning).
func toAdjustmentRows(as []store.Adjustment) []workbook.AdjustmentRow {
	out := make([]workbook.AdjustmentRow, len(as))
	for i, a := range as {
		r := workbook.AdjustmentRow{Entrant: a.Entrant, Round: a.Round, Reason: a.Case.Reason,
			Note: a.Case.Note, Author: a.Author, At: a.At}
		if sc, ok := a.Score(); ok {
			r.VP, r.MP = &sc.VP, &sc.MP
		}
		out[i] = r
	}
	return out
}

// correctionRows lists the correction trail (RULES §9) with each match's
// result before and after: the parts of the sheet a correction replaced
// ("hands", "written") laid over the stored sheet, and the OFFICIAL
// result of that — the written figures, an empty one derived from those
// above it (RULES §8) — which is what the correction changed in the
// standings. A correction stores the whole parts it replaced and the ones
// it put, so the figures are those of the sheet at the time even after
// later corrections. A rejected request has no after.
func (a *App) correctionRows(ctx context.Context, tid string) ([]workbook.CorrectionRow, error) {
	cs, err := a.db.ListCorrections(ctx, tid, store.CorrectionFilter{})
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	current := map[[2]int]domain.Sheet{}
	out := make([]workbook.CorrectionRow, len(cs))
	for i, c := range cs {
		r := workbook.CorrectionRow{Round: c.Round, Table: c.Table, Kind: c.Kind, Ruling: c.Ruling, Rules: c.Rules,
			Reason: c.RulingReason, ReasonIT: rulingReasonIT(c), Request: c.Reason, Author: c.Author, At: c.At}
		key := [2]int{c.Round, c.Table}
		sh, ok := current[key]
		if !ok {
			st, err := a.db.GetSheet(ctx, tid, c.Round, c.Table)
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
			sh = st.Sheet
			current[key] = sh
		}
		if len(sh.Hands) > 0 {
			r.Before = a.resultWith(ctx, sh, c.Before)
			if c.Applied {
				r.After = a.resultWith(ctx, sh, c.After)
			}
		}
		out[i] = r
	}
	return out, nil
}

// resultWith is the match result of sh with the members of parts (a JSON
// object with "hands" and/or "written", API §1) put in place of its own;
// nil, and a warning in the log, when parts cannot be read.
func (a *App) resultWith(ctx context.Context, sh domain.Sheet, parts []byte) *workbook.MatchResult {
	fail := func(err error) *workbook.MatchResult {
		a.log.WarnContext(ctx, "export: a correction's sheet parts cannot be read", slog.String("error", err.Error()))
		return nil
	}
	var over map[string]json.RawMessage
	if len(parts) == 0 {
		return nil
	}
	if err := json.Unmarshal(parts, &over); err != nil {
		return fail(err)
	}
	base, err := sheetjson.Encode(sh)
	if err != nil {
		return fail(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(base, &doc); err != nil {
		return fail(err)
	}
	for _, k := range []string{"hands", "written"} {
		switch v, ok := over[k]; {
		case !ok:
		case string(v) == "null": // the sheet had none (a written bottom left blank)
			delete(doc, k)
		default:
			doc[k] = v
		}
	}
	merged, err := json.Marshal(doc)
	if err != nil {
		return fail(err)
	}
	sheets, _, err := sheetjson.Decode(merged)
	if err != nil {
		return fail(err)
	}
	// The WRITTEN (official) figures, which a correction changes (RULES
	// §8, §9): the computed ones may not move when only the bottom of the
	// sheet was wrong.
	om := domain.OfficialResult(sheets[0], domain.Validate(sheets[0]))
	var m workbook.MatchResult
	for _, l := range domain.Lines {
		o := om.Lines[l].Official
		m.Total[l], m.MP[l], m.VP[l] = o.Total, o.MP, o.VP
	}
	return &m
}

func matchesOf(items iter.Seq2[matchItem, error]) iter.Seq2[workbook.MatchRow, error] {
	return func(yield func(workbook.MatchRow, error) bool) {
		for it, err := range items {
			if !yield(it.match, err) || err != nil {
				return
			}
		}
	}
}

func handsOf(items iter.Seq2[matchItem, error]) iter.Seq2[workbook.HandRow, error] {
	return func(yield func(workbook.HandRow, error) bool) {
		for it, err := range items {
			if err != nil {
				yield(workbook.HandRow{}, err)
				return
			}
			for _, h := range it.hands {
				if !yield(h, nil) {
					return
				}
			}
		}
	}
}

// tee lets two readers range over one pass of a sequence, each at its own
// pace; it keeps the items one reader has and the other has not yet read,
// so it suits readers that stay close (WriteJSON reads a match, then its
// hands). Readers take turns; they never run at the same time. close stops
// the pass, whether or not the readers finished.
type tee[T any] struct {
	src  iter.Seq2[T, error]
	next func() (T, error, bool)
	stop func()
	buf  []T    // items read from src that a reader still needs
	base int    // the index of buf[0] in the sequence
	pos  [2]int // the next index each reader reads
	gone [2]bool
	err  error // the sequence's error, once it has ended with one
	done bool
}

func newTee[T any](src iter.Seq2[T, error]) *tee[T] { return &tee[T]{src: src} }

// reader is the sequence as reader i (0 or 1) sees it, to be ranged once.
func (t *tee[T]) reader(i int) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		defer t.leave(i)
		for {
			for !t.done && t.pos[i]-t.base >= len(t.buf) {
				t.fetch()
			}
			if t.pos[i]-t.base >= len(t.buf) {
				if t.err != nil {
					var zero T
					yield(zero, t.err)
				}
				return
			}
			v := t.buf[t.pos[i]-t.base]
			t.pos[i]++
			t.trim()
			if !yield(v, nil) {
				return
			}
		}
	}
}

func (t *tee[T]) fetch() {
	if t.next == nil {
		t.next, t.stop = iter.Pull2(t.src)
	}
	v, err, ok := t.next()
	switch {
	case !ok:
		t.done = true
	case err != nil:
		t.done, t.err = true, err
	case t.gone[0] && t.gone[1]:
	default:
		t.buf = append(t.buf, v)
	}
}

// trim drops the items no remaining reader needs.
func (t *tee[T]) trim() {
	low := t.base + len(t.buf)
	for i := range t.pos {
		if !t.gone[i] {
			low = min(low, t.pos[i])
		}
	}
	if n := low - t.base; n > 0 {
		clear(t.buf[:n])
		t.buf = t.buf[n:]
		t.base = low
	}
}

func (t *tee[T]) leave(i int) {
	t.gone[i] = true
	t.trim()
}

func (t *tee[T]) close() {
	if t.stop != nil {
		t.stop()
	}
	t.done, t.buf = true, nil
}

// seasonRows yields one row per player per tournament of the season, in
// tournament order (date, id) then rank order, and adds each to tally.
// Every player of an entrant (both of a pair, the whole team) gets the
// entrant's rank, VP and MP (RULES §8 ranks entrants).
func (a *App) seasonRows(ctx context.Context, f store.SeasonFilter, tally *seasonTally) iter.Seq2[workbook.SeasonRow, error] {
	return func(yield func(workbook.SeasonRow, error) bool) {
		for t, err := range a.db.SeasonTournaments(ctx, f) {
			if err != nil {
				yield(workbook.SeasonRow{}, err)
				return
			}
			if t.Void() {
				continue // FITAB art. 39, RULES §12.6: a void tournament is left out of the season
			}
			standings, err := a.standingRows(ctx, t)
			if err != nil {
				yield(workbook.SeasonRow{}, fmt.Errorf("standings of tournament %s: %w", t.ID, err))
				return
			}
			host, err := a.hostClubName(ctx, t)
			if err != nil {
				yield(workbook.SeasonRow{}, err)
				return
			}
			credits, err := a.playerCredits(ctx, t, standings)
			if err != nil {
				yield(workbook.SeasonRow{}, fmt.Errorf("players of tournament %s: %w", t.ID, err))
				return
			}
			for _, st := range standings {
				club := cmp.Or(st.Entrant.Club, host)
				players := st.Entrant.Players
				if c, ok := credits[st.Entrant.ID]; ok {
					players = c.players
				}
				for _, p := range players {
					r := workbook.SeasonRow{
						Player: p.Name, Membership: p.Membership, Club: club,
						Tournament: t.Name, Date: t.Date, Level: t.Level,
						Rank: st.Rank, VP: st.VP, MP: st.MP,
					}
					if c, ok := credits[st.Entrant.ID]; ok {
						r.VP, r.MP = c.score[creditKey(p)][0], c.score[creditKey(p)][1]
					}
					tally.add(t.ID, r)
					if !yield(r, nil) {
						return
					}
				}
			}
		}
	}
}

// hostClubName is the name of t's organising club: the season workbook's
// "Circolo" of an entrant entered without a club of its own (issue 22). A
// reading: a club enters its own evening's players without naming their
// club; an entrant from elsewhere is entered with theirs.
func (a *App) hostClubName(ctx context.Context, t domain.Tournament) (string, error) {
	if t.ClubID == "" {
		return "", nil
	}
	c, err := a.db.GetClub(ctx, t.ClubID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return "", nil
	case err != nil:
		return "", err
	}
	return cmp.Or(c.Name, c.ID), nil
}

// seasonTally adds up each player's season while the rows are written.
// A player is their membership number; a player entered without one is
// their name (two namesakes without numbers are one line: the federation
// needs the number to tell them apart).
type seasonTally struct {
	byPlayer map[string]*playerSeason
}

type playerSeason struct {
	workbook.SeasonTotal
	lastTournament string
}

func newSeasonTally() *seasonTally { return &seasonTally{byPlayer: map[string]*playerSeason{}} }

func playerKey(r workbook.SeasonRow) string {
	if m := strings.ToUpper(strings.TrimSpace(r.Membership)); m != "" {
		return "m:" + m
	}
	return "n:" + strings.ToLower(strings.Join(strings.Fields(r.Player), " "))
}

func (t *seasonTally) add(tournamentID string, r workbook.SeasonRow) {
	k := playerKey(r)
	p := t.byPlayer[k]
	if p == nil {
		p = &playerSeason{SeasonTotal: workbook.SeasonTotal{Player: r.Player, Membership: r.Membership}}
		t.byPlayer[k] = p
	}
	if r.Club != "" {
		p.Club = r.Club // the latest club the player was entered with
	}
	if p.lastTournament != tournamentID {
		p.Tournaments++
		p.lastTournament = tournamentID
	}
	p.VP += r.VP
	p.MP += r.MP
	if r.Rank > 0 && (p.BestRank == 0 || r.Rank < p.BestRank) {
		p.BestRank = r.Rank
	}
}

// totals yields the season totals by player name, then membership number.
// It is read after the rows (workbook.WriteSeason), when the tally is
// complete.
func (t *seasonTally) totals() iter.Seq2[workbook.SeasonTotal, error] {
	return func(yield func(workbook.SeasonTotal, error) bool) {
		all := make([]*playerSeason, 0, len(t.byPlayer))
		for _, p := range t.byPlayer {
			all = append(all, p)
		}
		slices.SortFunc(all, func(a, b *playerSeason) int {
			return cmp.Or(cmp.Compare(strings.ToLower(a.Player), strings.ToLower(b.Player)),
				cmp.Compare(a.Membership, b.Membership), cmp.Compare(a.Player, b.Player))
		})
		for _, p := range all {
			if !yield(p.SeasonTotal, nil) {
				return
			}
		}
	}
}

// differsCell names the matches of ds for the Classifica sheet: "T2 tav.
// 5 (rettificabile)" — whether a correction would still apply.
func differsCell(ds []Discrepancy) string {
	var b strings.Builder
	for i, d := range ds {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "T%d tav. %d", d.Round, d.Table)
		if d.Correctable.Applies() {
			b.WriteString(" (rettificabile)")
		} else {
			b.WriteString(" (non rettificabile)")
		}
	}
	return b.String()
}

// entrantCredits is what each player of an entrant with a substitution
// earned (RULES §12.4: "a player's season total counts only the rounds the
// player played"): everyone who sat for it, in order (its players, then
// the substitutes), and by creditKey the VP and MP of the rounds they sat.
type entrantCredits struct {
	players []domain.Player
	score   map[string][2]int
}

func creditKey(p domain.Player) string {
	if m := strings.ToUpper(strings.TrimSpace(p.Membership)); m != "" {
		return "m:" + m
	}
	return "n:" + p.Name
}

// playerCredits splits the final standings of the entrants that had a
// substitution round by round: each round's VP and MP (the standings after
// it less those before) go to the players who sat that round
// (domain.PlayersAt); in a team tournament, of a team's players those its
// line-ups of the round seat (RULES §12.5: the team chooses its pairs
// before each match), all of them for a round without line-ups. [INTERP]
// What the rounds do not explain — a warning counted only overall — goes
// to those who sat in the last round counted. Nil when the tournament had
// no substitution and no line-up.
func (a *App) playerCredits(ctx context.Context, t domain.Tournament, final []domain.Standing) (map[string]entrantCredits, error) {
	subs, err := a.db.ListSubstitutions(ctx, t.ID)
	teams := t.Kind == domain.KindTeams
	if err != nil || (len(subs) == 0 && !teams) {
		return nil, err
	}
	rounds, err := a.db.ListRounds(ctx, t.ID)
	if err != nil {
		return nil, err
	}
	// sat: round → team → the memberships its line-ups seat.
	sat := map[int]map[string]map[string]bool{}
	if teams {
		for _, r := range rounds {
			ls, err := a.db.ListLineups(ctx, t.ID, r.Number)
			if err != nil {
				return nil, err
			}
			for _, l := range ls {
				tb, ok := r.Assignment(l.Table)
				if !ok {
					continue
				}
				for _, line := range domain.Lines {
					for _, team := range tb.Line(line) {
						if sat[r.Number] == nil {
							sat[r.Number] = map[string]map[string]bool{}
						}
						if sat[r.Number][team] == nil {
							sat[r.Number][team] = map[string]bool{}
						}
						for _, m := range l.Line(line) {
							sat[r.Number][team][strings.ToUpper(strings.TrimSpace(m))] = true
						}
					}
				}
			}
		}
	}
	linedUp := map[string]bool{}
	for _, byTeam := range sat {
		for team := range byTeam {
			linedUp[team] = true
		}
	}
	last := 0
	for _, r := range rounds {
		last = max(last, r.Number)
	}
	if r, ok := t.Interruption(); ok {
		last = min(last, r.AfterRound)
	}
	out := map[string]entrantCredits{}
	for _, st := range final {
		c := entrantCredits{players: slices.Clone(st.Entrant.Players), score: map[string][2]int{}}
		seen := map[string]bool{}
		for _, p := range c.players {
			seen[creditKey(p)] = true
		}
		for _, s := range subs {
			if s.Entrant == st.Entrant.ID && !seen[creditKey(s.In)] {
				seen[creditKey(s.In)] = true
				c.players = append(c.players, s.In)
			}
		}
		if len(c.players) > len(st.Entrant.Players) || linedUp[st.Entrant.ID] {
			out[st.Entrant.ID] = c
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	prev := map[string][2]int{}
	credit := func(id string, round int, d [2]int) {
		for _, p := range domain.PlayersAt(entrantOf(final, id), subs, round) {
			if seated := sat[round][id]; len(seated) > 0 && !seated[strings.ToUpper(strings.TrimSpace(p.Membership))] {
				continue // a team's player its line-ups left out this round
			}
			s := out[id].score[creditKey(p)]
			out[id].score[creditKey(p)] = [2]int{s[0] + d[0], s[1] + d[1]}
		}
	}
	for n := 1; n <= last; n++ {
		st, err := a.StandingsOf(ctx, t, n)
		if err != nil {
			return nil, err
		}
		for _, row := range st.Rows {
			if _, ok := out[row.Entrant.ID]; !ok {
				continue
			}
			p := prev[row.Entrant.ID]
			credit(row.Entrant.ID, n, [2]int{row.VP - p[0], row.MP - p[1]})
			prev[row.Entrant.ID] = [2]int{row.VP, row.MP}
		}
	}
	for _, row := range final {
		if _, ok := out[row.Entrant.ID]; ok && last > 0 {
			p := prev[row.Entrant.ID]
			if d := [2]int{row.VP - p[0], row.MP - p[1]}; d != [2]int{} {
				credit(row.Entrant.ID, last, d)
			}
		}
	}
	return out, nil
}

func entrantOf(rows []domain.Standing, id string) domain.Entrant {
	for _, r := range rows {
		if r.Entrant.ID == id {
			return r.Entrant
		}
	}
	return domain.Entrant{}
}

// rulingReasonIT is a stored correction's ruling reason in Italian: the
// ruling decided again on the situation it was made on (domain.Decide is a
// pure function of it) gives both languages; when its English is not the
// stored one (the rules' wording changed since), "" (the stored English
// is shown).
func rulingReasonIT(c store.Correction) string {
	d := domain.Decide(c.Situation)
	if d.Reason != c.RulingReason {
		return ""
	}
	return d.ReasonIn(domain.Italian)
}
