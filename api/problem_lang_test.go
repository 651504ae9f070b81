package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// Problem titles and details in Italian when Accept-Language
// (or a documented ?lang=) prefers Italian, English otherwise; type and
// what the errors point at never change.
func TestProblemLanguage(t *testing.T) {
	t.Parallel()
	w := newWorld(t, backend{db: dbtest.SQLite(t)})
	sheet := w.sheetPath(1, 1)
	cases := []struct {
		name   string
		rq     request
		status int
		// en and it are a part of the detail in each language.
		en, it string
	}{
		{"no route", request{method: "GET", path: "/v1/nope"}, 404, "no route GET /v1/nope", "nessun indirizzo GET /v1/nope"},
		{"unauthorized", request{method: "GET", path: "/v1/tournaments"}, 401, "this route needs a token", "questo indirizzo richiede un token"},
		{"not found", request{method: "GET", path: "/v1/tournaments/zzz", token: w.admin}, 404, `no tournament "zzz"`, `nessun torneo "zzz"`},
		{"method", request{method: "DELETE", path: "/v1/rulesets"}, 405, "DELETE is not allowed here", "il metodo DELETE non è consentito qui"},
		{"media type", request{method: "POST", path: "/v1/validate", body: "{}", header: map[string]string{"Content-Type": "text/plain"}}, 415,
			`the body must be application/json, not "text/plain"`, `il corpo deve essere application/json, non "text/plain"`},
		{"malformed JSON", request{method: "POST", path: "/v1/validate", body: "{"}, 400, "malformed JSON at line 1, column 2", "JSON malformato alla riga 1, colonna 2: il documento finisce troppo presto"},
		{"malformed JSON body", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: `{"name": 1,}`}, 400, "malformed JSON at byte", "JSON malformato al byte"},
		{"unknown query", request{method: "GET", path: "/v1/vp?bogus=1"}, 400, `unknown query parameter "bogus"`, `parametro di query sconosciuto "bogus"`},
		{"forbidden", request{method: "PUT", path: sheet, token: w.ref1, body: goodSheet()}, 403, "only the organising club or an admin enters sheets", "solo il club organizzatore o un amministratore inserisce i fogli"},
		{"forbidden action", request{method: "POST", path: "/v1/tournaments/" + w.tid + "/entrants", token: w.ref1, body: map[string]any{"entrants": []any{}}}, 403,
			"only the organising club or an admin enters entrants", "solo il club organizzatore o un amministratore iscrive i partecipanti"},
		{"conflict", request{method: "POST", path: "/v1/tournaments/" + w.tid + "/rounds", token: w.club1, body: map[string]any{
			"number": 1, "phase": "mitchell", "tables": []map[string]any{{"table": 1, "ns": "1", "eo": "3"}, {"table": 2, "ns": "2", "eo": "4"}}}}, 409,
			"round 1 exists already", "il turno 1 esiste già"},
		{"precondition", request{method: "PUT", path: sheet, token: w.club1, body: goodSheet(), header: map[string]string{"If-Match": `"7"`}}, 412,
			"the sheet has changed since you read it", "il foglio è cambiato da quando è stato letto"},
		{"too large", request{method: "POST", path: "/v1/rulings", body: strings.Repeat(" ", defaultMaxBodyBytes+1)}, 413,
			"larger than the limit of", "supera il limite di"},
		// A JSON type error names the field, in Italian too.
		{"JSON type", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: `{"name": 1}`}, 422,
			"/name: want a string, got a number", "/name: attesa una stringa, trovato un numero"},
		{"unknown field", request{method: "POST", path: "/v1/tournaments", token: w.club1, body: `{"nome": "x"}`}, 422,
			`unknown field "nome"`, `campo sconosciuto "nome"`},
		// A field an operation refuses, and a sheet's value the decoder
		// refuses, are worded from the catalogue too.
		{"operation's field", request{method: "POST", path: "/v1/tournaments/" + w.tid + "/entrants", token: w.club1, body: map[string]any{
			"entrants": []any{map[string]any{"id": "1", "players": []any{map[string]any{"name": "Anna"}, map[string]any{"name": "Bruno"}}}}}}, 422,
			`/entrants/0/id: entrant "1" is already entered`, `/entrants/0/id: l'iscritto "1" è già iscritto al torneo`},
		{"sheet's value", request{method: "POST", path: "/v1/validate", body: `{"ruleset": "fitab-2025", "hands_planned": 7, "hands": []}`}, 422,
			"/hands_planned: hands_planned must be 2, 3 or 4, not 7", "/hands_planned: hands_planned deve essere 2, 3 o 4, non 7"},
	}
	langs := []struct {
		name, header string
		italian      bool
	}{
		{"none", "", false},
		{"en", "en", false},
		{"it", "it", true},
		{"it-IT browser", "it-IT,it;q=0.9,en;q=0.8", true},
		{"en before it", "en-GB,it;q=0.5", false},
		{"fr", "fr", false},
	}
	for _, c := range cases {
		var english problem
		for _, l := range langs {
			rq := c.rq
			rq.header = map[string]string{}
			for k, v := range c.rq.header {
				rq.header[k] = v
			}
			if l.header != "" {
				rq.header["Accept-Language"] = l.header
			}
			r := w.do(rq)
			p := wantProblem(t, r, c.status, "")
			title, part := titleFor(c.status), c.en
			if l.italian {
				title, part = titleIn(domain.Italian, c.status), c.it
			}
			if p.Title != title || !strings.Contains(p.Detail, part) {
				t.Errorf("%s, Accept-Language %s: title %q detail %q; want title %q and a detail with %q", c.name, l.name, p.Title, p.Detail, title, part)
			}
			if l.name == "none" {
				english = p
				continue
			}
			if p.Type != english.Type || len(p.Errors) != len(english.Errors) {
				t.Errorf("%s, %s: type %q errors %v; English has %q %v", c.name, l.name, p.Type, p.Errors, english.Type, english.Errors)
				continue
			}
			for i, e := range p.Errors {
				ee := english.Errors[i]
				if e.Pointer != ee.Pointer || e.Parameter != ee.Parameter || e.Header != ee.Header || e.Cell != ee.Cell {
					t.Errorf("%s, %s: error %d points at %+v, English at %+v", c.name, l.name, i, e, ee)
				}
			}
		}
	}
	// A field error's detail is translated as the detail is.
	r := w.do(request{method: "GET", path: "/v1/vp?bogus=1", header: map[string]string{"Accept-Language": "it"}})
	p := wantProblem(t, r, 400, "bogus")
	if len(p.Errors) != 1 || p.Errors[0].Detail != `parametro di query sconosciuto "bogus"` {
		t.Errorf("field errors %+v, want the Italian detail", p.Errors)
	}
	if !strings.Contains(r.header.Get("Vary"), "Accept-Language") {
		t.Errorf("Vary %q, want Accept-Language", r.header.Get("Vary"))
	}

	// Round closed: after delivering the round's sheets.
	w.fillSheets(w.tid, 1)
	r = w.do(request{method: "PATCH", path: "/v1/tournaments/" + w.tid + "/rounds/1", token: w.ref1, body: map[string]any{"state": "sheets_delivered"}})
	wantStatus(t, r, http.StatusOK, "deliver round 1")
	for _, l := range []string{"", "it"} {
		r = w.do(request{method: "PUT", path: sheet, token: w.club1, body: goodSheet(), header: map[string]string{"Accept-Language": l}})
		p = wantProblem(t, r, http.StatusConflict, "")
		want := "round 1 is sheets_delivered: its sheets are final"
		if l == "it" {
			want = "il turno 1 è con i fogli consegnati: i suoi fogli sono definitivi"
		}
		if p.Type != typeRoundClosed || !strings.Contains(p.Detail, want) {
			t.Errorf("round closed, Accept-Language %q: %s %q, want %s with %q", l, p.Type, p.Detail, typeRoundClosed, want)
		}
	}
}

