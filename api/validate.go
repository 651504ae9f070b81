package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/gin-gonic/gin"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/messages"
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
	reports, batch, err := s.validateSheets(body)
	if err != nil {
		s.fail(c, syntaxAs400(err))
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
		m := messages.New("api.batch_max", s.cfg.MaxBatchSheets)
		return errInvalid(m, fieldMsg(fieldError{Pointer: "/sheets"}, m))
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

// syntaxAs400 makes the decoder's error for a body that is not JSON at
// all a 400; a well-formed body of the wrong shape stays a 422. There is
// no pre-pass over the body (issue 11): the decoder finds both in one
// read, and reports the first problem in the order of the body.
func syntaxAs400(err error) error {
	var se *sheetjson.Error
	if errors.As(err, &se) && se.Syntax {
		if se.Line == 0 || se.Reason == "" { // an empty or unreadable body: English only
			f := sheetField(se.Pointer, se)
			if se.Pointer != "" {
				return errMalformed(messages.New("api.field", se.Pointer, f.detailArg()), f)
			}
			return errMalformed(f.detailArg())
		}
		m := syntaxMsg(se)
		if se.Pointer != "" {
			return errMalformed(messages.New("api.field", se.Pointer, m), fieldMsg(fieldError{Pointer: se.Pointer}, m))
		}
		return errMalformed(m)
	}
	return err
}

// langOnly reads the query of a route whose only parameter is lang: ?lang=
// (en or it) when given, otherwise the language Accept-Language prefers.
func langOnly(c *gin.Context) (domain.Lang, error) {
	if c.Request.URL.RawQuery == "" {
		return langOf(c), nil // the header's, as negotiateLang read it
	}
	q := c.Request.URL.Query()
	if err := onlyParams(q, "lang"); err != nil {
		return "", err
	}
	if q.Has("lang") {
		return langParam(q)
	}
	return headerLang(c.GetHeader("Accept-Language")), nil
}

// syntaxMsg is a sheet's syntax error from the catalogue: where, and why
// (the decoder's own words, in English, unless the document ends early).
func syntaxMsg(se *sheetjson.Error) messages.M {
	if se.Reason == "unexpected end of input" {
		return messages.New("api.json_eof_at", se.Line, se.Column)
	}
	return messages.New("api.json_at", se.Line, se.Column, se.Reason)
}
