package eventtest

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web/webtest"
)

// RULES §12.3 (FITAB art. 37: "alle coppie con cui avrebbero dovuto
// giocare nei turni successivi è attribuito il punteggio per riposo"):
// the round form offers "vacated" once an entrant has withdrawn, records
// the pair left alone, and the round page lists it; while nobody has
// withdrawn the field is not offered, and a vacated entrant then is
// refused under the field. 6 pairs, Mitchell; pair 6 withdraws from
// round 2, where pair 3 was to meet it.
func TestRoundFormVacated(t *testing.T) {
	t.Parallel()
	w := newClubWorld(t, dbtest.SQLite(t), "Mitchell con ritiro", domain.KindPairs, 3, pairEntrants("1", "2", "3", "4", "5", "6"))
	c := webtest.SignInClient(t, w.site, "segreteria", w.pw)
	T := "/tournaments/" + w.tid
	if _, body := c.Get(T + "/rounds/new"); strings.Contains(body, `name="vacated"`) {
		t.Error("the round form offers vacated while nobody has withdrawn")
	}
	form := url.Values{"number": {"1"}, "hands_planned": {"3"}, "phase": {"mitchell"},
		"table": {"1", "2", "3"}, "ns": {"1", "2", "3"}, "eo": {"4", "5", "6"}, "vacated": {"3"}}
	if st, body := c.Post(T+"/rounds/new", form); st != http.StatusUnprocessableEntity || !strings.Contains(body, `id="vacated-error"`) {
		t.Errorf("vacated with nobody withdrawn: %d, no error under the field", st)
	}
	form.Del("vacated")
	if st, _ := c.Post(T+"/rounds/new", form); st != http.StatusSeeOther {
		t.Fatalf("round 1: %d", st)
	}
	if _, err := w.ops.WithdrawFromRound(context.Background(), w.admin, w.tid, "6", 2, "malore", ""); err != nil {
		t.Fatal(err)
	}
	if _, body := c.Get(T + "/rounds/new"); !strings.Contains(body, `name="vacated"`) {
		t.Fatal("the round form does not offer vacated after a withdrawal")
	}
	form = url.Values{"number": {"2"}, "hands_planned": {"3"}, "phase": {"mitchell"},
		"table": {"1", "2"}, "ns": {"1", "2"}, "eo": {"5", "4"}, "vacated": {"3"}}
	if st, body := c.Post(T+"/rounds/new", form); st != http.StatusSeeOther {
		t.Fatalf("round 2 with 3 vacated: %d\n%s", st, body)
	}
	r, err := w.ops.Round(context.Background(), w.admin, w.tid, 2)
	if err != nil || len(r.Vacated) != 1 || r.Vacated[0] != "3" {
		t.Fatalf("round 2 stored vacated %v (%v)", r.Vacated, err)
	}
	if _, body := c.Get(T + "/rounds/2"); !strings.Contains(body, `<p data-vacated>`) || !strings.Contains(body, "Soli per ritiro dell&#39;avversario: 3") {
		t.Error("the round page does not list the vacated pair")
	}
}
