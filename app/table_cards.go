package app

import (
	"context"
	"errors"
	"fmt"

	"segnapunti/domain"
	"segnapunti/store"
)

// Table cards (UI.md §9): a printable card per physical table
// whose QR and short code stay valid for every round of the tournament at
// that table; /table/{code} opens the table's current round (Bridgemate's
// table numbers: the secretary prints the cards once).

// TableCardLink is a table's card as printed.
type TableCardLink struct {
	Table int
	URL   string // "/table/<code>"
	Code  string
	Short string
}

// LinkNoRound: a table card whose table plays in no round yet.
const LinkNoRound LinkState = "no_round"

// TableCards returns the cards of the listed tables (1..MaxTables),
// issuing those not issued yet; who may issue links only.
func (a *App) TableCards(ctx context.Context, p Principal, tid string, tables []int) (domain.Tournament, []TableCardLink, error) {
	t, acc, err := a.TournamentAccess(ctx, p, tid)
	if err != nil {
		return domain.Tournament{}, nil, err
	}
	if !canIssueLinks(acc) {
		return domain.Tournament{}, nil, forbidden("api.links_only")
	}
	for _, n := range tables {
		if n < 1 || n > MaxTables {
			return domain.Tournament{}, nil, paramError("t", "api.whole_range_n", "t", MaxTables, n)
		}
	}
	cards, err := a.db.TableCards(ctx, t.ID, tables, string(p.Role)+":"+p.Name)
	if err != nil {
		return domain.Tournament{}, nil, err
	}
	out := make([]TableCardLink, 0, len(tables))
	for _, n := range tables {
		c := cards[n]
		out = append(out, TableCardLink{Table: n, URL: "/table/" + c.Code, Code: c.Code, Short: c.Short})
	}
	return t, out, nil
}

// currentRoundAt is the round a table card opens: the earliest round
// being played (published, sheets not delivered) whose sheet at that
// table the other line has not confirmed yet; else the latest published
// round with that table (its page says it is delivered). ok false: the
// table plays in no published round.
func (a *App) currentRoundAt(ctx context.Context, tid string, table int) (domain.Round, bool, error) {
	rounds, err := a.db.ListRounds(ctx, tid)
	if err != nil {
		return domain.Round{}, false, err
	}
	var latest *domain.Round
	for i := range rounds {
		r := rounds[i]
		if r.State.Order() < domain.RoundPlaying.Order() {
			continue
		}
		if _, ok := r.Assignment(table); !ok {
			continue
		}
		if latest == nil || r.Number > latest.Number {
			latest = &rounds[i]
		}
	}
	var open *domain.Round
	for i := range rounds {
		r := rounds[i]
		if r.State != domain.RoundPlaying {
			continue
		}
		if _, ok := r.Assignment(table); !ok || (open != nil && open.Number < r.Number) {
			continue
		}
		sigs, err := a.db.SheetConfirmations(ctx, tid, r.Number, table)
		if err != nil {
			return domain.Round{}, false, err
		}
		if !confirmedBy(sigs) {
			open = &rounds[i]
		}
	}
	switch {
	case open != nil:
		return *open, true, nil
	case latest != nil:
		return *latest, true, nil
	}
	return domain.Round{}, false, nil
}

func confirmedBy(sigs []store.Confirmation) bool {
	for _, c := range sigs {
		if c.Kind == store.SignConfirm {
			return true
		}
	}
	return false
}

// tableCardEntry opens a table card's code: the principal of its table in
// the current round.
func (a *App) tableCardEntry(ctx context.Context, code string, short bool) (Principal, LinkState, error) {
	c, err := a.db.TableCardByCode(ctx, code, short)
	if errors.Is(err, domain.ErrNotFound) {
		return Principal{}, LinkUnknown, nil
	}
	if err != nil {
		return Principal{}, "", err
	}
	if c.Revoked {
		return Principal{}, LinkRevoked, nil
	}
	r, ok, err := a.currentRoundAt(ctx, c.TournamentID, c.Table)
	switch {
	case err != nil:
		return Principal{}, "", err
	case !ok:
		return Principal{}, LinkNoRound, nil
	case r.State.Order() >= domain.RoundSheetsDelivered.Order():
		return Principal{}, LinkDelivered, nil
	}
	entry := store.EntryLink{ID: c.ID, TournamentID: c.TournamentID, Round: r.Number, Table: c.Table, RoundState: r.State}
	return Principal{Name: fmt.Sprintf("table %d of round %d (card)", c.Table, r.Number), Entry: entry}, LinkLive, nil
}
