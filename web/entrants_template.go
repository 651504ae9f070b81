package web

import (
	"net/http"
	"segnapunti/exporters/download"

	"github.com/xuri/excelize/v2"

	"segnapunti/domain"
)

// entrantsTemplate: GET /tournaments/{tid}/entrants/template.xlsx — an
// empty entrant list with its header row in the page's language (issue
// 22): what the paste and upload forms read back — each player's name,
// membership, sex and birth year (the prizes), then the entrant's club.
func (s *Server) entrantsTemplate(w http.ResponseWriter, r *http.Request) {
	d, err := s.app.TournamentDetail(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	lang := langOf(r)
	players := 2
	if d.Tournament.Kind == domain.KindIndividual {
		players = 1
	}
	header := []any{translate(lang, "secretary.template_number")}
	for k := 1; k <= players; k++ {
		header = append(header, translate(lang, "secretary.template_name", k), translate(lang, "secretary.template_membership", k),
			translate(lang, "secretary.template_sex", k), translate(lang, "secretary.template_birth_year", k))
	}
	header = append(header, translate(lang, "secretary.template_club")) // the season workbook's Circolo
	f := excelize.NewFile()
	defer f.Close()
	sheet := translate(lang, "secretary.template_sheet")
	if err := f.SetSheetName("Sheet1", sheet); err != nil {
		s.serverError(w, r, err)
		return
	}
	if err := f.SetSheetRow(sheet, "A1", &header); err != nil {
		s.serverError(w, r, err)
		return
	}
	last, _ := excelize.ColumnNumberToName(len(header))
	_ = f.SetColWidth(sheet, "B", last, 24)
	name := translate(lang, "secretary.template_file") + ".xlsx"
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", download.Disposition(name))
	if err := f.Write(w); err != nil {
		s.log.Warn("entrant template", "err", err)
	}
}
