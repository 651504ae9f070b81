package reportjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Report is API §2 as a client reads it back: plain values, no domain
// types. Decode fills it.
type Report struct {
	OK       bool      `json:"ok"`
	Ruleset  string    `json:"ruleset"`
	VPTable  string    `json:"vp_table"` // "" when the report has none (null)
	Computed Computed  `json:"computed"`
	Findings []Finding `json:"findings"`
	Counts   Counts    `json:"counts"`
}

// Computed is what the sheet should say.
type Computed struct {
	Hands []ComputedHand `json:"hands"`
	NS    LineResult     `json:"ns"`
	EO    LineResult     `json:"eo"`
}

// ComputedHand is one hand's totals per line.
type ComputedHand struct {
	NS HandTotals `json:"ns"`
	EO HandTotals `json:"eo"`
}

// HandTotals is one line's total and running total after a hand.
type HandTotals struct {
	Total        int `json:"total"`
	RunningTotal int `json:"running_total"`
}

// LineResult is a line's match result.
type LineResult struct {
	Total int `json:"total"`
	MP    int `json:"mp"`
	VP    int `json:"vp"`
}

// Finding is one finding; Hand is 0, Line "" and Written, Expected nil when
// the JSON leaves them out.
type Finding struct {
	Code     string `json:"code"`
	Severity string `json:"severity"`
	Hand     int    `json:"hand,omitempty"`
	Line     string `json:"line,omitempty"`
	Field    string `json:"field"`
	Written  *int   `json:"written,omitempty"`
	Expected *int   `json:"expected,omitempty"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
	Pointer  string `json:"pointer,omitempty"`
	Cell     string `json:"cell,omitempty"`
}

// Counts is the number of findings by severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Decode reads one report. Unknown fields, wrong types and data after the
// report are errors.
func Decode(data []byte) (Report, error) {
	var r Report
	err := decodeStrict(data, &r)
	return r, err
}

// DecodeBatch reads a batch report {"reports": [...]}.
func DecodeBatch(data []byte) ([]Report, error) {
	var b struct {
		Reports *[]Report `json:"reports"`
	}
	if err := decodeStrict(data, &b); err != nil {
		return nil, err
	}
	if b.Reports == nil {
		return nil, errors.New(`reportjson: not a batch report: no "reports" array`)
	}
	return *b.Reports, nil
}

func decodeStrict(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("reportjson: %w", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return errors.New("reportjson: data after the report")
	}
	return nil
}
