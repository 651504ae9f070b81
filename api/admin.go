package api

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"

	"segnapunti/app"
	"segnapunti/domain"
)

// Clubs and tokens: the admin's business (API §4).

type clubRequest struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type clubJSON struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type clubsResponse struct {
	Clubs []clubJSON `json:"clubs"`
}

func toClubJSON(c domain.Club) clubJSON { return clubJSON{ID: c.ID, Name: c.Name} }

func (s *server) createClub(c *gin.Context) {
	if err := requireRole(mustPrincipal(c), domain.RoleAdmin); err != nil {
		s.fail(c, err)
		return
	}
	var req clubRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	created, err := s.app.CreateClub(c.Request.Context(), mustPrincipal(c), domain.Club{ID: req.ID, Name: req.Name})
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/clubs/"+url.PathEscape(created.ID), toClubJSON(created))
}

// listClubs: the admin's, and the federation's, which reads everything.
func (s *server) listClubs(c *gin.Context) {
	clubs, err := s.app.Clubs(c.Request.Context(), mustPrincipal(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	out := clubsResponse{Clubs: make([]clubJSON, 0, len(clubs))}
	for _, cl := range clubs {
		out.Clubs = append(out.Clubs, toClubJSON(cl))
	}
	ok200(c, out)
}

// getClub: admin and federation any club; a club token its own club.
func (s *server) getClub(c *gin.Context) {
	club, err := s.app.Club(c.Request.Context(), mustPrincipal(c), c.Param("cid"))
	if err != nil {
		s.fail(c, err)
		return
	}
	ok200(c, toClubJSON(club))
}

type tokenRequest struct {
	Role string  `json:"role"`
	Club *string `json:"club"`
	Name string  `json:"name"`
}

type tokenResponse struct {
	ID    string  `json:"id"`
	Token string  `json:"token"`
	Role  string  `json:"role"`
	Name  string  `json:"name"`
	Club  *string `json:"club"`
}

func (s *server) createToken(c *gin.Context) {
	if err := requireRole(mustPrincipal(c), domain.RoleAdmin); err != nil {
		s.fail(c, err)
		return
	}
	var req tokenRequest
	if err := s.decodeJSON(c, &req); err != nil {
		s.fail(c, err)
		return
	}
	plaintext, p, err := s.app.CreateToken(c.Request.Context(), mustPrincipal(c), app.NewToken{Role: req.Role, Name: req.Name, Club: req.Club})
	if err != nil {
		s.fail(c, err)
		return
	}
	out := tokenResponse{ID: p.TokenID, Token: plaintext, Role: string(p.Role), Name: p.Name}
	if p.ClubID != "" {
		out.Club = &p.ClubID
	}
	// The token is shown once: no cache may keep it.
	c.Header("Cache-Control", "no-store")
	b, _ := marshalJSON(out)
	writeJSON(c, http.StatusCreated, b)
}

// decodeJSON reads and strictly decodes a JSON body of at most
// MaxBodyBytes into dst.
func (s *server) decodeJSON(c *gin.Context, dst any) error {
	body, err := readBody(c, s.cfg.MaxBodyBytes)
	if err != nil {
		return err
	}
	return decodeBody(body, dst)
}

// created201 answers a creation: 201, the object, and its Location.
func created201(c *gin.Context, location string, v any) {
	b, err := marshalJSON(v)
	if err != nil {
		panic(err) // response types are plain data; recovered as a 500
	}
	c.Header("Location", location)
	writeJSON(c, http.StatusCreated, b)
}

func ok200(c *gin.Context, v any) {
	b, err := marshalJSON(v)
	if err != nil {
		panic(err) // response types are plain data; recovered as a 500
	}
	writeJSON(c, http.StatusOK, b)
}
