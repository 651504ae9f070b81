package api

import (
	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// Prizes (UI.md §9): GET/PUT /v1/tournaments/{tid}/prizes.

type prizeCategoryJSON struct {
	ID         string `json:"id"`
	Kind       string `json:"kind"`
	Label      string `json:"label"`
	Places     int    `json:"places"`
	BornBy     int    `json:"born_by,omitempty"`
	Club       string `json:"club,omitempty"`
	Attribute  string `json:"attribute,omitempty"`
	Value      string `json:"value,omitempty"`
	Cumulative bool   `json:"cumulative"`
}

type awardJSON struct {
	Category string       `json:"category"`
	Label    string       `json:"label"`
	Place    int          `json:"place"`
	Entrant  string       `json:"entrant"`
	Rank     int          `json:"rank"`
	VP       int          `json:"vp"`
	MP       int          `json:"mp"`
	Players  []playerJSON `json:"players"`
	Club     *string      `json:"club"`
}

type prizesJSON struct {
	Categories []prizeCategoryJSON `json:"categories"`
	Awards     []awardJSON         `json:"awards"`
	AfterRound int                 `json:"after_round"`
	Void       bool                `json:"void"`
}

type prizesRequest struct {
	Categories []prizeCategoryJSON `json:"categories"`
}

func toPrizesJSON(l app.PrizeList) prizesJSON {
	out := prizesJSON{Categories: make([]prizeCategoryJSON, len(l.Categories)), Awards: make([]awardJSON, len(l.Awards)),
		AfterRound: l.AfterRound, Void: l.Void}
	for i, c := range l.Categories {
		out.Categories[i] = prizeCategoryJSON{ID: c.ID, Kind: string(c.Kind), Label: c.Label, Places: c.Places, BornBy: c.BornBy,
			Club: c.Club, Attribute: string(c.Attribute), Value: c.Value, Cumulative: c.Cumulative}
	}
	for i, a := range l.Awards {
		e := a.Standing.Entrant
		aw := awardJSON{Category: a.Category, Label: a.Label, Place: a.Place, Entrant: e.ID, Rank: a.Standing.Rank,
			VP: a.Standing.VP, MP: a.Standing.MP, Players: make([]playerJSON, len(e.Players))}
		for j, p := range e.Players {
			aw.Players[j] = playerJSON{Name: p.Name, Membership: p.Membership}
		}
		if e.Club != "" {
			club := e.Club
			aw.Club = &club
		}
		out.Awards[i] = aw
	}
	return out
}

// getPrizes: GET .../prizes — the categories and the awards.
func (s *server) getPrizes(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	l, err := s.app.Prizes(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toPrizesJSON(l))
}

// putPrizes: PUT .../prizes — replaces the categories.
func (s *server) putPrizes(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	var req prizesRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	cats := make([]domain.PrizeCategory, len(req.Categories))
	for i, r := range req.Categories {
		cats[i] = domain.PrizeCategory{ID: r.ID, Kind: domain.PrizeKind(r.Kind), Label: r.Label, Places: r.Places, BornBy: r.BornBy,
			Club: r.Club, Attribute: domain.PrizeAttribute(r.Attribute), Value: r.Value, Cumulative: r.Cumulative}
	}
	l, err := s.app.SetPrizeCategories(c.Request.Context(), mustPrincipal(c), c.Param("tid"), cats)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toPrizesJSON(l))
}
