package web

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/web/form"
)

// UI.md §5: the form's fields fill the JSON pointers they are named
// after; what cannot be read is named; hands count up to the last typed.
func TestSheetParts(t *testing.T) {
	v := sheetValues{
		"hands.0.ns.base": "300", "hands.0.ns.points": "200", "hands.0.ns.total": "600",
		"hands.0.eo.base": "100", "hands.0.eo.points": "-50", "hands.0.end": "closed",
		"hands.1.ns.base": "x",
		"written.eo.vp":   "7",
	}
	hands, written, errs := v.sheetParts(domain.Italian, 3, true)
	if len(hands) != 2 {
		t.Fatalf("%d hands, want 2 (up to the last typed)", len(hands))
	}
	h := hands[0]
	if h.Lines[0].Base != 300 || h.Lines[0].Points != 200 || *h.Lines[0].Total != 600 || h.Lines[1].Points != -50 || h.Lines[1].Total != nil || h.End != domain.EndClosed {
		t.Errorf("hand 1: %+v", h)
	}
	if written[1].VP == nil || *written[1].VP != 7 || written[0].VP != nil {
		t.Errorf("written: %+v", written)
	}
	for _, f := range []string{"hands.1.ns.base", "hands.1.ns.points", "hands.1.eo.base", "hands.1.eo.points"} {
		if !errs.Has(f) {
			t.Errorf("no error on %s: %v", f, errs)
		}
	}
	if _, _, errs := v.sheetParts(domain.Italian, 3, false); errs.Has("hands.1.ns.points") || !errs.Has("hands.1.ns.base") {
		t.Errorf("while typing, missing fields are not errors but unreadable ones are: %v", errs)
	}
	if got := fieldName(domain.HandPointer(1, domain.NS, "total")); got != "hands.0.ns.total" {
		t.Errorf("field of /hands/0/ns/total: %q", got)
	}
}

func TestParseEntrantRows(t *testing.T) {
	rows, err := parseEntrantCells(splitPasted("Numero;Nome;Tessera\n\n12; Rossi Anna ;FT1;Bianchi Luca;FT2\r\n13;Solo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Line != 3 || rows[0].Input.ID != "12" || rows[0].Input.Players[0].Name != "Rossi Anna" || rows[0].Input.Players[1].Membership != "FT2" {
		t.Fatalf("rows: %+v", rows)
	}
	if rows[1].Line != 4 || len(rows[1].Input.Players) != 1 || rows[1].Input.Players[0].Membership != "" {
		t.Errorf("row 4: %+v", rows[1])
	}
}

// The secretary's sheet form and the table page's hand form read a hand's
// end the same way, as the JSON sheet does (API §1): empty is unknown —
// no form guesses a closure — and a value that is no end is refused.
func TestBothHandFormsReadTheEndAlike(t *testing.T) {
	cases := []struct {
		typed string
		want  domain.HandEnd
		ok    bool
	}{
		{"", domain.EndUnknown, true},
		{"closed", domain.EndClosed, true},
		{"stock_exhausted", domain.EndStockExhausted, true},
		{"time_out", domain.EndTimeOut, true},
		{"stall", domain.EndStall, true},
		{"interrupted", domain.EndInterrupted, true},
		{"chiusa", "", false},
	}
	for _, c := range cases {
		t.Run(c.typed, func(t *testing.T) {
			v := sheetValues{"hands.0.ns.base": "0", "hands.0.ns.points": "0", "hands.0.eo.base": "0", "hands.0.eo.points": "0", "hands.0.end": c.typed}
			hands, _, errs := v.sheetParts(domain.Italian, 1, true)
			if errs.Has("hands.0.end") == c.ok {
				t.Errorf("sheet form: end %q refused = %v, want %v", c.typed, errs.Has("hands.0.end"), !c.ok)
			}
			if c.ok && hands[0].End != c.want {
				t.Errorf("sheet form: end %q read as %q, want %q", c.typed, hands[0].End, c.want)
			}

			body := url.Values{"index": {"0"}, "hands.0.end": {c.typed},
				"hands.0.ns.base": {"0"}, "hands.0.ns.points": {"0"}, "hands.0.eo.base": {"0"}, "hands.0.eo.points": {"0"}}
			r := httptest.NewRequest("POST", "/", strings.NewReader(body.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			f, ferrs, err := form.ParseTableHand(httptest.NewRecorder(), r)
			if err != nil {
				t.Fatal(err)
			}
			_, refused := ferrs["hands.0.end"]
			if refused == c.ok {
				t.Errorf("table form: end %q refused = %v, want %v", c.typed, refused, !c.ok)
			}
			if c.ok && f.Hand.End != c.want {
				t.Errorf("table form: end %q read as %q, want %q", c.typed, f.Hand.End, c.want)
			}
		})
	}
}
