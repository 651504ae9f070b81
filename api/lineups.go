package api

import (
	"github.com/gin-gonic/gin"

	"segnapunti/domain"
)

// lineupJSON is a table's line-up on the wire (API §4.3, RULES §12.5): the
// membership numbers of the players of each team at the table.
type lineupJSON struct {
	Table int      `json:"table,omitempty"`
	NS    []string `json:"ns"`
	EO    []string `json:"eo"`
}

// putLineup: PUT .../rounds/{n}/tables/{t}/lineup.
func (s *server) putLineup(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	table, err := pathNumber(c, "t", maxTables)
	if err != nil {
		s.fail(c, err)
		return
	}
	var req lineupJSON
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	l, err := s.app.SetLineup(c.Request.Context(), mustPrincipal(c), c.Param("tid"), n, domain.Lineup{Table: table, NS: req.NS, EO: req.EO})
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, lineupJSON{Table: l.Table, NS: l.NS, EO: l.EO})
}
