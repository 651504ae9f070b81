//go:build loadtest

package loadtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"segnapunti/api"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// TestTableEntryHands: 100 tables enter their three hands at once, each
// with its own table code and an Idempotency-Key per hand, as the phones
// do (UI.md §6). Reports hands/s and the p99 of one hand. Bounded: 300
// hands.
func TestTableEntryHands(t *testing.T) {
	const tables = 100
	db := dbtest.Postgres(t)
	srv := httptest.NewServer(api.NewServer(api.Config{}, db, slog.New(slog.DiscardHandler)))
	defer srv.Close()
	ctx := context.Background()
	admin, _, err := db.CreateToken(ctx, domain.RoleAdmin, "root", "")
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: tables}}
	call := func(method, path, token string, body any, header map[string]string) (int, map[string]any) {
		b, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(b))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		m := map[string]any{}
		json.Unmarshal(out, &m)
		return res.StatusCode, m
	}
	must := func(status, want int, what string) {
		if status != want {
			t.Fatalf("%s: %d, want %d", what, status, want)
		}
	}
	s, m := call("POST", "/v1/clubs", admin, map[string]any{"id": "c1", "name": "Circolo"}, nil)
	must(s, 201, "club")
	s, m = call("POST", "/v1/tokens", admin, map[string]any{"role": "club", "club": "c1", "name": "Segreteria"}, nil)
	must(s, 201, "token")
	club := m["token"].(string)
	s, m = call("POST", "/v1/tournaments", club, map[string]any{"name": "Nazionale", "date": "2026-11-21", "level": "club",
		"ruleset": "fitab-2025", "kind": "pairs", "rounds_planned": 3, "hands_per_round": 3}, nil)
	must(s, 201, "tournament")
	tid := m["id"].(string)
	var entrants, seats []map[string]any
	for i := 1; i <= 2*tables; i++ {
		entrants = append(entrants, map[string]any{"id": fmt.Sprint(i), "players": []map[string]any{{"name": fmt.Sprintf("Giocatore %da", i)}, {"name": fmt.Sprintf("Giocatore %db", i)}}})
	}
	for i := 1; i <= tables; i++ {
		seats = append(seats, map[string]any{"table": i, "ns": fmt.Sprint(i), "eo": fmt.Sprint(tables + i)})
	}
	s, _ = call("POST", "/v1/tournaments/"+tid+"/entrants", club, map[string]any{"entrants": entrants}, nil)
	must(s, 201, "entrants")
	s, _ = call("POST", "/v1/tournaments/"+tid+"/rounds", club, map[string]any{"number": 1, "phase": "mitchell", "tables": seats}, nil)
	must(s, 201, "round")
	codes := make([]string, tables+1)
	for i := 1; i <= tables; i++ {
		s, m = call("POST", fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/%d/entry-link", tid, i), club, nil, nil)
		must(s, 201, "entry link")
		codes[i] = m["code"].(string)
	}
	hands := []map[string]any{
		{"end": "closed", "ns": map[string]any{"base": 300, "points": 235}, "eo": map[string]any{"base": 100, "points": -120}},
		{"end": "closed", "ns": map[string]any{"base": 0, "points": -55}, "eo": map[string]any{"base": 400, "points": 180}},
		{"end": "closed", "ns": map[string]any{"base": 350, "points": 120}, "eo": map[string]any{"base": 200, "points": 65}},
	}
	var mu sync.Mutex
	var lat []time.Duration
	failures := 0
	var wg sync.WaitGroup
	start := time.Now()
	for i := 1; i <= tables; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for h, hand := range hands {
				t0 := time.Now()
				s, _ := call("POST", fmt.Sprintf("/v1/tournaments/%s/rounds/1/tables/%d/sheet/hands", tid, i), codes[i], hand,
					map[string]string{"Idempotency-Key": fmt.Sprintf("t%d-h%d", i, h)})
				d := time.Since(t0)
				mu.Lock()
				lat = append(lat, d)
				if s != http.StatusCreated {
					failures++
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(lat)
	p99 := lat[len(lat)*99/100]
	t.Logf("%d tables × 3 hands: %d hands in %v = %.0f hands/s; p50 %v, p99 %v per hand; %d failures",
		tables, len(lat), elapsed.Round(time.Millisecond), float64(len(lat))/elapsed.Seconds(), lat[len(lat)/2].Round(time.Microsecond), p99.Round(time.Microsecond), failures)
	if failures > 0 {
		t.Errorf("%d hands failed", failures)
	}
}
