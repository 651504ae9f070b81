// Package engine is the rules engine the phone runs: a sheet of
// API §1 in, the report of API §2 out, through the very functions
// POST /v1/validate and `segnapunti validate` use (sheetjson.Decode,
// domain.Validate, reportjson). It imports nothing that cannot be compiled
// to WebAssembly, so cmd/engine-wasm can carry it to the browser with the
// same findings and the same words as the server.
package engine

import (
	"errors"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
)

// Check validates a sheet, or a batch {"sheets": [...]}, and returns its
// report (a batch: {"reports": [...]} in input order) worded in lang; a
// language other than "it" is English, as on the server. A document that
// is not a sheet gives the decoder's *sheetjson.Error.
func Check(body []byte, lang string) ([]byte, error) {
	l := domain.English
	if lang == string(domain.Italian) {
		l = domain.Italian
	}
	sheets, batch, err := sheetjson.Decode(body)
	if err != nil {
		return nil, err
	}
	reports := make([]domain.Report, len(sheets))
	for i, s := range sheets {
		reports[i] = domain.Validate(s)
	}
	if batch {
		return reportjson.MarshalBatch(reports, l)
	}
	if len(reports) != 1 {
		return nil, errors.New("engine: the document holds no sheet")
	}
	return reportjson.Marshal(reports[0], l)
}
