package web

import (
	"errors"
	"fmt"
	"html/template"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/httperr"
	"segnapunti/importers/xlsx"
)

// entrantsPage: the tournament's entrants and three ways to add more.
type entrantsPage struct {
	Page
	D app.TournamentDetail
	// List is the entrants' table rows; Datalists the club's registry,
	// offered as you type (entrantsFragments).
	List, Datalists template.HTML
	// Pair: the one-by-one form has two players (pairs), else one.
	Pair bool
	// One is the one-by-one form as typed, OneErrs its field errors.
	One     entrantOneForm
	OneErrs fieldErrors
	// Rows is the pasted text; RowErrs names the rows refused.
	Rows    string
	RowErrs []string
	// Open is which form is open after an error: one, paste, upload.
	Open string
}

type entrantOneForm struct {
	ID, P1Name, P1Membership, P2Name, P2Membership string
	// Optional, for the prize categories: p1_sex, p1_birth_year,
	// p2_sex, p2_birth_year.
	P1Sex, P1BirthYear, P2Sex, P2BirthYear string
}

// formBirthYear reads an optional birth year field: "" is not given (0);
// anything but a number is -1, which the operation refuses naming it.
func formBirthYear(v string) int {
	if v == "" {
		return 0
	}
	y, err := strconv.Atoi(v)
	if err != nil {
		return -1
	}
	return y
}

func (s *Server) entrantsShow(w http.ResponseWriter, r *http.Request) {
	data := &entrantsPage{OneErrs: fieldErrors{}}
	if r.URL.Query().Get("added") != "" {
		data.Message = "secretary.entrants_added"
	}
	s.renderEntrants(w, r, http.StatusOK, data)
}

func (s *Server) renderEntrants(w http.ResponseWriter, r *http.Request, status int, data *entrantsPage) {
	ctx, p, tid := r.Context(), s.caller(r), r.PathValue("tid")
	d, err := s.app.TournamentDetail(ctx, p, tid)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	msg, errID := data.Message, data.Error
	data.Page = s.page(r, "secretary.entrants_title")
	data.Message, data.Error = msg, errID
	data.D = d
	data.Pair = d.Tournament.Kind != domain.KindIndividual
	var players []domain.Player
	if d.Access.Manage() {
		if players, err = s.app.ClubPlayers(ctx, p, tid); err != nil {
			s.operationFailed(w, r, err)
			return
		}
	}
	if data.List, data.Datalists, err = s.entrantsFragments(langOf(r), d, players); err != nil {
		s.serverError(w, r, err)
		return
	}
	s.render(w, r, status, "entrants_show", data)
}

// entrantsFragments renders the entrants' rows and the club's datalists
// of the entrants page, each once per version of what it shows: the rows
// per version of the tournament (d.Version names its entrants), the
// datalists per list of the club's players. Neither has words of the page's
// language. A 200-entrant evening's page had 44,000 allocations a view,
// most of them html/template reflecting over each row.
func (s *Server) entrantsFragments(lang Lang, d app.TournamentDetail, players []domain.Player) (rows, datalists template.HTML, err error) {
	rows, err = s.fragment(lang, "entrants_show", "entrant_rows", "entrant_rows\x00"+d.Tournament.ID, d.Version,
		struct {
			Tournament string
			Entrants   []domain.Entrant
		}{d.Tournament.ID, d.Entrants})
	if err != nil || len(players) == 0 {
		return rows, "", err
	}
	var version strings.Builder
	for _, p := range players {
		version.WriteString(p.Name + "\x00" + p.Membership + "\x00")
	}
	datalists, err = s.fragment(lang, "entrants_show", "club_datalists", "club_datalists\x00"+d.Tournament.ClubID, version.String(), players)
	return rows, datalists, err
}

// entrantsAddOne adds one entrant typed in the form.
func (s *Server) entrantsAddOne(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	v := func(k string) string { return strings.TrimSpace(r.PostFormValue(k)) }
	f := entrantOneForm{ID: v("id"), P1Name: v("p1_name"), P1Membership: v("p1_membership"), P2Name: v("p2_name"), P2Membership: v("p2_membership"),
		P1Sex: v("p1_sex"), P1BirthYear: v("p1_birth_year"), P2Sex: v("p2_sex"), P2BirthYear: v("p2_birth_year")}
	in := app.EntrantInput{ID: f.ID, Players: []domain.Player{{Name: f.P1Name, Membership: f.P1Membership, Sex: f.P1Sex, BirthYear: formBirthYear(f.P1BirthYear)}}}
	if f.P2Name != "" || f.P2Membership != "" || r.PostFormValue("pair") == "1" {
		in.Players = append(in.Players, domain.Player{Name: f.P2Name, Membership: f.P2Membership, Sex: f.P2Sex, BirthYear: formBirthYear(f.P2BirthYear)})
	}
	lang := langOf(r)
	bad := fieldErrors{}
	for k, p := range in.Players {
		if malformedMembership(p.Membership) {
			bad[fmt.Sprintf("p%d_membership", k+1)] = translate(lang, "detail.membership", p.Membership)
		}
	}
	var err error
	if len(bad) == 0 {
		one := []app.EntrantInput{in}
		if err = s.numberEntrants(r, one); err == nil {
			_, err = s.app.AddEntrants(r.Context(), s.caller(r), r.PathValue("tid"), one)
		}
	}
	if fe, ok := invalidFields(lang, err, nil); ok || len(bad) > 0 {
		errs := bad
		for name, detail := range fe {
			// /entrants/0/players/1/name fills p2_name.
			field := strings.TrimPrefix(name, "entrants.0.")
			field = strings.NewReplacer("players.0.", "p1_", "players.1.", "p2_", "players", "p1_name").Replace(field)
			errs[field] = detail
		}
		data := &entrantsPage{One: f, OneErrs: errs, Open: "one"}
		data.Error = "form.errors"
		s.renderEntrants(w, r, http.StatusUnprocessableEntity, data)
		return
	} else if errors.Is(err, domain.ErrConflict) {
		data := &entrantsPage{One: f, OneErrs: fieldErrors{"id": translate(lang, "secretary.entrant_taken")}, Open: "one"}
		data.Error = "form.errors"
		s.renderEntrants(w, r, http.StatusConflict, data)
		return
	} else if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"), "/entrants")+"?added=1")
}

