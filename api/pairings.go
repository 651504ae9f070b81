package api

import (
	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// Pairings (API §4.2, RULES §11): generate a proposed round, check a
// stored one. Publishing is PATCH .../rounds/{n} {"state": "playing"}
// (setRoundState). The operations are app.GenerateRound and app.CheckRound.

type generateRequest struct {
	Number       int     `json:"number"`
	System       string  `json:"system"`
	HandsPlanned int     `json:"hands_planned"`
	Seed         *uint64 `json:"seed"`
	Phase        string  `json:"phase"`
	GroupSize    int     `json:"group_size"`
}

func (s *server) generateRound(c *gin.Context) {
	var req generateRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	tid := c.Param("tid")
	r, err := s.app.GenerateRound(c.Request.Context(), mustPrincipal(c), tid, app.GenerateInput{
		Number: req.Number, System: req.System, HandsPlanned: req.HandsPlanned, Seed: req.Seed, Phase: req.Phase, GroupSize: req.GroupSize})
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, roundPath(tid, r.Number), toRoundJSON(r))
}

type pairingProblemJSON struct {
	Table  int    `json:"table"`
	Code   string `json:"code"`
	Detail string `json:"detail"`
	Rule   string `json:"rule"`
}

type pairingCheckJSON struct {
	System   string               `json:"system"`
	OK       bool                 `json:"ok"`
	Problems []pairingProblemJSON `json:"problems"`
}

func toPairingCheckJSON(chk domain.PairingCheck, l domain.Lang) pairingCheckJSON {
	out := pairingCheckJSON{System: string(chk.System), OK: chk.OK, Problems: make([]pairingProblemJSON, 0, len(chk.Problems))}
	for _, p := range chk.Problems {
		out.Problems = append(out.Problems, pairingProblemJSON{Table: p.Table, Code: string(p.Code), Detail: p.Message(l), Rule: p.Rule})
	}
	return out
}

func (s *server) checkRound(c *gin.Context) {
	n, err := pathNumber(c, "n", maxRoundsPlanned)
	if err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	chk, err := s.app.CheckRound(c.Request.Context(), mustPrincipal(c), c.Param("tid"), n)
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toPairingCheckJSON(chk, lang))
}
