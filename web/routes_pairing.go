package web

import "net/http"

// routesPairing: the "genera turno" page (web/pairing_generate.go). Who
// may generate and publish is app's decision (Access.Judge).
func (s *Server) routesPairing(mux *http.ServeMux) {
	mux.HandleFunc("GET /tournaments/{tid}/rounds/generate", s.requireSignedIn(s.pairingShow))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/generate", s.requireSignedIn(s.pairingGenerate))
	mux.HandleFunc("POST /tournaments/{tid}/rounds/{n}/publish", s.requireSignedIn(s.pairingPublish))
}
