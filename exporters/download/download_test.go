package download

import (
	"mime"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestName(t *testing.T) {
	for _, tc := range []struct {
		parts []string
		want  string
	}{
		{[]string{"Coppa Autunno", "2026-11-21"}, "Coppa Autunno 2026-11-21.xlsx"},
		{[]string{"Coppa Città di Forlì", "2026-11-21"}, "Coppa Città di Forlì 2026-11-21.xlsx"},
		{[]string{"Coppa d'Autunno", "2026-11-21", "classifica"}, "Coppa d'Autunno 2026-11-21 classifica.xlsx"},
		{[]string{"../../etc/passwd"}, "etc_passwd.xlsx"},
		{[]string{`"quoted"\name; filename=evil.exe`}, "quoted_name_ filename_evil.exe.xlsx"},
		{[]string{"🏆 Torneo\r\n"}, "Torneo.xlsx"},
		{[]string{"Gara \"A/B\"  12:00"}, "Gara _A_B_ 12_00.xlsx"},
		{[]string{""}, "torneo.xlsx"},
		{[]string{"...", "  "}, "torneo.xlsx"},
		{[]string{"東京杯"}, "東京杯.xlsx"},
		{[]string{"a\x00b\xffc"}, "a_b_c.xlsx"},
	} {
		if got := Name(".xlsx", tc.parts...); got != tc.want {
			t.Errorf("Name(%q) = %q, want %q", tc.parts, got, tc.want)
		}
	}
	if got := Name(".csv", strings.Repeat("a", 500)); utf8.RuneCountInString(got) != MaxNameRunes+len(".csv") {
		t.Errorf("a long name gives %d characters", utf8.RuneCountInString(got))
	}
}

func TestDisposition(t *testing.T) {
	for name, want := range map[string]string{
		"Coppa_Autunno-2026-11-21.xlsx":      `attachment; filename=Coppa_Autunno-2026-11-21.xlsx`,
		"modello iscritti.xlsx":              `attachment; filename="modello iscritti.xlsx"`,
		"Torneo del Giovedì 2026-11-26.xlsx": `attachment; filename="Torneo del Giovedi 2026-11-26.xlsx"; filename*=utf-8''Torneo%20del%20Gioved%C3%AC%202026-11-26.xlsx`,
		"東京杯.xlsx":                           `attachment; filename=___.xlsx; filename*=utf-8''%E6%9D%B1%E4%BA%AC%E6%9D%AF.xlsx`,
	} {
		if got := Disposition(name); got != want {
			t.Errorf("Disposition(%q)\n = %s\nwant %s", name, got, want)
		}
		// A client reading the header (RFC 6266 with RFC 8187) gets the
		// name back, accents and all.
		disp, params, err := mime.ParseMediaType(want)
		if err != nil || disp != "attachment" || params["filename"] != name {
			t.Errorf("ParseMediaType(%q) = %q %q %v", want, disp, params, err)
		}
	}
}

func FuzzDisposition(f *testing.F) {
	for _, s := range []string{"Coppa Autunno", "Città", `a"b\c`, "\x00\xff", "東京杯", "../x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		fn := Name(".xlsx", name, "2026-11-21")
		if strings.ContainsAny(fn, "/\\\"\r\n:*?<>|") || strings.HasPrefix(fn, ".") || !utf8.ValidString(fn) {
			t.Fatalf("%q gives the file name %q", name, fn)
		}
		h := Disposition(fn)
		_, params, err := mime.ParseMediaType(h)
		if err != nil {
			t.Fatalf("%q gives the header %q: %v", fn, h, err)
		}
		if params["filename"] != fn {
			t.Errorf("%q: header %q reads back as %q", fn, h, params["filename"])
		}
	})
}
