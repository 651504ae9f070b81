package api

import (
	"context"
	"database/sql"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// A full disk (simulated by a trigger that fails the way the database does
// when it cannot grow: PostgreSQL's disk_full, SQLite's "database or disk
// is full"): a write answers 507 with Retry-After and a problem saying
// nothing was written; /readyz says not ready while writes fail and ready
// again by itself once they work.
func TestStorageFull(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name         string
		open         func(t *testing.T) (*store.DB, *sql.DB)
		fill, unfill []string
	}{
		{"postgres", func(t *testing.T) (*store.DB, *sql.DB) {
			dsn := dbtest.PostgresURL(t)
			db, err := store.Open(context.Background(), dsn, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := sql.Open("pgx", dsn)
			if err != nil {
				t.Fatal(err)
			}
			return db, raw
		}, []string{
			`CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
				RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`,
			`CREATE TRIGGER full_clubs BEFORE INSERT ON clubs FOR EACH ROW EXECUTE FUNCTION disk_full()`,
			`CREATE TRIGGER full_probe BEFORE UPDATE ON health_probe FOR EACH ROW EXECUTE FUNCTION disk_full()`,
		}, []string{`DROP TRIGGER full_clubs ON clubs`, `DROP TRIGGER full_probe ON health_probe`}},
		{"sqlite", func(t *testing.T) (*store.DB, *sql.DB) {
			path := filepath.Join(t.TempDir(), "full.db")
			db, err := store.Open(context.Background(), path, nil)
			if err != nil {
				t.Fatal(err)
			}
			raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)")
			if err != nil {
				t.Fatal(err)
			}
			return db, raw
		}, []string{
			`CREATE TRIGGER full_clubs BEFORE INSERT ON clubs BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
			`CREATE TRIGGER full_probe BEFORE UPDATE ON health_probe BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`,
		}, []string{`DROP TRIGGER full_clubs`, `DROP TRIGGER full_probe`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			db, raw := c.open(t)
			t.Cleanup(func() { raw.Close(); db.Close() })
			e := newEnv(t, db)
			e.checkSpec = false
			tok := e.adminToken()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			for _, q := range c.fill {
				if _, err := raw.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			req, _ := http.NewRequest("POST", e.srv.URL+"/v1/clubs", strings.NewReader(`{"name":"Circolo pieno"}`))
			req.Header.Set("Authorization", "Bearer "+tok)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", "it")
			res, err := e.srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			buf := make([]byte, 4096)
			n, _ := res.Body.Read(buf)
			b.Write(buf[:n])
			res.Body.Close()
			if res.StatusCode != http.StatusInsufficientStorage || res.Header.Get("Retry-After") == "" ||
				!strings.Contains(b.String(), "/problems/storage-full") || !strings.Contains(b.String(), "disco del database è pieno") {
				t.Fatalf("a write on a full disk: %d (Retry-After %q) %s", res.StatusCode, res.Header.Get("Retry-After"), b.String())
			}
			ready := func() int {
				res, err := e.srv.Client().Get(e.srv.URL + "/readyz")
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				return res.StatusCode
			}
			if s := ready(); s != http.StatusServiceUnavailable {
				t.Errorf("/readyz while writes fail: %d, want 503", s)
			}
			for _, q := range c.unfill {
				if _, err := raw.ExecContext(ctx, q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			if s := ready(); s != http.StatusOK {
				t.Errorf("/readyz once writes work again: %d, want 200", s)
			}
			wantStatus(t, e.do(request{method: "POST", path: "/v1/clubs", token: tok, body: map[string]any{"name": "Circolo pieno"}}), http.StatusCreated, "a write after space was freed")
		})
	}
}
