package web

import "net/http"

// importPage: workbook uploads (UI.md §3). For now the page offers the
// blank template; running an upload still lives in package api
// (importWorkbook) and must move to package app before this page can take
// a file.
type importPage struct {
	Page
	TID, Name string
	Hands     int
}

func (s *Server) importShow(w http.ResponseWriter, r *http.Request) {
	t, err := s.app.ImportTournament(r.Context(), s.caller(r), r.PathValue("tid"))
	if err != nil {
		s.operationFailed(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "import_show", &importPage{Page: s.page(r, "secretary.imports_title"), TID: t.ID, Name: t.Name, Hands: t.HandsPerRound})
}
