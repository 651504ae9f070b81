package api

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
)

// benchSheet is a three-hand sheet with breakdowns and written results.
var benchSheet = []byte(`{"ruleset":"fitab-2025","hands_planned":3,"round":2,"table":7,
 "ns":{"id":"12","players":["Rossi Anna","Bianchi Luca"]},"eo":{"id":"5","players":["Verdi Carla","Neri Paolo"]},
 "hands":[
  {"end":"closed","ns":{"base":300,"points":235,"total":535,"burrachi":{"pulito":1},"closed":true,"pozzetto":"taken"},
   "eo":{"base":100,"points":-120,"total":-20,"burrachi":{"sporco":1},"pozzetto":"taken"}},
  {"end":"closed","ns":{"base":0,"points":-55,"total":-55},"eo":{"base":400,"points":180,"total":580}},
  {"end":"closed","ns":{"base":350,"points":120,"total":470},"eo":{"base":200,"points":65,"total":265}}],
 "written":{"ns":{"total":950,"mp":125,"vp":11},"eo":{"total":825,"mp":-125,"vp":9}}}`)

// BenchmarkValidateRequest is POST /v1/validate in process, without the
// network: what the service spends per request.
// "nolog" discards before formatting; "servelog" is serve's logger (JSON
// at INFO) writing to io.Discard: the request log's cost (issue 26).
func BenchmarkValidateRequest(b *testing.B) {
	for _, c := range []struct {
		name string
		log  *slog.Logger
	}{
		{"nolog", slog.New(slog.DiscardHandler)},
		{"servelog", slog.New(slog.NewJSONHandler(io.Discard, nil))},
	} {
		b.Run(c.name, func(b *testing.B) {
			h := NewServer(Config{}, nil, c.log)
			b.ReportAllocs()
			for b.Loop() {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/validate", bytes.NewReader(benchSheet)))
				if rec.Code != http.StatusOK {
					b.Fatalf("%d %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

func BenchmarkValidateParts(b *testing.B) {
	sheets, _, err := sheetjson.Decode(benchSheet)
	if err != nil {
		b.Fatal(err)
	}
	rep := domain.Validate(sheets[0])
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			_, _, _ = sheetjson.Decode(benchSheet)
		}
	})
	b.Run("validate", func(b *testing.B) {
		for b.Loop() {
			domain.Validate(sheets[0])
		}
	})
	b.Run("marshal", func(b *testing.B) {
		for b.Loop() {
			_, _ = reportjson.Marshal(rep, domain.English)
		}
	})
	b.Run("parseJSON", func(b *testing.B) {
		for b.Loop() {
			_, _ = parseJSON(benchSheet)
		}
	})
}
