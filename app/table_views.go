package app

import (
	"context"
	"errors"
	"sort"
	"strings"

	"segnapunti/domain"
)

// What the table pages show (UI.md §3 print row, §6).

// TableLine is one line of a table: its entrant and players.
type TableLine struct {
	Line domain.Line
	// Entrant is the line's entrant number; in an individual tournament
	// its two players' numbers, "3 / 11".
	Entrant string
	Players []string
}

// tableLine is line l of a table with its players' names.
func tableLine(tb domain.TableAssignment, l domain.Line, players map[string][]string) TableLine {
	ids := tb.Line(l)
	out := TableLine{Line: l, Entrant: strings.Join(ids, " / ")}
	for _, id := range ids {
		out.Players = append(out.Players, players[id]...)
	}
	return out
}

// TableView is a table's sheet as its players see it.
type TableView struct {
	Target        SheetTarget
	Lines         [2]TableLine
	Sheet         *domain.Sheet // nil: no hand yet
	Report        domain.Report
	Version       int
	Confirmations []Confirmation
	// Signable: the sheet can be signed now (Signable gives no reason).
	Signable bool
	// Clock is the round's clock; Late the hands (1-based) entered after
	// time was called (UI.md §9).
	Clock Clock
	Late  map[int]bool
}

// NextLine is the line that signs next: the scorer's line first (NS unless
// EO signed), then the other.
func (v TableView) NextLine() domain.Line {
	if len(v.Confirmations) == 1 {
		return v.Confirmations[0].Line.Other()
	}
	return domain.NS
}

// Delivered: both lines have signed.
func (v TableView) Delivered() bool { return len(v.Confirmations) >= 2 }

// CanAdd: the players may enter another hand (MoreHands), and nobody has
// signed yet (a signed sheet changes only by a referee's correction).
func (v TableView) CanAdd() bool {
	var hands []domain.Hand
	if v.Sheet != nil {
		hands = v.Sheet.Hands
	}
	return len(v.Confirmations) == 0 && moreHands(hands, v.Target.Round.HandsPlanned) == nil
}

// TableSheet is the table page's data: the table, its lines and players,
// the sheet so far, its report and signatures.
func (a *App) TableSheet(ctx context.Context, p Principal, tid string, round, table int) (TableView, error) {
	g, err := a.SheetTarget(ctx, p, tid, round, table, false)
	if err != nil {
		return TableView{}, err
	}
	v := TableView{Target: g}
	players, err := a.entrantPlayers(ctx, g.Tournament.ID)
	if err != nil {
		return TableView{}, err
	}
	v.Lines[domain.NS] = tableLine(g.Table, domain.NS, players)
	v.Lines[domain.EO] = tableLine(g.Table, domain.EO, players)
	st, err := a.db.GetSheet(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table)
	switch {
	case errors.Is(err, domain.ErrNotFound):
	case err != nil:
		return TableView{}, err
	default:
		sh := st.Sheet
		v.Sheet, v.Version = &sh, st.Version
		v.Report = domain.Validate(sh)
		v.Signable = Signable(sh, v.Report) == nil
	}
	if v.Confirmations, err = a.db.SheetConfirmations(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table); err != nil {
		return TableView{}, err
	}
	if v.Clock, err = a.RoundClock(ctx, g.Tournament.ID, g.Round.Number); err != nil {
		return TableView{}, err
	}
	if v.Late, err = a.db.LateHands(ctx, g.Tournament.ID, g.Round.Number, g.Table.Table); err != nil {
		return TableView{}, err
	}
	return v, nil
}

func (a *App) entrantPlayers(ctx context.Context, tid string) (map[string][]string, error) {
	// The entrants come from the cache per tournament version (as the
	// tournament's pages read them): the print page of a 100-table round
	// read every entrant row on each view.
	facts, _, err := a.factsNow(ctx, tid)
	if err != nil {
		return nil, err
	}
	es := facts.entrants
	out := make(map[string][]string, len(es))
	for _, e := range es {
		for _, pl := range e.Players {
			out[e.ID] = append(out[e.ID], pl.Name)
		}
	}
	return out, nil
}

