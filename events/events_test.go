package events_test

import (
	"context"
	"testing"
	"time"

	"segnapunti/events"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }

// receive waits for the next event that is not a Resync.
func receive(t *testing.T, ch <-chan events.Event, within time.Duration) (events.Event, bool) {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				return events.Event{}, false
			}
			if e.Kind == events.Resync {
				continue
			}
			return e, true
		case <-deadline:
			return events.Event{}, false
		}
	}
}

func waitListening(t *testing.T, b *events.Bus) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 5*time.Second; time.Sleep(10 * time.Millisecond) {
		if on, _ := b.Listening(); on {
			return
		}
	}
	t.Fatal("the bus did not start listening within 5 s")
}

// openReplica opens one more store on the database: another replica.
func openReplica(t *testing.T, url string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Two store.DB over one PostgreSQL database are two replicas: a write
// announced by one reaches the pages open on the other (UI.md §7).
func TestBusAcrossReplicasPostgres(t *testing.T) {
	url := dbtest.PostgresURL(t)
	one, two := events.New(openReplica(t, url), nil), events.New(openReplica(t, url), nil)
	t.Cleanup(one.Close)
	t.Cleanup(two.Close)

	if on, _ := two.Listening(); on {
		t.Fatal("a bus without subscribers listens")
	}
	ch, cancel := two.Subscribe("t_a")
	defer cancel()
	other, cancelOther := two.Subscribe("t_b")
	defer cancelOther()
	waitListening(t, two)

	var heard []events.Event
	one.OnEvent(func(e events.Event) { heard = append(heard, e) })
	start := time.Now()
	one.Publish(context.Background(), events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 2, Table: 7})
	e, ok := receive(t, ch, 2*time.Second)
	if !ok {
		t.Fatal("replica two did not hear replica one's event within 2 s")
	}
	t.Logf("across replicas in %v", time.Since(start))
	if want := (events.Event{Tournament: "t_a", Kind: events.Sheet, Round: 2, Table: 7}); e != want {
		t.Errorf("heard %+v, want %+v", e, want)
	}
	if len(heard) != 1 {
		t.Errorf("replica one's own hooks heard %d events, want 1 at once", len(heard))
	}
	if e, ok := receive(t, other, 200*time.Millisecond); ok {
		t.Errorf("a subscriber of another tournament heard %+v", e)
	}

	// The last subscriber gone, the listening connection is given back.
	cancel()
	cancelOther()
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if on, _ := two.Listening(); !on {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("still listening without subscribers")
		}
	}
}

// On the embedded database the bus is the process.
func TestBusInProcess(t *testing.T) {
	b := events.New(nil, nil)
	ch, cancel := b.Subscribe("t_a")
	defer cancel()
	other, cancelOther := b.Subscribe("t_b")
	defer cancelOther()
	b.Publish(context.Background(), events.Event{Tournament: "t_a", Kind: events.Round, Round: 3})
	e, ok := receive(t, ch, time.Second)
	if !ok || e.Kind != events.Round || e.Round != 3 {
		t.Fatalf("heard %+v %v, want round 3", e, ok)
	}
	if e, ok := receive(t, other, 100*time.Millisecond); ok {
		t.Errorf("a subscriber of another tournament heard %+v", e)
	}
	// A slow subscriber loses nothing silently: past its buffer it gets a
	// Resync.
	for i := range 200 {
		b.Publish(context.Background(), events.Event{Tournament: "t_b", Kind: events.Sheet, Table: i + 1})
	}
	for range 64 {
		<-other
	}
	b.Publish(context.Background(), events.Event{Tournament: "t_b", Kind: events.Sheet, Table: 999})
	if e := <-other; e.Kind != events.Resync {
		t.Errorf("after an overflow the subscriber got %+v, want a Resync", e)
	}
	// Close ends every stream.
	b.Close()
	if _, open := <-ch; open {
		t.Error("a subscription outlived Close")
	}
	late, _ := b.Subscribe("t_a")
	if _, open := <-late; open {
		t.Error("a subscription after Close is open")
	}
}

func TestStreamNames(t *testing.T) {
	for _, c := range []struct {
		kind events.Kind
		want string
	}{
		{events.Sheet, "sheet standings"},
		{events.Round, "round standings"},
		{events.Standings, "standings"},
		{events.Resync, "sheet round standings"},
	} {
		got := ""
		for i, n := range events.StreamNames(events.Event{Kind: c.kind}) {
			if i > 0 {
				got += " "
			}
			got += n
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.kind, got, c.want)
		}
	}
}

// Hold keeps a bus listening without subscribers, so that its hooks hear
// the other replicas all the time: a token revoked on replica one
// (TokenRevoked, no tournament) reaches replica two's hooks; released,
// the listening connection is given back.
func TestBusHoldListensForTheHooksPostgres(t *testing.T) {
	url := dbtest.PostgresURL(t)
	one, two := events.New(openReplica(t, url), nil), events.New(openReplica(t, url), nil)
	t.Cleanup(one.Close)
	t.Cleanup(two.Close)
	heard := make(chan events.Event, 8)
	two.OnEvent(func(e events.Event) {
		if e.Kind == events.TokenRevoked {
			heard <- e
		}
	})
	release := two.Hold()
	waitListening(t, two)
	one.Publish(context.Background(), events.Event{Kind: events.TokenRevoked, Token: "k_abc"})
	select {
	case e := <-heard:
		if e != (events.Event{Kind: events.TokenRevoked, Token: "k_abc"}) {
			t.Errorf("heard %+v", e)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("replica two's hooks did not hear the revocation within 2 s")
	}
	release()
	release() // twice is once
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if on, _ := two.Listening(); !on {
			break
		}
		if time.Since(start) > 5*time.Second {
			t.Fatal("still listening after the hold was released")
		}
	}
}
