package web

import (
	"testing"
)

// RFC 6266: a download is named after the tournament with its
// accents (filename*), with an ASCII fallback (filename).
func TestAttachmentName(t *testing.T) {
	for name, want := range map[string]string{
		"Torneo del Giovedì 2026-11-26.xlsx": `attachment; filename="Torneo del Giovedi 2026-11-26.xlsx"; filename*=UTF-8''Torneo%20del%20Gioved%C3%AC%202026-11-26.xlsx`,
		"Coppa d'Autunno classifica.csv":     `attachment; filename="Coppa d'Autunno classifica.csv"; filename*=UTF-8''Coppa%20d%27Autunno%20classifica.csv`,
	} {
		if got := attachment(name); got != want {
			t.Errorf("attachment(%q)\n = %s\nwant %s", name, got, want)
		}
	}
	if got := downloadName(`Gara "A/B"  12:00`); got != "Gara _A_B_ 12_00" {
		t.Errorf("downloadName = %q", got)
	}
}
