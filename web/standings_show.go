package web

import (
	"net/http"
	"strconv"

	"segnapunti/app"
	"segnapunti/domain"
)

// standingsPage: the standings after any round (UI.md §3, the markup of
// §7 in the shared standings_table partial).
type standingsPage struct {
	Page
	Tournament domain.Tournament
	Table      standingsTable
	Rounds     []int // the rounds a person may choose
	// Differs lists the counted matches whose official (written) result is
	// not the computed one, and whether a correction is still possible
	// (RULES §8: shown wherever standings appear, so the referee acts in
	// time).
	Differs []discrepancyView
}

type discrepancyView struct {
	Entrant string
	app.Discrepancy
}

// standingsTableOf is the secretary's table, provisional as the public
// one (app.Provisional); no public links (the discrepancies are listed
// under it instead of the † marks).
func standingsTableOf(st app.StandingsTable, rounds []domain.Round) standingsTable {
	return newStandingsTable("", st, app.Provisional(rounds, st.AfterRound))
}

func (s *Server) standingsShow(w http.ResponseWriter, r *http.Request) {
	after := 0
	if q := r.URL.Query().Get("after_round"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 {
			s.renderError(w, r, http.StatusBadRequest, "secretary.bad_round")
			return
		}
		after = n
	}
	ctx, p, tid := r.Context(), s.caller(r), r.PathValue("tid")
	st, err := s.app.Standings(ctx, p, tid, after)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	// The page shows the tournament and its rounds: not its entrants and
	// referees (TournamentDetail), the entrants' read being most of the
	// page's database time on a big field.
	t, _, err := s.app.TournamentAccess(ctx, p, tid)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	rounds, err := s.app.Rounds(ctx, p, tid)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	data := &standingsPage{Page: s.page(r, "secretary.standings_title"), Tournament: t, Table: standingsTableOf(st, rounds)}
	for _, rd := range rounds {
		data.Rounds = append(data.Rounds, rd.Number)
	}
	for _, row := range st.Rows {
		for _, x := range st.Discrepancies[row.Entrant.ID] {
			data.Differs = append(data.Differs, discrepancyView{Entrant: row.Entrant.ID, Discrepancy: x})
		}
	}
	s.render(w, r, http.StatusOK, "standings_show", data)
}
