package api

import (
	"errors"
	"net/http"
	"net/url"
	"segnapunti/exporters/download"
	"time"

	"github.com/gin-gonic/gin"

	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// The open tournament file of API §4.4: export, import, the verifier and
// the format's schema.

// exportTournamentFile: GET /v1/tournaments/{tid}/tournament.json — the
// whole tournament in the open format; whoever may read the tournament.
func (s *server) exportTournamentFile(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	b, t, err := s.app.MarshalTournamentFile(c.Request.Context(), mustPrincipal(c), c.Param("tid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Content-Disposition", download.Disposition(download.Name(".tournament.json", t.Name, t.Date.Format(time.DateOnly))))
	c.Header("Cache-Control", "no-store") // membership numbers: personal data
	writeJSON(c, http.StatusOK, b)
}

// importTournamentFile: POST /v1/tournaments/import — a tournament file
// becomes a new tournament of this instance (201), in one transaction.
func (s *server) importTournamentFile(c *gin.Context) {
	if err := onlyParams(c.Request.URL.Query()); err != nil {
		s.fail(c, err)
		return
	}
	body, err := readBody(c, tournamentfile.MaxFileBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	t, err := s.app.ImportTournamentFile(c.Request.Context(), mustPrincipal(c), body)
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/tournaments/"+url.PathEscape(t.ID), toTournamentJSON(t))
}

// verifyTournamentFile: POST /v1/verify — the verification report of a
// tournament file; no token, nothing stored.
func (s *server) verifyTournamentFile(c *gin.Context) {
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	body, err := readBody(c, tournamentfile.MaxFileBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	rep, err := verifier.File(body, lang)
	var fe *tournamentfile.Error
	switch {
	case errors.As(err, &fe) && fe.Syntax:
		s.fail(c, errMalformed(fe.Error(), uncodedField(fe.Pointer, fe.Detail)))
		return
	case errors.As(err, &fe):
		s.fail(c, errInvalid(fe.Error(), uncodedField(fe.Pointer, fe.Detail)))
		return
	case err != nil:
		s.fail(c, err)
		return
	}
	b, err := rep.JSON(lang)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, b)
}

// tournamentFileSchema: GET /v1/schemas/tournament.json, no token: the
// JSON Schema of the open format.
func (s *server) tournamentFileSchema(c *gin.Context) {
	c.Header("Cache-Control", "public, max-age=3600")
	c.Data(http.StatusOK, schemaContentType, tournamentfile.Schema)
}

// seasonScreening: GET /v1/seasons/{season}/screening — the season's
// flags for the federation (API §4.4); ?club= keeps one club's.
func (s *server) seasonScreening(c *gin.Context) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "club", "lang"); err != nil {
		s.fail(c, err)
		return
	}
	lang := headerLang(c.GetHeader("Accept-Language"))
	if q.Has("lang") {
		l, err := langParam(q)
		if err != nil {
			s.fail(c, err)
			return
		}
		lang = l
	}
	res, err := s.app.ScreenSeason(c.Request.Context(), mustPrincipal(c), c.Param("season"), q.Get("club"))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := screeningResponse{Season: res.Season, Flags: make([]screeningFlag, len(res.Flags))}
	for i, f := range res.Flags {
		jf := screeningFlag{Kind: f.Kind, Tournament: f.Tournament, Club: f.Club, Entrants: f.Entrants, Reason: f.Message(lang), Data: f.Data, Score: f.Score}
		if jf.Entrants == nil {
			jf.Entrants = []string{}
		}
		if jf.Data == nil {
			jf.Data = map[string]any{}
		}
		if f.Round != 0 {
			jf.Round = new(f.Round)
		}
		if f.Table != 0 {
			jf.Table = new(f.Table)
		}
		out.Flags[i] = jf
	}
	b, err := marshalJSON(out)
	if err != nil {
		s.fail(c, err)
		return
	}
	writeJSON(c, http.StatusOK, b)
}

type screeningResponse struct {
	Season int             `json:"season"`
	Flags  []screeningFlag `json:"flags"`
}

type screeningFlag struct {
	Kind       string         `json:"kind"`
	Tournament string         `json:"tournament"`
	Club       string         `json:"club"`
	Round      *int           `json:"round"`
	Table      *int           `json:"table"`
	Entrants   []string       `json:"entrants"`
	Reason     string         `json:"reason"`
	Data       map[string]any `json:"data"`
	Score      float64        `json:"score"`
}
