package api

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/exporters/workbook"
	"segnapunti/importers/sheetjson"
	"segnapunti/store"
)

// The federation exports of API §6: the tournament workbook (and its
// tables as CSV, and the JSON export with its schema) and the season
// workbook. Every export is streamed: the tables are iterators over the
// store, written as they are read, never assembled in memory.

// Media types of the exports.
const (
	xlsxContentType   = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
	csvContentType    = "text/csv; charset=utf-8"
	schemaContentType = "application/schema+json"
)

// exportLocation is the wall clock of the timestamps in the workbooks
// (adjustments, corrections, the export itself): the federation's. Without
// a time zone database on the machine it is UTC.
var exportLocation = sync.OnceValue(func() *time.Location {
	loc, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		return time.UTC
	}
	return loc
})

// exportTournament: GET /v1/tournaments/{tid}/export.xlsx — the federation
// workbook, or with ?format=csv&sheet=Classifica one of its tables as CSV.
// Whoever may read the tournament may export it (its club, its referees,
// the federation, an admin).
func (s *server) exportTournament(c *gin.Context) {
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "format", "sheet"); err != nil {
		s.fail(c, err)
		return
	}
	sheet, err := csvSheetParam(q)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	ex, release, err := s.tournamentExport(ctx, t, false)
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	if sheet != "" {
		s.stream(c, csvContentType, exportFilename(t.Name, t.Date.Format(time.DateOnly)+"-"+strings.ToLower(sheet), ".csv"),
			func(w io.Writer) error { return workbook.WriteCSV(w, ex, sheet) })
		return
	}
	s.stream(c, xlsxContentType, exportFilename(t.Name, t.Date.Format(time.DateOnly), ".xlsx"),
		func(w io.Writer) error { return workbook.WriteTournament(w, ex) })
}

// csvSheetParam reads ?format= and ?sheet=: no format (or xlsx) is the
// workbook and takes no sheet; csv needs one of workbook.CSVSheets. It
// returns the sheet's canonical name, "" for the workbook.
func csvSheetParam(q url.Values) (string, error) {
	names := strings.Join(workbook.CSVSheets(), ", ")
	switch format := q.Get("format"); format {
	case "", "xlsx":
		if q.Has("sheet") {
			return "", errParam("sheet", "sheet chooses the table of a CSV export; add format=csv")
		}
		return "", nil
	case "csv":
		if !q.Has("sheet") {
			return "", errParam("sheet", "a CSV export is one table: add sheet= one of "+names)
		}
		sheet := q.Get("sheet")
		for _, name := range workbook.CSVSheets() {
			if strings.EqualFold(sheet, name) {
				return name, nil
			}
		}
		return "", errParam("sheet", fmt.Sprintf("unknown sheet %q: want one of %s", sheet, names))
	default:
		return "", errParam("format", fmt.Sprintf("unknown format %q: want xlsx (the default) or csv", format))
	}
}

// exportTournamentJSON: GET /v1/tournaments/{tid}/export.json — the
// machine-readable export, described by GET /v1/schemas/tournament-export.json.
func (s *server) exportTournamentJSON(c *gin.Context) {
	t, _, err := s.tournamentAccess(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	ex, release, err := s.tournamentExport(c.Request.Context(), t, true)
	if err != nil {
		s.fail(c, err)
		return
	}
	defer release()
	s.stream(c, "application/json", exportFilename(t.Name, t.Date.Format(time.DateOnly), ".json"),
		func(w io.Writer) error { return workbook.WriteJSON(w, ex) })
}

// tournamentExportSchema: GET /v1/schemas/tournament-export.json, no token:
// the JSON Schema of the JSON export.
func (s *server) tournamentExportSchema(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, schemaContentType, workbook.Schema)
}

