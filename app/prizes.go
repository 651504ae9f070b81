package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"segnapunti/domain"
	"segnapunti/events"
)

// Prizes (issue 22): a tournament's prize categories, defined by its
// organising club, and the awards computed from the final standings
// (domain.AwardPrizes; its readings are in domain/interp.go).

// PrizeList is a tournament's categories and the awards they give.
type PrizeList struct {
	Categories []domain.PrizeCategory
	Awards     []domain.Award
	AfterRound int  // the standings the awards come from
	Void       bool // an interrupted, void tournament has no prizes (FITAB art. 39)
}

// PrizeCategories lists a tournament's categories, for whoever may read it.
func (a *App) PrizeCategories(ctx context.Context, p Principal, tid string) ([]domain.PrizeCategory, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return nil, err
	}
	return a.db.PrizeCategories(ctx, t.ID)
}

// SetPrizeCategories replaces a tournament's categories (their order is
// their order of value). A host_club category without a club is the
// organising club's. Who may: Access.Manage. Refusals name the field, e.g.
// /categories/2/places.
func (a *App) SetPrizeCategories(ctx context.Context, p Principal, tid string, cats []domain.PrizeCategory) (PrizeList, error) {
	t, err := a.managed(ctx, p, tid, "defines the prizes")
	if err != nil {
		return PrizeList{}, err
	}
	host := ""
	for i := range cats {
		c := &cats[i]
		c.ID, c.Label, c.Club, c.Value = strings.TrimSpace(c.ID), strings.TrimSpace(c.Label), strings.TrimSpace(c.Club), strings.TrimSpace(c.Value)
		if c.Kind == domain.PrizeHostClub && c.Club == "" && t.ClubID != "" {
			if host == "" {
				club, err := a.db.GetClub(ctx, t.ClubID)
				if err != nil && !errors.Is(err, domain.ErrNotFound) {
					return PrizeList{}, err
				}
				host = club.Name
			}
			c.Club = host
		}
	}
	if err := domain.ValidatePrizeCategories(cats); err != nil {
		return PrizeList{}, invalid([]FieldError{prizeFieldError(err)})
	}
	if err := a.db.SetPrizeCategories(ctx, t.ID, cats); err != nil {
		return PrizeList{}, err
	}
	a.changed(ctx, t.ID, events.Tournament, 0, 0) // the public prize page
	return a.prizesOf(ctx, t)
}

// prizeFieldError turns "prizes[2].places: detail" into the pointer
// /categories/2/places.
func prizeFieldError(err error) FieldError {
	var ref *domain.Refusal
	if !errors.As(err, &ref) {
		return uncoded("/categories", domainDetail(err))
	}
	var i int
	var name string
	if n, _ := fmt.Sscanf(strings.NewReplacer("[", " ", "].", " ").Replace(ref.Field), "prizes %d %s", &i, &name); n == 2 {
		return domainField(fmt.Sprintf("/categories/%d/%s", i, name), err)
	}
	return domainField("/categories", err)
}

// Prizes is a tournament's categories and awards from its final standings
// (every round with a result; a valid interrupted tournament's after its
// last completed round), for whoever may read it.
func (a *App) Prizes(ctx context.Context, p Principal, tid string) (PrizeList, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return PrizeList{}, err
	}
	return a.prizesOf(ctx, t)
}

// PrizesOf is Prizes for a tournament the caller has checked may be read
// (the workbook).
func (a *App) PrizesOf(ctx context.Context, t domain.Tournament) (PrizeList, error) {
	return a.prizesOf(ctx, t)
}

func (a *App) prizesOf(ctx context.Context, t domain.Tournament) (PrizeList, error) {
	cats, err := a.db.PrizeCategories(ctx, t.ID)
	if err != nil {
		return PrizeList{}, err
	}
	out := PrizeList{Categories: cats}
	after := 0
	if ruling, interrupted := t.Interruption(); interrupted {
		if !ruling.Valid {
			out.Void = true
			return out, nil
		}
		after = ruling.AfterRound
	}
	st, err := a.StandingsOf(ctx, t, after)
	if err != nil {
		return PrizeList{}, err
	}
	out.AfterRound = st.AfterRound
	if out.Awards, err = domain.AwardPrizes(cats, st.Rows); err != nil {
		return PrizeList{}, err
	}
	return out, nil
}

// PublicPrizes is what the public prize page shows (issue 22): the awards
// only once they are final, so that no prize is announced and taken back —
// every round the final standings count (all the planned rounds, or those
// up to a valid interruption, FITAB art. 39) has its standings published
// (RULES §10, standings_published or later). Before that Final is false
// and Awards empty; a void tournament has none (Void).
type PublicPrizes struct {
	PrizeList
	Final bool
}

// PublicPrizes reads the prizes of a public tournament (pt from
// PublicTournament) for its public page.
func (a *App) PublicPrizes(ctx context.Context, pt *PublicTournament) (PublicPrizes, error) {
	t := pt.Tournament
	cats, err := a.db.PrizeCategories(ctx, t.ID)
	if err != nil {
		return PublicPrizes{}, err
	}
	out := PublicPrizes{PrizeList: PrizeList{Categories: cats}}
	last := t.RoundsPlanned
	if ruling, interrupted := t.Interruption(); interrupted {
		if !ruling.Valid {
			out.Void = true
			return out, nil
		}
		last = ruling.AfterRound
	}
	if !prizesFinal(pt.Rounds, last) {
		return out, nil
	}
	st, _, err := pt.Standings(last)
	if err != nil {
		return PublicPrizes{}, err
	}
	out.AfterRound = st.AfterRound
	if out.Awards, err = domain.AwardPrizes(cats, st.Rows); err != nil {
		return PublicPrizes{}, err
	}
	out.Final = true
	return out, nil
}

// prizesFinal: rounds 1..last all exist with their standings published.
func prizesFinal(rounds []PublicRound, last int) bool {
	if last < 1 {
		return false
	}
	published := map[int]bool{}
	for _, r := range rounds {
		published[r.Round.Number] = r.Round.State.Order() >= domain.RoundStandingsPublished.Order()
	}
	for n := 1; n <= last; n++ {
		if !published[n] {
			return false
		}
	}
	return true
}
