package api

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store/dbtest"
)

// tokenList reads GET /v1/tokens as the caller.
func (w *world) tokenList(token string) []tokenJSON {
	w.t.Helper()
	r := w.do(request{method: "GET", path: "/v1/tokens", token: token})
	wantStatus(w.t, r, http.StatusOK, "list tokens")
	var out tokensResponse
	decodeTestBody(w.t, r, &out)
	return out.Tokens
}

func decodeTestBody(t *testing.T, r response, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("%v\n%s", err, r.body)
	}
}

// Tokens are listed without their secrets, an admin sees all,
// a club its own club's, the other roles none.
func TestListTokens(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		all := w.tokenList(w.admin)
		names := func(ts []tokenJSON) []string {
			var out []string
			for _, t := range ts {
				out = append(out, t.Name)
			}
			return out
		}
		for _, want := range []string{"Segreteria Uno", "Segreteria Due", refereeOne, refereeTwo, "FITAB"} {
			if !slices.Contains(names(all), want) {
				t.Errorf("admin's list %q lacks %q", names(all), want)
			}
		}
		r := w.do(request{method: "GET", path: "/v1/tokens", token: w.admin})
		for _, secret := range []string{w.admin, w.club1, w.club2, w.ref1, w.fed} {
			if strings.Contains(string(r.body), secret) {
				t.Fatalf("the list shows a token's secret: %s", r.body)
			}
		}
		for _, tk := range all {
			if tk.Name == "Segreteria Uno" && (tk.LastUsed == nil || tk.Club == nil || *tk.Club != w.c1 || tk.Role != "club") {
				t.Errorf("club 1's token: %+v (it was used to create the tournament)", tk)
			}
		}
		own := w.tokenList(w.club1)
		if len(own) != 1 || own[0].Name != "Segreteria Uno" {
			t.Errorf("club 1 sees %q, want only its own token", names(own))
		}
		for _, tok := range []string{w.fed, w.ref1} {
			wantStatus(t, w.do(request{method: "GET", path: "/v1/tokens", token: tok}), http.StatusForbidden, "list as another role")
		}
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tokens"}), http.StatusUnauthorized, "list without a token")
	})
}

// A revoked token fails on the very next request, although it
// was just used (and so is in the server's cache of principals).
func TestRevokeToken(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, b backend) {
		w := newWorld(t, b)
		idOf := func(name string) string {
			for _, tk := range w.tokenList(w.admin) {
				if tk.Name == name {
					return tk.ID
				}
			}
			t.Fatalf("no token %q", name)
			return ""
		}
		extra := w.token(map[string]any{"role": "club", "club": w.c1, "name": "Segreteria Uno bis"})
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: extra}), http.StatusOK, "use the token")
		extraID := idOf("Segreteria Uno bis")

		// Another club's token is not found, and stays valid.
		before := w.snapshot()
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/" + extraID, token: w.club2}), http.StatusNotFound, "club 2 revokes club 1's token")
		for _, tok := range []string{w.fed, w.ref1} {
			wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/" + extraID, token: tok}), http.StatusForbidden, "revoke as another role")
		}
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/k_nope", token: w.admin}), http.StatusNotFound, "unknown id")
		w.wantUnchanged(before)
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: extra}), http.StatusOK, "still valid")

		// Its own club revokes it: the next request is refused.
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/" + extraID, token: w.club1}), http.StatusNoContent, "club 1 revokes")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: extra}), http.StatusUnauthorized, "the revoked token")
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/" + extraID, token: w.club1}), http.StatusNotFound, "revoke twice")

		// An admin revokes any token, e.g. the referee's.
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: w.ref1}), http.StatusOK, "referee before")
		wantStatus(t, w.do(request{method: "DELETE", path: "/v1/tokens/" + idOf(refereeOne), token: w.admin}), http.StatusNoContent, "admin revokes")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: w.ref1}), http.StatusUnauthorized, "referee after")
		wantStatus(t, w.do(request{method: "GET", path: "/v1/tournaments/" + w.tid, token: w.club1}), http.StatusOK, "the others still work")
	})
}

// Revocation across replicas: a token cached by replica two (it was just
// used there) is refused there as soon as replica one revokes it — not
// after the cache's 10 s — because replica two's bus listens (serve holds
// it) and its cache hears events.TokenRevoked.
func TestRevokeTokenReachesTheOtherReplicaPostgres(t *testing.T) {
	t.Parallel()
	db := dbtest.Postgres(t)
	ctx := context.Background()
	admin, _, err := db.CreateToken(ctx, domain.RoleAdmin, "Amministrazione", "")
	if err != nil {
		t.Fatal(err)
	}
	victim, p, err := db.CreateToken(ctx, domain.RoleFederation, "Federazione", "")
	if err != nil {
		t.Fatal(err)
	}
	replica := func(hold bool) *httptest.Server {
		ops := app.New(db, nil, nil)
		t.Cleanup(ops.Close)
		if hold {
			ops.Events().Hold()
			for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
				if on, _ := ops.Events().Listening(); on {
					break
				}
				if time.Since(start) > 5*time.Second {
					t.Fatal("replica two's bus does not listen")
				}
			}
		}
		srv := httptest.NewServer(NewServer(Config{App: ops}, db, nil))
		t.Cleanup(srv.Close)
		return srv
	}
	one, two := replica(false), replica(true)
	get := func(srv *httptest.Server, token, method, path string) int {
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	if st := get(two, victim, "GET", "/v1/tournaments"); st != http.StatusOK {
		t.Fatalf("the token on replica two before: %d", st)
	}
	if st := get(one, admin, "DELETE", "/v1/tokens/"+p.TokenID); st != http.StatusNoContent {
		t.Fatalf("revoking on replica one: %d", st)
	}
	start := time.Now()
	for get(two, victim, "GET", "/v1/tournaments") != http.StatusUnauthorized {
		if time.Since(start) > 2*time.Second {
			t.Fatal("replica two still accepts the revoked token 2 s later (its cache did not hear the revocation)")
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Logf("refused on replica two %v after the revocation on replica one", time.Since(start).Round(time.Millisecond))
}