// tournamentExport gathers what the tournament exports show. Entrants,
// rounds and standings are read now (they are bounded by the tournament's
// size, and a failure here is still a clean problem answer); matches and
// hands are iterators over the stored sheets, read while the export is
// written. nested is for WriteJSON, which reads matches and hands side by
// side: both then come from one pass over the sheets; the workbook reads
// them one sheet after the other, from two passes.
func (s *server) tournamentExport(ctx context.Context, t domain.Tournament, nested bool) (workbook.TournamentExport, func(), error) {
	club, err := s.db.GetClub(ctx, t.ClubID)
	switch {
	case errors.Is(err, domain.ErrNotFound) || t.ClubID == "":
		club = domain.Club{ID: t.ClubID}
	case err != nil:
		return workbook.TournamentExport{}, nil, err
	}
	entrants, err := s.db.ListEntrants(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	rounds, err := s.db.ListRounds(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	standings, err := s.standingsOf(ctx, t)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	adjustments, err := s.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	corrections, err := s.correctionRows(ctx, t.ID)
	if err != nil {
		return workbook.TournamentExport{}, nil, err
	}
	rows := make([]workbook.StandingRow, len(standings))
	for i, st := range standings {
		rows[i] = workbook.StandingRow{Rank: st.Rank, Entrant: st.Entrant, VP: st.VP, MP: st.MP, Wins: st.Wins, TieBreak: st.Tiebreak}
	}
	ex := workbook.TournamentExport{
		Tournament:  t,
		Club:        club,
		ExportedAt:  s.cfg.Now(),
		Location:    exportLocation(),
		Entrants:    workbook.Slice(entrants),
		Rounds:      workbook.Slice(rounds),
		Standings:   workbook.Slice(rows),
		Adjustments: workbook.Slice(toAdjustmentRows(adjustments)),
		Corrections: workbook.Slice(corrections),
	}
	seats := seatsOf(rounds)
	if !nested {
		ex.Matches, ex.Hands = matchesOf(s.matchItems(ctx, t.ID, seats)), handsOf(s.matchItems(ctx, t.ID, seats))
		return ex, func() {}, nil
	}
	pass := newTee(s.matchItems(ctx, t.ID, seats))
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
func (s *server) matchItems(ctx context.Context, tid string, seats map[[2]int][2]string) iter.Seq2[matchItem, error] {
	return func(yield func(matchItem, error) bool) {
		for st, err := range s.db.EachSheet(ctx, tid) {
			if err != nil {
				yield(matchItem{}, err)
				return
			}
			if !yield(toMatchItem(st, seats), nil) {
				return
			}
		}
	}
}

// seatsOf maps (round, table) to the entrants the round seats there, NS
// and EO.
func seatsOf(rounds []domain.Round) map[[2]int][2]string {
	out := map[[2]int][2]string{}
	for _, r := range rounds {
		for _, tb := range r.Tables {
			out[[2]int{r.Number, tb.Table}] = [2]string{tb.NS, tb.EO}
		}
	}
	return out
}

func toMatchItem(st store.SheetAt, seats map[[2]int][2]string) matchItem {
	sh := st.Sheet
	// The entrants the round seats at the table, as the standings credit
	// them; the ids written on the sheet only if the round has no such
	// table (the service refuses such a sheet, so only for old data).
	ids, ok := seats[[2]int{st.Round, st.Table}]
	if !ok {
		ids = [2]string{sh.Sides[domain.NS].ID, sh.Sides[domain.EO].ID}
	}
	// The result that counts is the computed one (RULES §6): totals from
	// base + points, MP from the totals, VP from the table.
	res := domain.Validate(sh).Computed.Lines
	m := workbook.MatchRow{Round: st.Round, Table: st.Table, Entrants: ids}
	for _, l := range domain.Lines {
		m.Total[l], m.MP[l], m.VP[l] = res[l].Total, res[l].MP, res[l].VP
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
// ("hands", "written") laid over the stored sheet, and the result computed
// from that (RULES §6). Only the hands move the result, and a correction
// stores the whole hands list it replaced and the one it put, so the
// figures are those of the sheet at the time even after later
// corrections. A rejected request has no after.
func (s *server) correctionRows(ctx context.Context, tid string) ([]workbook.CorrectionRow, error) {
	cs, err := s.db.ListCorrections(ctx, tid, store.CorrectionFilter{})
	if err != nil || len(cs) == 0 {
		return nil, err
	}
	current := map[[2]int]domain.Sheet{}
	out := make([]workbook.CorrectionRow, len(cs))
	for i, c := range cs {
		r := workbook.CorrectionRow{Round: c.Round, Table: c.Table, Kind: c.Kind, Ruling: c.Ruling, Rules: c.Rules,
			Reason: c.RulingReason, Request: c.Reason, Author: c.Author, At: c.At}
		key := [2]int{c.Round, c.Table}
		sh, ok := current[key]
		if !ok {
			st, err := s.db.GetSheet(ctx, tid, c.Round, c.Table)
			if err != nil && !errors.Is(err, domain.ErrNotFound) {
				return nil, err
			}
			sh = st.Sheet
			current[key] = sh
		}
		if len(sh.Hands) > 0 {
			r.Before = s.resultWith(ctx, sh, c.Before)
			if c.Applied {
				r.After = s.resultWith(ctx, sh, c.After)
			}
		}
		out[i] = r
	}
	return out, nil
}

// resultWith is the match result of sh with the members of parts (a JSON
// object with "hands" and/or "written", API §1) put in place of its own;
// nil, and a warning in the log, when parts cannot be read.
func (s *server) resultWith(ctx context.Context, sh domain.Sheet, parts []byte) *workbook.MatchResult {
	fail := func(err error) *workbook.MatchResult {
		s.log.WarnContext(ctx, "export: a correction's sheet parts cannot be read", slog.String("error", err.Error()))
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
	lines := domain.Validate(sheets[0]).Computed.Lines
	var m workbook.MatchResult
	for _, l := range domain.Lines {
		m.Total[l], m.MP[l], m.VP[l] = lines[l].Total, lines[l].MP, lines[l].VP
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

// stream answers 200 with the body write produces, written straight to the
// connection. A failure before the first byte is a problem answer; after
// it the status line is gone, so the response is aborted (the client sees
// a broken transfer, never a truncated file that looks whole).
func (s *server) stream(c *gin.Context, contentType, filename string, write func(io.Writer) error) {
	h := c.Writer.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Disposition", contentDisposition(filename))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store") // membership numbers: personal data
	c.Status(http.StatusOK)
	err := write(c.Writer)
	if err == nil {
		return
	}
	if !c.Writer.Written() {
		h.Del("Content-Type")
		h.Del("Content-Disposition")
		h.Del("Cache-Control")
		s.fail(c, exportError(err))
		return
	}
	s.log.LogAttrs(c.Request.Context(), slog.LevelError, "export aborted after the answer began",
		slog.String("route", c.FullPath()), slog.String("error", err.Error()))
	panic(http.ErrAbortHandler)
}

// exportError is the problem for an export that failed before it began: a
// cancelled request as such, anything else (a value the export format
// refuses included: the data was stored by this service) a 500.
func exportError(err error) error {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &apiError{status: http.StatusInternalServerError, typ: typeInternal,
		detail: "the export failed; the failure is logged", cause: err}
}

// seasonParam matches a season: a calendar year "2026" or a federation
// season "2025-2026".
var seasonParam = regexp.MustCompile(`^([0-9]{4})(?:-([0-9]{4}))?$`)

// Seasons are years from minSeasonYear on: nothing older was ever scored
// by this service, and it keeps dates within what every database stores.
const minSeasonYear = 1900

// parseSeason reads the season of the path: "2026" is the calendar year,
// January 1 to December 31; "2025-2026" the federation season, September 1,
// 2025 to August 31, 2026 (the second year must follow the first).
func parseSeason(v string) (from, to time.Time, err error) {
	bad := func(detail string) (time.Time, time.Time, error) {
		return time.Time{}, time.Time{}, errParam("season", detail)
	}
	m := seasonParam.FindStringSubmatch(v)
	if m == nil {
		return bad(fmt.Sprintf("season %q: want a year like 2026 (January to December) or a season like 2025-2026 (September 1 to August 31)", v))
	}
	y1, _ := strconv.Atoi(m[1])
	if y1 < minSeasonYear {
		return bad(fmt.Sprintf("season %q: the year must be %d or later", v, minSeasonYear))
	}
	if m[2] == "" {
		return time.Date(y1, time.January, 1, 0, 0, 0, 0, time.UTC), time.Date(y1, time.December, 31, 0, 0, 0, 0, time.UTC), nil
	}
	y2, _ := strconv.Atoi(m[2])
	if y2 != y1+1 {
		return bad(fmt.Sprintf("season %q: a season runs from September to August, so the second year must be %d", v, y1+1))
	}
	return time.Date(y1, time.September, 1, 0, 0, 0, 0, time.UTC), time.Date(y2, time.August, 31, 0, 0, 0, 0, time.UTC), nil
}

// exportSeason: GET /v1/seasons/{season}/export.xlsx — per player and
// tournament of the season (optionally of one organising club, one level)
// the placing, VP and MP, and each player's season totals. The federation
// and admins only.
func (s *server) exportSeason(c *gin.Context) {
	p := mustPrincipal(c)
	if err := requireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		s.fail(c, errForbidden("the season export is for the federation"))
		return
	}
	season := c.Param("season")
	from, to, err := parseSeason(season)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "club", "level"); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	f := store.SeasonFilter{From: from, To: to}
	name := "stagione-" + season
	if q.Has("club") {
		f.ClubID = q.Get("club")
		if !validID(f.ClubID) {
			s.fail(c, errParam("club", fmt.Sprintf("no club %q", f.ClubID)))
			return
		}
		if _, err := s.db.GetClub(ctx, f.ClubID); errors.Is(err, domain.ErrNotFound) {
			s.fail(c, errParam("club", fmt.Sprintf("no club %q", f.ClubID)))
			return
		} else if err != nil {
			s.fail(c, err)
			return
		}
		name += "-" + f.ClubID
	}
	if q.Has("level") {
		if f.Level, err = domain.ParseLevel(q.Get("level")); err != nil {
			s.fail(c, errParam("level", domainDetail(err)))
			return
		}
		name += "-" + string(f.Level)
	}
	tally := newSeasonTally()
	rows := s.seasonRows(ctx, f, tally)
	s.stream(c, xlsxContentType, exportFilename(name, "", ".xlsx"),
		func(w io.Writer) error { return workbook.WriteSeason(w, rows, tally.totals()) })
}

// seasonRows yields one row per player per tournament of the season, in
// tournament order (date, id) then rank order, and adds each to tally.
// Every player of an entrant (both of a pair, the whole team) gets the
// entrant's rank, VP and MP (RULES §8 ranks entrants).
func (s *server) seasonRows(ctx context.Context, f store.SeasonFilter, tally *seasonTally) iter.Seq2[workbook.SeasonRow, error] {
	return func(yield func(workbook.SeasonRow, error) bool) {
		for t, err := range s.db.SeasonTournaments(ctx, f) {
			if err != nil {
				yield(workbook.SeasonRow{}, err)
				return
			}
			standings, err := s.standingsOf(ctx, t)
			if err != nil {
				yield(workbook.SeasonRow{}, fmt.Errorf("standings of tournament %s: %w", t.ID, err))
				return
			}
			for _, st := range standings {
				for _, p := range st.Entrant.Players {
					r := workbook.SeasonRow{
						Player: p.Name, Membership: p.Membership, Club: st.Entrant.Club,
						Tournament: t.Name, Date: t.Date, Level: t.Level,
						Rank: st.Rank, VP: st.VP, MP: st.MP,
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

// maxFilenameRunes bounds the name part of a download's file name.
const maxFilenameRunes = 80

// exportFilename is "<name>-<suffix><ext>" with the name made safe for a
// file system: letters and digits kept (accented ones too), anything else
// one "_". An empty name is "torneo".
func exportFilename(name, suffix, ext string) string {
	var b strings.Builder
	n := 0
	pendingSep := false
	for _, r := range name {
		if n >= maxFilenameRunes {
			break
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '.' {
			if pendingSep && b.Len() > 0 {
				b.WriteByte('_')
				n++
			}
			pendingSep = false
			b.WriteRune(r)
			n++
			continue
		}
		pendingSep = true
	}
	base := strings.Trim(b.String(), ".-_")
	if base == "" {
		base = "torneo"
	}
	if suffix != "" {
		base += "-" + suffix
	}
	return base + ext
}

// contentDisposition is an attachment header for filename (RFC 6266): a
// plain ASCII filename always, for old clients, and filename* in UTF-8
// (RFC 8187) when the name has other characters.
func contentDisposition(filename string) string {
	ascii := asciiFilename(filename)
	v := `attachment; filename="` + ascii + `"`
	if ascii != filename {
		v += "; filename*=UTF-8''" + rfc8187Encode(filename)
	}
	return v
}

// latinFold spells the accented letters of Italian (and its neighbours)
// without their accents, for the ASCII file name.
var latinFold = strings.NewReplacer(
	"à", "a", "á", "a", "â", "a", "ä", "a", "ã", "a", "å", "a",
	"è", "e", "é", "e", "ê", "e", "ë", "e",
	"ì", "i", "í", "i", "î", "i", "ï", "i",
	"ò", "o", "ó", "o", "ô", "o", "ö", "o", "õ", "o",
	"ù", "u", "ú", "u", "û", "u", "ü", "u",
	"ç", "c", "ñ", "n", "ß", "ss",
	"À", "A", "Á", "A", "Â", "A", "Ä", "A", "È", "E", "É", "E", "Ê", "E",
	"Ì", "I", "Í", "I", "Ò", "O", "Ó", "O", "Ö", "O", "Ù", "U", "Ú", "U", "Ü", "U", "Ç", "C", "Ñ", "N",
)

// asciiFilename folds accents and turns every other non-ASCII character
// into "_" (quotes and backslashes never reach here: exportFilename keeps
// only letters, digits, "-", "." and "_").
func asciiFilename(s string) string {
	s = latinFold.Replace(s)
	var b strings.Builder
	for _, r := range s {
		if r < utf8.RuneSelf && r >= 0x20 && r != '"' && r != '\\' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// rfc8187Encode percent-encodes every byte that is not an attr-char of
// RFC 8187 §3.2.1.
func rfc8187Encode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
