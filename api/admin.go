package api

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/messages"
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

func (r clubRequest) toDomain() (domain.Club, error) {
	var errs []fieldError
	if r.ID != "" {
		errs = appendErr(errs, checkIDSyntax("/id", r.ID))
	}
	errs = appendErr(errs, checkText("/name", r.Name, maxNameLength, true))
	if len(errs) > 0 {
		return domain.Club{}, invalidFields(errs)
	}
	return domain.Club{ID: r.ID, Name: strings.TrimSpace(r.Name)}, nil
}

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
	club, err := req.toDomain()
	if err != nil {
		s.fail(c, err)
		return
	}
	created, err := s.db.CreateClub(c.Request.Context(), club)
	if errors.Is(err, domain.ErrConflict) {
		s.fail(c, errConflict(messages.New("api.club_exists", club.ID)))
		return
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	created201(c, "/v1/clubs/"+url.PathEscape(created.ID), toClubJSON(created))
}

// listClubs: the admin's, and the federation's, which reads everything.
func (s *server) listClubs(c *gin.Context) {
	if err := requireRole(mustPrincipal(c), domain.RoleAdmin, domain.RoleFederation); err != nil {
		s.fail(c, err)
		return
	}
	clubs, err := s.db.ListClubs(c.Request.Context())
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
	p := mustPrincipal(c)
	cid := c.Param("cid")
	notFound := errNotFound(messages.New("api.no_club", cid))
	switch p.Role {
	case domain.RoleAdmin, domain.RoleFederation:
	case domain.RoleClub:
		if p.ClubID != cid {
			s.fail(c, notFound)
			return
		}
	default:
		s.fail(c, requireRole(p, domain.RoleAdmin, domain.RoleFederation, domain.RoleClub))
		return
	}
	if !validID(cid) {
		s.fail(c, notFound)
		return
	}
	club, err := s.db.GetClub(c.Request.Context(), cid)
	if errors.Is(err, domain.ErrNotFound) {
		s.fail(c, notFound)
		return
	}
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
	var errs []fieldError
	role, err := domain.ParseRole(req.Role)
	if err != nil {
		errs = append(errs, fieldError{Pointer: "/role", Detail: domainDetail(err)})
	}
	// A referee's token name is the referee's name: the one that
	// PUT .../referees/{name} assigns (API §4).
	errs = appendErr(errs, checkText("/name", req.Name, maxNameLength, true))
	clubID := ""
	switch {
	case role == domain.RoleClub && (req.Club == nil || *req.Club == ""):
		errs = append(errs, fieldError{Pointer: "/club", Detail: "a club token needs the id of its club"})
	case role == domain.RoleClub:
		clubID = *req.Club
	case req.Club != nil && role != "":
		errs = append(errs, fieldError{Pointer: "/club", Detail: fmt.Sprintf("only club tokens belong to a club; leave club out for a %s token", role)})
	}
	if len(errs) > 0 {
		s.fail(c, invalidFields(errs))
		return
	}
	ctx := c.Request.Context()
	if clubID != "" {
		if !validID(clubID) {
			s.fail(c, invalidFields([]fieldError{{Pointer: "/club", Detail: fmt.Sprintf("no club %q", clubID)}}))
			return
		}
		if _, err := s.db.GetClub(ctx, clubID); errors.Is(err, domain.ErrNotFound) {
			s.fail(c, invalidFields([]fieldError{{Pointer: "/club", Detail: fmt.Sprintf("no club %q; create it first with POST /v1/clubs", clubID)}}))
			return
		} else if err != nil {
			s.fail(c, err)
			return
		}
	}
	plaintext, p, err := s.db.CreateToken(ctx, role, strings.TrimSpace(req.Name), clubID)
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

// Limits on free text, in characters.
const (
	maxNameLength       = 200
	maxMembershipLength = 40
)

// checkText checks a free-text field: trimmed non-empty when required, at
// most max characters, no control characters. Unicode letters, quotes and
// anything SQL-looking are fine: the store binds every value as a
// parameter.
func checkText(ptr, s string, maxLen int, required bool) *fieldError {
	t := strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s):
		return &fieldError{Pointer: ptr, Detail: "not valid UTF-8 text", msg: messages.New("api.utf8")}
	case required && t == "":
		return &fieldError{Pointer: ptr, Detail: "required, and not blank"}
	case utf8.RuneCountInString(s) > maxLen:
		return &fieldError{Pointer: ptr, Detail: fmt.Sprintf("at most %d characters", maxLen)}
	case strings.ContainsFunc(s, unicode.IsControl):
		return &fieldError{Pointer: ptr, Detail: "control characters are not allowed"}
	}
	return nil
}

// checkIDSyntax checks an id chosen by a caller (club ids, entrant
// numbers): 1..maxIDLength of letters, digits, "-", "_" and ".".
func checkIDSyntax(ptr, id string) *fieldError {
	if id == "" || len(id) > maxIDLength {
		return &fieldError{Pointer: ptr, Detail: fmt.Sprintf("want 1 to %d characters", maxIDLength)}
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return &fieldError{Pointer: ptr, Detail: "use only letters, digits, '-', '_' and '.'"}
		}
	}
	return nil
}

func appendErr(errs []fieldError, e *fieldError) []fieldError {
	if e != nil {
		errs = append(errs, *e)
	}
	return errs
}

// invalidFields is the 422 for field-level problems found after decoding.
func invalidFields(errs []fieldError) error {
	if len(errs) > maxFieldErrors {
		errs = errs[:maxFieldErrors]
	}
	if len(errs) == 1 {
		return errInvalid(summary(errs), errs...)
	}
	return errInvalid(summary(errs), errs...)
}

// domainDetail is the message of a domain parse error without the
// sentinel's "invalid: " prefix.
func domainDetail(err error) string {
	return strings.TrimPrefix(err.Error(), domain.ErrInvalid.Error()+": ")
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
