package sse

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"segnapunti/events"
)

func data(e events.Event) []byte { return fmt.Appendf(nil, `{"table":%d}`, e.Table) }

func TestStreamWritesEachEventUnderItsNamesAndEndsWhenTheChannelCloses(t *testing.T) {
	ch := make(chan events.Event, 2)
	ch <- events.Event{Kind: events.Sheet, Round: 1, Table: 7}
	ch <- events.Event{Kind: events.Round, Round: 2}
	close(ch)
	w := httptest.NewRecorder()
	Stream{Events: ch, StillOpen: func(context.Context) bool { return true }, Data: data}.Serve(context.Background(), w)

	if got := w.Header().Get("Content-Type"); got != "text/event-stream" {
		t.Errorf("Content-Type = %q", got)
	}
	if got := w.Header().Get("Cache-Control"); got != "no-store" {
		t.Errorf("Cache-Control = %q", got)
	}
	want := "retry: 2000\n: connected\n\n" +
		"event: sheet\ndata: {\"table\":7}\n\n" +
		"event: standings\ndata: {\"table\":7}\n\n" +
		"event: round\ndata: {\"table\":0}\n\n" +
		"event: standings\ndata: {\"table\":0}\n\n"
	if got := w.Body.String(); got != want {
		t.Errorf("stream:\n%s\nwant:\n%s", got, want)
	}
}

func TestStreamEndsWithoutWritingWhenTheTournamentIsNoLongerOpen(t *testing.T) {
	ch := make(chan events.Event, 1)
	ch <- events.Event{Kind: events.Sheet, Table: 3}
	w := httptest.NewRecorder()
	Stream{Events: ch, StillOpen: func(context.Context) bool { return false }, Data: data}.Serve(context.Background(), w)
	if strings.Contains(w.Body.String(), "event:") {
		t.Errorf("an event reached a stream that is no longer public:\n%s", w.Body.String())
	}
}

func TestStreamEndsWhenTheClientGoes(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done := make(chan struct{})
	go func() {
		Stream{Events: make(chan events.Event), StillOpen: func(context.Context) bool { return true }, Data: data}.Serve(ctx, httptest.NewRecorder())
		close(done)
	}()
	<-done // a stream that outlived its client would hang the test here
}
