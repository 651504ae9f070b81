package form

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
)

// A number typed at the table outside ±MaxScore is refused by its field
// (the API refuses the same), not stored: 99999999999 does not fit a
// score, nor the database's integer columns.
func TestTableHandRefusesAbsurdNumbers(t *testing.T) {
	for _, v := range []string{"100001", "-100001", "99999999999", "9223372036854775808"} {
		w, r := post(url.Values{"index": {"0"}, "hands.0.ns.base": {v}, "hands.0.ns.points": {"100"},
			"hands.0.eo.base": {"100"}, "hands.0.eo.points": {"100"}, "hands.0.eo.total": {v}})
		_, errs, err := ParseTableHand(w, r)
		if err != nil {
			t.Fatal(err)
		}
		if errs["hands.0.ns.base"] != "form.score_range" || errs["hands.0.eo.total"] != "form.score_range" {
			t.Errorf("%s: errors %v, want the base and the total named as out of range", v, errs)
		}
	}
	w, r := post(url.Values{"index": {"0"}, "hands.0.ns.base": {"100000"}, "hands.0.ns.points": {"-100000"},
		"hands.0.eo.base": {"0"}, "hands.0.eo.points": {"0"}})
	if f, errs, err := ParseTableHand(w, r); err != nil || len(errs) > 0 || f.Hand.Lines[domain.NS].Base != 100000 {
		t.Errorf("the bounds themselves: %+v %v %v", f.Hand, errs, err)
	}
}

// rawPost is a form post of body as it came, well formed or not.
func rawPost(body string) (*httptest.ResponseRecorder, *http.Request) {
	r := httptest.NewRequest("POST", "/", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return httptest.NewRecorder(), r
}

// FuzzParseTableHand: whatever a phone posts, the hand form never panics,
// and what it accepts is a hand of index 0..3 whose numbers are scores.
func FuzzParseTableHand(f *testing.F) {
	f.Add("index=0&hands.0.ns.base=300&hands.0.ns.points=200&hands.0.eo.base=100&hands.0.eo.points=150&hands.0.end=closed")
	f.Add("index=3&hands.3.ns.base=-50&hands.3.ns.points=0&hands.3.eo.base=x&hands.3.ns.total=%FF")
	f.Add("index=9&idem=k")
	f.Add("%zz")
	f.Fuzz(func(t *testing.T, body string) {
		h, errs, err := ParseTableHand(rawPost(body))
		if err != nil || len(errs) > 0 {
			return
		}
		if h.Index < 0 || h.Index > 3 {
			t.Fatalf("index %d accepted", h.Index)
		}
		for _, ls := range h.Hand.Lines {
			for _, v := range []int{ls.Base, ls.Points} {
				if v < -MaxScore || v > MaxScore {
					t.Fatalf("%d accepted", v)
				}
			}
			if ls.Total != nil && (*ls.Total < -MaxScore || *ls.Total > MaxScore) {
				t.Fatalf("total %d accepted", *ls.Total)
			}
		}
	})
}

// FuzzParseCorrection: the referee's correction form never panics, and
// every value it accepts is a named sheet figure within ±MaxScore.
func FuzzParseCorrection(f *testing.F) {
	f.Add("version=1&kind=sum&reason=x&hands.0.ns.total=500&written.eo.vp=7")
	f.Add("version=0&hands.0.ns.running_total=99999999999&written.ns.mp=")
	f.Add("version=2&hands.999.eo.base=1&hands.1000.eo.base=1&x.y=3")
	f.Fuzz(func(t *testing.T, body string) {
		c, _, err := ParseCorrection(rawPost(body))
		if err != nil {
			return
		}
		for name, v := range c.Values {
			if !valueName.MatchString(name) {
				t.Fatalf("value %q accepted under an unknown name", name)
			}
			if v != nil && (*v < -MaxScore || *v > MaxScore) {
				t.Fatalf("%s = %d accepted", name, *v)
			}
		}
	})
}
