package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/importers/sheetjson"
	"segnapunti/web/wasm"
)

// The table page's offline parts: the rules engine compiled to
// WebAssembly, the service worker that keeps the page, its scripts and the
// engine on the phone, and the web-app manifest.

// EngineURL is the engine's address: its content's hash is in the name, so
// it is cached for good and a new engine is a new URL.
func EngineURL() string { return "/engine/" + wasm.Version() + ".wasm" }

// engineShow: GET /engine/{file} — the engine, gzip-compressed as it is
// stored when the browser accepts gzip (every browser that runs
// WebAssembly does), uncompressed otherwise.
func (s *Server) engineShow(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("file") != wasm.Version()+".wasm" {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/wasm")
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Add("Vary", "Accept-Encoding")
	body := wasm.Gzip()
	if acceptsGzip(r) {
		// Set before the gzip middleware looks: it leaves an encoded body
		// alone.
		h.Set("Content-Encoding", "gzip")
	} else {
		plain, err := wasm.Plain()
		if err != nil {
			s.serverError(w, r, err)
			return
		}
		body = plain
	}
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
}

// tableCSP is the pages' Content-Security-Policy (securityHeaders) with
// 'wasm-unsafe-eval': the table page may compile the rules engine, and
// still runs no script but its own files.
const tableCSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'; form-action 'self'; manifest-src 'self'; worker-src 'self'"

// allowWasm lets the table pages compile WebAssembly.
func allowWasm(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", tableCSP)
		h(w, r)
	}
}

// engineSheet is the table's sheet so far as API §1 JSON for the engine:
// the stored sheet, or the empty sheet the first hand will be added to
// ("hands": [], which API §1 refuses on its own: the page always adds the
// hand being typed); "" when it cannot be written (the page then checks
// nothing locally).
func engineSheet(v app.TableView) string {
	if v.Sheet != nil {
		b, err := sheetjson.Encode(*v.Sheet)
		if err != nil {
			return ""
		}
		return string(b)
	}
	sh := v.Target.EmptySheet()
	sh.Hands = []domain.Hand{{}} // Encode writes only sheets Decode reads
	b, err := sheetjson.Encode(sh)
	if err != nil {
		return ""
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return ""
	}
	m["hands"] = json.RawMessage("[]")
	if b, err = json.Marshal(m); err != nil {
		return ""
	}
	return string(b)
}

// acceptsGzip: Accept-Encoding names gzip (or *) without q=0.
func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name != "gzip" && name != "*" {
			continue
		}
		q := strings.ReplaceAll(strings.ToLower(params), " ", "")
		if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
			return false
		}
		return true
	}
	return false
}

// tableWorkerShow: GET /table/sw.js — the service worker. It is served
// from /table/ so that its scope covers every /table/{code} page, and is
// never cached by HTTP: the browser checks it for updates on each visit.
func (s *Server) tableWorkerShow(w http.ResponseWriter, r *http.Request) {
	b, err := staticFS.ReadFile("static/table-sw.js")
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// tableManifestShow: GET /table/manifest.webmanifest — the web-app
// manifest that lets players put the table page on the home screen;
// ?start={code} makes the icon open that table's page.
func (s *Server) tableManifestShow(w http.ResponseWriter, r *http.Request) {
	start := "/table"
	if c := r.URL.Query().Get("start"); manifestCode.MatchString(c) {
		start = "/table/" + c
	}
	name := "Segnapunti · Table"
	if langOf(r) == domain.Italian {
		name = "Segnapunti · Tavolo"
	}
	b, err := json.Marshal(map[string]string{
		"name": name, "short_name": "Segnapunti", "start_url": start, "scope": "/table",
		"display": "standalone", "background_color": "#ffffff", "theme_color": "#1f5130",
	})
	if err != nil {
		s.serverError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/manifest+json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// manifestCode is what a table code may look like in the manifest's
// start_url: letters, digits, - and _ (long links and short codes).
var manifestCode = regexp.MustCompile(`^[A-Za-z0-9_-]{1,200}$`)
