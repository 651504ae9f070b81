package web

import "net/http"

// routesTable registers the table pages (UI.md §3 print row, §6).
func (s *Server) routesTable(mux *http.ServeMux) {
	mux.HandleFunc("GET /table", s.tableCodeShow)
	mux.HandleFunc("POST /table", s.tableCodeOpen)
	mux.HandleFunc("GET /table/{code}", allowWasm(s.withTableCode(s.tableShow)))
	mux.HandleFunc("GET /engine/{file}", s.engineShow)
	mux.HandleFunc("GET /table/manifest.webmanifest", s.tableManifestShow)
	mux.HandleFunc("GET /table/sw.js", s.tableWorkerShow)
	mux.HandleFunc("POST /table/{code}", allowWasm(s.withTableCode(s.tableHandAdd)))
	mux.HandleFunc("POST /table/{code}/confirm", allowWasm(s.withTableCode(s.tableConfirm)))
	mux.HandleFunc("POST /table/{code}/end", allowWasm(s.withTableCode(s.tableEnd)))
	mux.HandleFunc("POST /table/{code}/hands/{i}", allowWasm(s.withHandIndex(s.withTableCode(s.tableHandEdit))))
	mux.HandleFunc("POST /table/{code}/hands/{i}/remove", allowWasm(s.withHandIndex(s.withTableCode(s.tableHandRemove))))
	mux.HandleFunc("POST /table/{code}/call-referee", allowWasm(s.withTableCode(s.tableCallReferee)))
	mux.HandleFunc("GET /table/{code}/clock", s.tableClock)
	mux.HandleFunc("GET /tournaments/{tid}/rounds/{n}/print", s.requireSignedIn(s.printShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/print", s.requireSignedIn(s.printIssue))
	mux.HandleFunc("GET /tournaments/{tid}/tables/{t}/card", s.requireSignedIn(s.tableCardShow))
}
