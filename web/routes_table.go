package web

import "net/http"

// routesTable registers the table pages (UI.md §3 print row, §6).
func (s *Server) routesTable(mux *http.ServeMux) {
	mux.HandleFunc("GET /table", s.tableCodeShow)
	mux.HandleFunc("POST /table", s.tableCodeOpen)
	mux.HandleFunc("GET /table/{code}", s.tableShow)
	mux.HandleFunc("POST /table/{code}", s.tableHandAdd)
	mux.HandleFunc("POST /table/{code}/confirm", s.tableConfirm)
	mux.HandleFunc("POST /table/{code}/end", s.tableEnd)
	mux.HandleFunc("POST /table/{code}/hands/{i}", s.tableHandEdit)
	mux.HandleFunc("POST /table/{code}/hands/{i}/remove", s.tableHandRemove)
	mux.HandleFunc("POST /table/{code}/call-referee", s.tableCallReferee)
	mux.HandleFunc("GET /table/{code}/clock", s.tableClock)
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/print", s.requireSignedIn(s.printShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/print", s.requireSignedIn(s.printIssue))
	mux.HandleFunc("GET /tournaments/{tid}/tables/{t}/card", s.requireSignedIn(s.tableCardShow))
}