// ?lang= decides on a route that documents it, before Accept-Language;
// a route that does not document it refuses it (in the header's language).
func TestProblemLanguageQuery(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	r := e.do(request{method: "POST", path: "/v1/validate?lang=it", body: "{"})
	if p := wantProblem(t, r, 400, ""); p.Title != titleIn(domain.Italian, 400) || !strings.HasPrefix(p.Detail, "JSON malformato") {
		t.Errorf("?lang=it: %q %q, want Italian", p.Title, p.Detail)
	}
	r = e.do(request{method: "POST", path: "/v1/validate?lang=en", body: "{", header: map[string]string{"Accept-Language": "it"}})
	if p := wantProblem(t, r, 400, ""); p.Title != titleFor(400) || !strings.HasPrefix(p.Detail, "malformed JSON") {
		t.Errorf("?lang=en over Accept-Language it: %q %q, want English", p.Title, p.Detail)
	}
	r = e.do(request{method: "GET", path: "/v1/vp?lang=it"})
	if p := wantProblem(t, r, 400, "lang"); p.Title != titleFor(400) {
		t.Errorf("undocumented ?lang=it: title %q, want English", p.Title)
	}
}

// POST /v1/validate: the report's messages follow Accept-Language when
// ?lang= is absent.
func TestValidateAcceptLanguage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, dbtest.SQLite(t))
	bad := goodSheet()
	bad["ruleset"] = "fitab-2025"
	bad["hands_planned"] = 3
	bad["written"] = map[string]any{
		"ns": map[string]any{"total": 951, "mp": 125, "vp": 11},
		"eo": map[string]any{"total": 825, "mp": -125, "vp": 9},
	}
	messages := func(header map[string]string, query string) []string {
		r := e.do(request{method: "POST", path: "/v1/validate" + query, body: bad, header: header})
		wantStatus(t, r, http.StatusOK, "validate")
		var rep struct {
			Findings []struct {
				Message string `json:"message"`
			} `json:"findings"`
		}
		if err := json.Unmarshal(r.body, &rep); err != nil || len(rep.Findings) == 0 {
			t.Fatalf("report %s: %v", r.body, err)
		}
		var out []string
		for _, f := range rep.Findings {
			out = append(out, f.Message)
		}
		return out
	}
	en := messages(nil, "")
	itHeader := messages(map[string]string{"Accept-Language": "it-IT,it;q=0.9"}, "")
	itQuery := messages(nil, "?lang=it")
	enQuery := messages(map[string]string{"Accept-Language": "it"}, "?lang=en")
	if strings.Join(itHeader, "|") != strings.Join(itQuery, "|") {
		t.Errorf("Accept-Language it %q differs from ?lang=it %q", itHeader, itQuery)
	}
	if strings.Join(itHeader, "|") == strings.Join(en, "|") {
		t.Errorf("Accept-Language it gives the English messages %q", en)
	}
	if strings.Join(enQuery, "|") != strings.Join(en, "|") {
		t.Errorf("?lang=en with Accept-Language it: %q, want English %q", enQuery, en)
	}
}
