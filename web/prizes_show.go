package web

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"segnapunti/app"
	"segnapunti/domain"
)

// prizesPage: the prize list of a tournament (UI.md §9), one
// <tr data-prize="{category}" data-entrant="{id}"> per award, printable,
// and for the organising club the form that defines the categories
// (fields categories.N.id, .kind, .label, .places, .born_by, .club,
// .attribute, .value, .cumulative; the rows' order is the order of value).
type prizesPage struct {
	Page
	D          app.TournamentDetail
	List       app.PrizeList
	Rows       []prizeFormRow
	Errs       fieldErrors
	Kinds      []domain.PrizeKind
	Attributes []domain.PrizeAttribute
}

// prizeFormRow is one row of the categories form, as typed.
type prizeFormRow struct {
	N                                                  int
	ID, Kind, Label, Places, BornBy, Club, Attr, Value string
	Cumulative                                         bool
}

// prizeBlankRows is how many empty rows the form offers for new categories.
const prizeBlankRows = 3

func prizeRowsOf(cats []domain.PrizeCategory) []prizeFormRow {
	rows := make([]prizeFormRow, 0, len(cats)+prizeBlankRows)
	for i, c := range cats {
		r := prizeFormRow{N: i, ID: c.ID, Kind: string(c.Kind), Label: c.Label, Places: strconv.Itoa(c.Places), Club: c.Club,
			Attr: string(c.Attribute), Value: c.Value, Cumulative: c.Cumulative}
		if c.BornBy != 0 {
			r.BornBy = strconv.Itoa(c.BornBy)
		}
		rows = append(rows, r)
	}
	for i := 0; i < prizeBlankRows; i++ {
		rows = append(rows, prizeFormRow{N: len(rows), Kind: string(domain.PrizeOverall)})
	}
	return rows
}

func (s *Server) prizesShow(w http.ResponseWriter, r *http.Request) {
	data := &prizesPage{Errs: fieldErrors{}}
	if r.URL.Query().Get("saved") == "1" {
		data.Message = "secretary.prizes.saved"
	}
	s.renderPrizes(w, r, http.StatusOK, data, nil)
}

// renderPrizes reads the tournament and its prizes and renders the page;
// rows, when not nil, are the form as the person typed it.
func (s *Server) renderPrizes(w http.ResponseWriter, r *http.Request, status int, data *prizesPage, rows []prizeFormRow) {
	ctx, p, tid := r.Context(), s.caller(r), r.PathValue("tid")
	d, err := s.app.TournamentDetail(ctx, p, tid)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	list, err := s.app.Prizes(ctx, p, tid)
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	msgMessage, msgError := data.Message, data.Error
	data.Page = s.page(r, "secretary.prizes.title")
	data.Message, data.Error = msgMessage, msgError
	data.D, data.List, data.Kinds, data.Attributes = d, list, domain.PrizeKinds, domain.PrizeAttributes
	data.Rows = rows
	if data.Rows == nil {
		data.Rows = prizeRowsOf(list.Categories)
	}
	s.render(w, r, status, "prizes_show", data)
}

// prizesSave: POST /tournaments/{tid}/prizes replaces the categories with
// the form's non-empty rows (a row without name and label is left out).
func (s *Server) prizesSave(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.renderError(w, r, http.StatusBadRequest, "error.bad_form")
		return
	}
	lang := langOf(r)
	data := &prizesPage{Errs: fieldErrors{}}
	var rows []prizeFormRow
	var cats []domain.PrizeCategory
	for i := 0; i < domain.MaxPrizeCategories+prizeBlankRows; i++ {
		f := func(name string) string {
			return strings.TrimSpace(r.PostForm.Get(fmt.Sprintf("categories.%d.%s", i, name)))
		}
		row := prizeFormRow{ID: f("id"), Kind: f("kind"), Label: f("label"), Places: f("places"), BornBy: f("born_by"),
			Club: f("club"), Attr: f("attribute"), Value: f("value"), Cumulative: f("cumulative") != ""}
		if row.ID == "" && row.Label == "" {
			continue
		}
		row.N = len(rows)
		rows = append(rows, row)
		c := domain.PrizeCategory{ID: row.ID, Kind: domain.PrizeKind(row.Kind), Label: row.Label, Club: row.Club,
			Attribute: domain.PrizeAttribute(row.Attr), Value: row.Value, Cumulative: row.Cumulative}
		at := fmt.Sprintf("categories.%d.", row.N)
		if n, err := strconv.Atoi(row.Places); err != nil {
			data.Errs[at+"places"] = translate(lang, "secretary.whole_number")
		} else {
			c.Places = n
		}
		if row.BornBy != "" {
			if n, err := strconv.Atoi(row.BornBy); err != nil {
				data.Errs[at+"born_by"] = translate(lang, "secretary.whole_number")
			} else {
				c.BornBy = n
			}
		}
		cats = append(cats, c)
	}
	if len(data.Errs) == 0 {
		_, err := s.app.SetPrizeCategories(r.Context(), s.caller(r), r.PathValue("tid"), cats)
		if fe, ok := invalidFields(lang, err, nil); ok {
			for k, detail := range fe {
				data.Errs[k] = detail
			}
		} else if err != nil {
			s.operationFailed(w, r, err)
			return
		}
	}
	if len(data.Errs) > 0 {
		data.Error = "form.errors"
		for i := 0; i < prizeBlankRows; i++ {
			rows = append(rows, prizeFormRow{N: len(rows), Kind: string(domain.PrizeOverall)})
		}
		s.renderPrizes(w, r, http.StatusUnprocessableEntity, data, rows)
		return
	}
	seeOther(w, r, tournamentPath(r.PathValue("tid"), "/prizes?saved=1"))
}
