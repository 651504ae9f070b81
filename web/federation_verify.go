package web

import (
	"errors"
	"io"
	"net/http"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/screening"
	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// verifyPage is /federation/verify: upload a tournament file (docs/format.md)
// and see what does not re-derive (UI.md §9: each difference [data-code]),
// the same verification as POST /v1/verify and `segnapunti verify`.
type verifyPage struct {
	Page
	Done   bool
	Report verifier.Report
	// FileError is the file's refusal (unreadable, or not holding
	// together), with the JSON pointer of the field.
	FileError, FilePointer string
}

func (s *Server) federationVerifyShow(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "federation_verify", &verifyPage{Page: s.page(r, "federation.verify_title")})
}

// federationVerifyUpload: POST /federation/verify, multipart field file.
func (s *Server) federationVerifyUpload(w http.ResponseWriter, r *http.Request) {
	data := &verifyPage{Page: s.page(r, "federation.verify_title")}
	r.Body = http.MaxBytesReader(w, r.Body, tournamentfile.MaxFileBytes+64<<10)
	file, _, err := r.FormFile("file")
	if err != nil {
		data.Error = "federation.verify_no_file"
		s.render(w, r, http.StatusUnprocessableEntity, "federation_verify", data)
		return
	}
	defer file.Close()
	body, err := io.ReadAll(io.LimitReader(file, tournamentfile.MaxFileBytes+1))
	if err != nil {
		data.Error = "federation.verify_no_file"
		s.render(w, r, http.StatusUnprocessableEntity, "federation_verify", data)
		return
	}
	rep, err := s.app.VerifyFile(body, langOf(r))
	var ae *app.Error
	switch {
	case errors.As(err, &ae) && len(ae.Fields) > 0:
		data.Error = "federation.verify_unreadable"
		data.FileError, data.FilePointer = ae.Fields[0].DetailIn(langOf(r)), ae.Fields[0].Pointer
		s.render(w, r, http.StatusUnprocessableEntity, "federation_verify", data)
		return
	case err != nil:
		s.refereeFail(w, r, err)
		return
	}
	data.Done, data.Report = true, rep
	if rep.OK {
		data.Message = "federation.verify_ok"
	}
	s.render(w, r, http.StatusOK, "federation_verify", data)
}

// screeningPage is /federation/screening?season=YYYY: the season's flags
// (UI.md §9: one tr[data-flag="{kind}"] per flag), each opening the sheet
// or the standings it is about.
type screeningPage struct {
	Page
	seasonForm
	Result app.SeasonScreening
	Asked  bool
	Kinds  []string
}

// seasonForm is the season and club a federation page is asked for, and
// the clubs its select offers.
type seasonForm struct {
	Season, Club string
	Clubs        []domain.Club
}

// seasonDesk renders a federation page with a season form (tmpl, data;
// pg and f are data's own Page and seasonForm): once a season is asked,
// ask fills data; a bad season is a 400 naming the field.
func (s *Server) seasonDesk(w http.ResponseWriter, r *http.Request, tmpl string, data any, pg *Page, f *seasonForm, ask func(app.Principal) error) {
	p, _ := s.principal(r)
	f.Season, f.Club = r.URL.Query().Get("season"), r.URL.Query().Get("club")
	desk, err := s.app.Federation(r.Context(), p, app.FederationFilter{})
	if err != nil {
		s.refereeFail(w, r, err)
		return
	}
	f.Clubs = desk.Clubs
	if f.Season != "" {
		err = ask(p)
		var ae *app.Error
		switch {
		case errors.As(err, &ae) && ae.Kind == app.ErrBadParameter:
			pg.Error = "federation.screening_bad_season"
			s.render(w, r, http.StatusBadRequest, tmpl, data)
			return
		case err != nil:
			s.refereeFail(w, r, err)
			return
		}
	}
	s.render(w, r, http.StatusOK, tmpl, data)
}

func (s *Server) federationScreening(w http.ResponseWriter, r *http.Request) {
	data := &screeningPage{Page: s.page(r, "federation.screening_title"), Kinds: screening.Kinds}
	s.seasonDesk(w, r, "federation_screening", data, &data.Page, &data.seasonForm, func(p app.Principal) (err error) {
		data.Result, err = s.app.ScreenSeason(r.Context(), p, data.Season, data.Club)
		data.Asked = err == nil
		return err
	})
}

// verificationPage is /tournaments/{tid}/verification: what the
// federation's verifier says of the tournament's own file, for its club.
type verificationPage struct {
	Page
	TID, Name string
	Report    verifier.Report
}

func (s *Server) tournamentVerification(w http.ResponseWriter, r *http.Request) {
	t, rep, err := s.app.VerifyTournament(r.Context(), s.caller(r), r.PathValue("tid"), langOf(r))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "tournament_verification", &verificationPage{Page: s.page(r, "federation.verification_title"), TID: t.ID, Name: t.Name, Report: rep})
}

// verificationsPage is /federation/verification?season=YYYY&club=ID: the
// verification status of every club's tournaments of a season, one
// tr[data-tournament="{tid}"] a tournament with data-verification="ok",
// "differences" or "unreadable" and data-standings-ok, each opening the
// tournament's own verification page.
type verificationsPage struct {
	Page
	seasonForm
	List  []app.TournamentVerification
	More  bool
	Asked bool
	Max   int
}

func (s *Server) federationVerifications(w http.ResponseWriter, r *http.Request) {
	data := &verificationsPage{Page: s.page(r, "federation.verifications_title"), Max: app.MaxSeasonVerifications}
	s.seasonDesk(w, r, "federation_verifications", data, &data.Page, &data.seasonForm, func(p app.Principal) (err error) {
		data.List, data.More, err = s.app.SeasonVerifications(r.Context(), p, data.Season, data.Club, langOf(r))
		data.Asked = err == nil
		return err
	})
}
