package app

import (
	"context"
	"regexp"
	"strconv"

	"segnapunti/domain"
	"segnapunti/screening"
	"segnapunti/store"
)

// SeasonScreening is the screening of a season (API §4.4).
type SeasonScreening struct {
	Season int
	Flags  []screening.Flag
}

var screeningSeason = regexp.MustCompile(`^[0-9]{4}$`)

// ScreenSeason flags, over every stored tournament played in the calendar
// year season, what a human at the federation should look at (package
// screening). For the federation and admins; clubID, when not empty,
// keeps the flags of that club's tournaments (the season's statistics are
// still the whole season's).
func (a *App) ScreenSeason(ctx context.Context, p Principal, season, clubID string) (SeasonScreening, error) {
	if err := RequireRole(p, domain.RoleFederation, domain.RoleAdmin); err != nil {
		return SeasonScreening{}, forbidden("api.season_screening")
	}
	if !screeningSeason.MatchString(season) {
		return SeasonScreening{}, paramError("season", "api.season_year", season)
	}
	from, to, err := ParseSeason(season)
	if err != nil {
		return SeasonScreening{}, err
	}
	year, _ := strconv.Atoi(season)
	var ts []screening.Tournament
	for t, err := range a.db.SeasonTournaments(ctx, store.SeasonFilter{From: from, To: to}) {
		if err != nil {
			return SeasonScreening{}, err
		}
		st, err := a.screeningTournament(ctx, t)
		if err != nil {
			return SeasonScreening{}, err
		}
		ts = append(ts, st)
	}
	flags := screening.Screen(ts)
	if clubID != "" {
		kept := flags[:0]
		for _, f := range flags {
			if f.Club == clubID {
				kept = append(kept, f)
			}
		}
		flags = kept
	}
	return SeasonScreening{Season: year, Flags: flags}, nil
}

// screeningTournament reads what the screening looks at of one tournament.
func (a *App) screeningTournament(ctx context.Context, t domain.Tournament) (screening.Tournament, error) {
	out := screening.Tournament{Tournament: t}
	var err error
	if out.Entrants, err = a.db.ListEntrants(ctx, t.ID); err != nil {
		return out, err
	}
	if out.Rounds, err = a.db.ListRounds(ctx, t.ID); err != nil {
		return out, err
	}
	signed, err := a.db.TournamentConfirmations(ctx, t.ID)
	if err != nil {
		return out, err
	}
	for st, err := range a.db.EachSheet(ctx, t.ID) {
		if err != nil {
			return out, err
		}
		s := screening.Sheet{Round: st.Round, Table: st.Table, Sheet: st.Sheet, ChangedAt: st.UpdatedAt}
		for _, c := range signed[[2]int{st.Round, st.Table}] {
			if c.At.After(s.SignedAt) {
				s.SignedAt = c.At
			}
		}
		out.Sheets = append(out.Sheets, s)
	}
	corrections, err := a.db.ListCorrections(ctx, t.ID, store.CorrectionFilter{})
	if err != nil {
		return out, err
	}
	for _, c := range corrections {
		out.Corrections = append(out.Corrections, screening.Correction{Round: c.Round, Table: c.Table, Situation: c.Situation,
			Ruling: c.Ruling, Applied: c.Applied, At: c.At})
	}
	adjustments, err := a.db.ListAdjustments(ctx, t.ID)
	if err != nil {
		return out, err
	}
	for _, ad := range adjustments {
		out.Adjustments = append(out.Adjustments, domain.RecordedAdjustment{Entrant: ad.Entrant, Round: ad.Round, Case: ad.Case,
			Effect: ad.Effect, Author: ad.Author, At: ad.At})
	}
	return out, nil
}
