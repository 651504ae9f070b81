package browsertest

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"regexp"
	"segnapunti/web"
	"strings"
	"testing"

	"segnapunti/importers/sheetjson"
	"segnapunti/web/wasm"
)

// rawGet fetches path with the given Accept-Encoding and returns the
// response with its body as sent (no transparent decompression).
func rawGet(t *testing.T, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	res, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

// The engine is served precompressed to a browser that accepts
// gzip, plain to one that does not, cached for good under its hash; the
// service worker and the manifest are served for the /table/ scope; the
// table page may compile WebAssembly and carries the engine's URL and the
// sheet so far.
func TestTableOfflineServing(t *testing.T) {
	site, club, tid, code := sqliteTable(t)

	plain, err := wasm.Plain()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, accept string
		gz           bool
	}{
		{"gzip", "gzip, deflate, br", true},
		{"any", "*", true},
		{"none", "", false},
		{"gzip refused", "gzip;q=0, identity", false},
	} {
		t.Run("engine "+tc.name, func(t *testing.T) {
			res, body := rawGet(t, site.URL+web.EngineURL(), tc.accept)
			if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/wasm" || !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
				t.Fatalf("status %d, headers %v", res.StatusCode, res.Header)
			}
			want, enc := plain, ""
			if tc.gz {
				want, enc = wasm.Gzip(), "gzip"
			}
			if res.Header.Get("Content-Encoding") != enc || !bytes.Equal(body, want) {
				t.Errorf("Content-Encoding %q, %d bytes; want %q, %d bytes", res.Header.Get("Content-Encoding"), len(body), enc, len(want))
			}
		})
	}
	t.Logf("engine: %d bytes, %d gzip", len(plain), len(wasm.Gzip()))
	if res, _ := rawGet(t, site.URL+"/engine/000000000000.wasm", "gzip"); res.StatusCode != 404 {
		t.Errorf("an engine of another version: %d, want 404", res.StatusCode)
	}

	res, body := rawGet(t, site.URL+"/table/sw.js", "")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/javascript") || res.Header.Get("Cache-Control") != "no-cache" || !bytes.Contains(body, []byte(`addEventListener("fetch"`)) {
		t.Errorf("service worker: %d %v", res.StatusCode, res.Header)
	}
	for start, want := range map[string]string{code: "/table/" + code, "": "/table", `"><script>`: "/table"} {
		res, body := rawGet(t, site.URL+"/table/manifest.webmanifest?start="+strings.ReplaceAll(start, " ", "%20"), "")
		var m map[string]string
		if err := json.Unmarshal(body, &m); err != nil || res.StatusCode != 200 || m["start_url"] != want || m["scope"] != "/table" || m["display"] != "standalone" {
			t.Errorf("manifest for %q: %d %s", start, res.StatusCode, body)
		}
	}

	sheetOf := func() (string, []byte) {
		res, body := rawGet(t, site.URL+"/table/"+code, "")
		if res.StatusCode != 200 {
			t.Fatalf("table page: %d", res.StatusCode)
		}
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self' 'wasm-unsafe-eval';") {
			t.Errorf("table page CSP %q does not let the engine compile", csp)
		}
		m := regexp.MustCompile(`data-sheet="([^"]*)"`).FindSubmatch(body)
		if m == nil || !bytes.Contains(body, []byte(`data-engine="`+web.EngineURL()+`"`)) {
			t.Fatalf("the page lacks the engine or the sheet")
		}
		return csp, []byte(html.UnescapeString(string(m[1])))
	}
	// No hand yet: the sheet the first hand goes into, "hands": [] (the
	// page adds the typed hand before checking).
	_, raw := sheetOf()
	var empty map[string]any
	if err := json.Unmarshal(raw, &empty); err != nil || len(empty["hands"].([]any)) != 0 {
		t.Fatalf("the empty sheet %s: %v", raw, err)
	}
	empty["hands"] = []any{map[string]any{"ns": map[string]any{"base": 0, "points": 0}, "eo": map[string]any{"base": 0, "points": 0}}}
	withHand, _ := json.Marshal(empty)
	sheets, _, err := sheetjson.Decode(withHand)
	if err != nil || len(sheets) != 1 || sheets[0].Ruleset != "fitab-2025" || sheets[0].HandsPlanned != 3 || sheets[0].Sides[0].ID != "1" || sheets[0].Sides[1].ID != "3" {
		t.Fatalf("the empty sheet %s: %v %+v", raw, err, sheets)
	}
	apiCall(t, site, "POST", "/v1/tournaments/"+tid+"/rounds/1/tables/1/sheet/hands", club,
		map[string]any{"end": "closed", "ns": map[string]any{"base": 300, "points": 235}, "eo": map[string]any{"base": 100, "points": -120}}, 201)
	_, raw = sheetOf()
	if sheets, _, err = sheetjson.Decode(raw); err != nil || len(sheets[0].Hands) != 1 || sheets[0].Hands[0].Lines[0].Points != 235 {
		t.Errorf("the sheet after a hand %s: %v", raw, err)
	}
	// UI.md §1: the page's first load (the page and what its
	// HTML loads, gzip) stays ≤ 60 KB; the engine and its loader come
	// after the page is usable and are not part of it.
	res, page := rawGet(t, site.URL+"/table/"+code, "gzip")
	weight := len(page)
	_, plainPage := rawGet(t, site.URL+"/table/"+code, "")
	for _, a := range regexp.MustCompile(`<(?:script|link)[^>]*(?:src|href)="(/[^"]+)"`).FindAllSubmatch(plainPage, -1) {
		res, b := rawGet(t, site.URL+html.UnescapeString(string(a[1])), "gzip")
		if res.StatusCode != 200 {
			t.Errorf("%s: %d", a[1], res.StatusCode)
		}
		weight += len(b)
	}
	t.Logf("table page first load: %d bytes (gzip); engine %d bytes gzip after it", weight, len(wasm.Gzip()))
	if res.Header.Get("Content-Encoding") != "gzip" || weight > 60<<10 {
		t.Errorf("table page first load %d bytes (Content-Encoding %q), want ≤ 60 KB gzip", weight, res.Header.Get("Content-Encoding"))
	}
	// Other pages keep the strict policy.
	if res, _ := rawGet(t, site.URL+"/table", ""); strings.Contains(res.Header.Get("Content-Security-Policy"), "wasm") {
		t.Errorf("the code page allows WebAssembly: %q", res.Header.Get("Content-Security-Policy"))
	}
}