// PrintTable is one table of a round's printed pages.
type PrintTable struct {
	Table int
	Lines [2]TableLine
	Link  *EntryLink // the table's live link, to print (issued now or earlier)
	// Live: the table has a live link issued before codes were kept,
	// which only re-issuing can print again.
	Live bool
}

// PrintSeat is one player's seat, for the alphabetical list.
type PrintSeat struct {
	Player  string
	Entrant string
	Table   int
	Line    domain.Line
}

// RoundPrint is the printable round (UI.md §3): seating by table, seating
// by player, and a blank sheet per table.
type RoundPrint struct {
	Tournament domain.Tournament
	Round      domain.Round
	Tables     []PrintTable
	Seats      []PrintSeat
	Issued     bool // every table's link was issued again now
	// IssuedNow: some tables got their first link with this opening.
	IssuedNow bool
}

// PrintRound gathers a round's printed pages (a page that can
// be previewed). Without issue nothing is revoked: each table's live link
// is printed as it was issued, and a table of a round still being played
// that has none gets one, so every opening prints the same codes. With
// issue (its own, confirmed action) every table's link is issued again
// and the old ones stop working. Codes are shown to those who may issue
// links only; the others see the pages without codes.
func (a *App) PrintRound(ctx context.Context, p Principal, tid string, n int, issue bool) (RoundPrint, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return RoundPrint{}, err
	}
	r, err := a.Round(ctx, p, t.ID, n)
	if err != nil {
		return RoundPrint{}, err
	}
	if issue && !canIssueLinks(acc) {
		return RoundPrint{}, forbidden("api.links_only")
	}
	links := map[int]EntryLink{}
	live := map[int]bool{}
	issuedNow := false
	if canIssueLinks(acc) && (issue || r.State.Order() < domain.RoundSheetsDelivered.Order()) {
		var missing []int
		if !issue {
			kept, err := a.db.LiveEntryLinks(ctx, t.ID, r.Number)
			if err != nil {
				return RoundPrint{}, err
			}
			for tb, l := range kept {
				if l.Code == "" {
					live[tb] = true
					continue
				}
				links[tb] = EntryLink{Table: tb, URL: "/table/" + l.Code, Code: l.Code, Short: l.Short}
			}
			for _, tb := range r.Tables {
				if _, ok := kept[tb.Table]; !ok {
					missing = append(missing, tb.Table)
				}
			}
		}
		if issue || len(missing) > 0 {
			list, err := a.IssueEntryLinks(ctx, p, t.ID, r.Number, missing)
			if err != nil {
				return RoundPrint{}, err
			}
			for _, l := range list {
				links[l.Table] = l
				delete(live, l.Table)
			}
			issuedNow = true
		}
	}
	players, err := a.entrantPlayers(ctx, t.ID)
	if err != nil {
		return RoundPrint{}, err
	}
	out := RoundPrint{Tournament: t, Round: r, Issued: issue, IssuedNow: issuedNow}
	for _, tb := range r.Tables {
		pt := PrintTable{Table: tb.Table}
		pt.Lines[domain.NS] = tableLine(tb, domain.NS, players)
		pt.Lines[domain.EO] = tableLine(tb, domain.EO, players)
		if l, ok := links[tb.Table]; ok {
			pt.Link = &l
		} else {
			pt.Live = live[tb.Table]
		}
		out.Tables = append(out.Tables, pt)
		for _, l := range pt.Lines {
			names := l.Players
			if len(names) == 0 {
				names = []string{l.Entrant}
			}
			for _, name := range names {
				out.Seats = append(out.Seats, PrintSeat{Player: name, Entrant: l.Entrant, Table: tb.Table, Line: l.Line})
			}
		}
	}
	sort.Slice(out.Tables, func(i, j int) bool { return out.Tables[i].Table < out.Tables[j].Table })
	sort.SliceStable(out.Seats, func(i, j int) bool { return out.Seats[i].Player < out.Seats[j].Player })
	return out, nil
}
