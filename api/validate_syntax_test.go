package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// TestValidateSyntaxIs400: /v1/validate has no
// json.Valid pre-pass; the sheet decoder's own syntax error is the 400,
// invalid UTF-8 included (json.Valid accepted it, which made it a 422). A
// well-formed body of the wrong shape stays a 422.
func TestValidateSyntaxIs400(t *testing.T) {
	t.Parallel()
	e := newEnv(t, nil)
	sheet := goodSheet()
	sheet["ruleset"], sheet["hands_planned"] = "fitab-2025", 3
	good, err := json.Marshal(sheet)
	if err != nil {
		t.Fatal(err)
	}
	// Over streamAbove: decoded one sheet at a time.
	big := `{"sheets": [` + strings.Repeat(string(good)+",", 1+streamAbove/len(good)) + `{"ruleset": "citt` + "\xe0" + `"}]}`
	last := fmt.Sprintf("/sheets/%d/ruleset", 1+streamAbove/len(good))
	cases := []struct {
		name, body string
		status     int
		pointer    string
	}{
		{"invalid UTF-8 in a sheet", "{\"ruleset\": \"fitab-2025\", \"tournament\": \"Citt\xe0\"}", http.StatusBadRequest, ""},
		{"invalid UTF-8 in a batch", "{\"sheets\": [{\"tournament\": \"Citt\xe0\"}]}", http.StatusBadRequest, ""},
		{"invalid UTF-8 in a streamed batch", big, http.StatusBadRequest, last},
		{"truncated", `{"ruleset": "fitab-2025",`, http.StatusBadRequest, ""},
		{"empty", "", http.StatusBadRequest, ""},
		{"trailing data", string(good) + ` {}`, http.StatusBadRequest, ""},
		{"deep array", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), http.StatusBadRequest, ""},
		{"an array, well formed", `[1, 2]`, http.StatusUnprocessableEntity, ""},
		{"unknown field", `{"ruleset": "fitab-2025", "hands_planned": 3, "hands": [], "tabel": 1}`, http.StatusUnprocessableEntity, "/tabel"},
		{"duplicate field", `{"ruleset": "fitab-2025", "ruleset": "fitab-2025", "hands_planned": 3, "hands": []}`, http.StatusUnprocessableEntity, "/ruleset"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := wantProblem(t, e.do(request{method: "POST", path: "/v1/validate", body: tc.body}), tc.status, tc.pointer)
			if p.Detail == "" {
				t.Error("no detail")
			}
		})
	}
}
