package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
)

// validate answers POST /v1/validate (API §4): a sheet gives its report, a
// batch {"sheets": [...]} gives {"reports": [...]} in input order. Nothing
// is stored and no token is needed.
func (s *server) validate(c *gin.Context) {
	lang, err := langOnly(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	body, err := readBody(c, s.cfg.MaxValidateBytes)
	if err != nil {
		s.fail(c, err)
		return
	}
	// One parse on the way that succeeds: the sheet decoder reads the
	// body; only when it refuses it is the body checked for plain JSON
	// syntax (400) before the decoder's 422 is answered.
	reports, batch, err := s.validateSheets(body)
	if err != nil {
		if synErr := checkJSONSyntax(body); synErr != nil {
			err = synErr
		}
		s.fail(c, err)
		return
	}
	var out []byte
	if batch {
		out, err = reportjson.MarshalBatch(reports, lang)
	} else {
		out, err = reportjson.Marshal(reports[0], lang)
	}
	if err != nil {
		s.fail(c, fmt.Errorf("encode report: %w", err))
		return
	}
	writeJSON(c, http.StatusOK, out)
}

// streamAbove is the body size from which sheets are decoded one at a time
// rather than all at once: below it, decoding whole is faster (no read
// buffer); above it, a body of thousands of tiny sheets never becomes
// thousands of sheets in memory.
const streamAbove = 256 << 10

// validateSheets decodes and validates the sheets of a body, refusing more
// than MaxBatchSheets.
func (s *server) validateSheets(body []byte) ([]domain.Report, bool, error) {
	tooMany := func() error {
		detail := fmt.Sprintf("a batch holds at most %d sheets", s.cfg.MaxBatchSheets)
		return errInvalid(detail, fieldError{Pointer: "/sheets", Detail: detail})
	}
	if len(body) <= streamAbove {
		sheets, batch, err := sheetjson.Decode(body)
		if err != nil {
			return nil, false, err
		}
		if len(sheets) > s.cfg.MaxBatchSheets {
			return nil, false, tooMany()
		}
		reports := make([]domain.Report, len(sheets))
		for i, sh := range sheets {
			reports[i] = domain.Validate(sh)
		}
		return reports, batch, nil
	}
	dec := sheetjson.NewDecoder(bytes.NewReader(body))
	var reports []domain.Report
	for {
		sh, err := dec.Next()
		if err == io.EOF {
			return reports, dec.Batch(), nil
		}
		if err != nil {
			return nil, false, err
		}
		if len(reports) == s.cfg.MaxBatchSheets {
			return nil, false, tooMany()
		}
		reports = append(reports, domain.Validate(sh))
	}
}

// checkJSONSyntax answers 400 for a body that is not JSON at all, so that
// what the sheet decoder refuses afterwards is a document of the wrong shape
// (422).
func checkJSONSyntax(body []byte) error {
	if json.Valid(body) {
		return nil
	}
	if _, err := parseJSON(body); err != nil {
		return err
	}
	return errMalformed("malformed JSON")
}

// langOnly reads the query of a route whose only parameter is lang.
func langOnly(c *gin.Context) (domain.Lang, error) {
	q := c.Request.URL.Query()
	if err := onlyParams(q, "lang"); err != nil {
		return "", err
	}
	return langParam(q)
}