// entrantsPaste adds the rows pasted from a spreadsheet, all or none.
func (s *Server) entrantsPaste(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 1<<20)
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusRequestEntityTooLarge, "secretary.too_large")
		return
	}
	text := r.PostFormValue("rows")
	rows, err := s.entrantRows(r, splitPasted(text))
	s.addEntrantRows(w, r, rows, err, &entrantsPage{Rows: text, Open: "paste", OneErrs: fieldErrors{}})
}

// entrantsUpload adds the entrants of an uploaded .xlsx list.
func (s *Server) entrantsUpload(w http.ResponseWriter, r *http.Request) {
	data := &entrantsPage{Open: "upload", OneErrs: fieldErrors{}}
	lang := langOf(r)
	fail := func(status int, msg string) {
		data.RowErrs = []string{msg}
		data.Error = "form.errors"
		s.renderEntrants(w, r, status, data)
	}
	// The file is streamed to the operation, which reads it only once a
	// slot of the upload gate is taken, within the bounds of every
	// uploaded workbook (app.ReadEntrantList).
	r.Body = http.MaxBytesReader(w, r.Body, xlsx.DefaultMaxBytes+importBodyOverhead)
	file, err := formFilePart(r, "file")
	if err != nil {
		fail(http.StatusUnprocessableEntity, translate(lang, "secretary.file_missing"))
		return
	}
	cells, err := s.app.ReadEntrantList(r.Context(), s.caller(r), r.PathValue("tid"), file)
	var mb *http.MaxBytesError
	switch {
	case errors.Is(err, xlsx.ErrBusy):
		w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(s.app.ImportGate().RetryAfter.Seconds()))))
		fail(httperr.Busy.Page, translate(lang, "secretary.import_busy"))
		return
	case errors.Is(err, app.ErrWorkbookTooLarge) || errors.As(err, &mb):
		fail(httperr.TooLarge.Page, translate(lang, "secretary.import_too_large"))
		return
	case errors.Is(err, app.ErrUnreadableWorkbook):
		fail(httperr.UnreadableWorkbook.Page, translate(lang, "secretary.not_workbook"))
		return
	case err != nil:
		s.operationFailed(w, r, err)
		return
	}
	rows, err := s.entrantRows(r, trimEntrantColumns(cells))
	s.addEntrantRows(w, r, rows, err, data)
}

// formFilePart streams the multipart part of the form field name (the
// body read no further than its start).
func formFilePart(r *http.Request, name string) (io.Reader, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, err
	}
	for {
		part, err := mr.NextPart()
		if err != nil {
			return nil, err
		}
		if part.FormName() == name && part.FileName() != "" {
			return part, nil
		}
	}
}

// addEntrantRows enters a list through the same operation as POST
// …/entrants; a refusal names the rows.
func (s *Server) addEntrantRows(w http.ResponseWriter, r *http.Request, rows []entrantRow, readErr error, data *entrantsPage) {
	lang := langOf(r)
	fail := func(status int, msgs ...string) {
		data.RowErrs = msgs
		data.Error = "form.errors"
		s.renderEntrants(w, r, status, data)
	}
	switch {
	case readErr != nil:
		fail(http.StatusUnprocessableEntity, readErr.Error())
		return
	case len(rows) == 0:
		fail(http.StatusUnprocessableEntity, translate(lang, "secretary.no_rows"))
		return
	}
	if msgs := membershipRowErrors(lang, rows); len(msgs) > 0 {
		fail(http.StatusUnprocessableEntity, msgs...)
		return
	}
	in := make([]app.EntrantInput, len(rows))
	for i, row := range rows {
		in[i] = row.Input
	}
	if err := s.numberEntrants(r, in); err != nil {
		s.operationFailed(w, r, err)
		return
	}
	for i := range rows {
		rows[i].Input.ID = in[i].ID // the row errors name the numbers given
	}
	_, err := s.app.AddEntrants(r.Context(), s.caller(r), r.PathValue("tid"), in)
	if fe, ok := invalidFields(lang, err, func(i int) int { return rows[min(i, len(rows)-1)].Line }); ok {
		fail(http.StatusUnprocessableEntity, rowErrors(lang, rows, fe)...)
		return
	} else if errors.Is(err, domain.ErrConflict) {
		fail(http.StatusConflict, translate(lang, "secretary.entrant_taken"))
		return
	} else if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"), "/entrants")+"?added=1")
}

// numberEntrants numbers the entrants of in that came without a number
// (UI.md §3: a pasted row is name; membership), after the tournament's.
func (s *Server) numberEntrants(r *http.Request, in []app.EntrantInput) error {
	for _, e := range in {
		if e.ID == "" {
			d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
			if err != nil {
				return err
			}
			numberEntrants(d.Entrants, in)
			return nil
		}
	}
	return nil
}
