package app

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"segnapunti/store/dbtest"
)

// testLimiter is a memory limiter on a clock the test moves.
func testLimiter(now *time.Time) *limiter {
	l := newLimiter(nil, slog.New(slog.DiscardHandler))
	l.now = func() time.Time { return *now }
	return l
}

func testSignInApp(t *testing.T, now *time.Time) *App {
	a := New(dbtest.SQLite(t), nil, nil)
	a.limits.now = func() time.Time { return *now }
	return a
}

// Sign-in (UI.md §2): past the free failures of a name at an address, the
// wait doubles from 2 s up to 15 minutes; failures older than the window
// stop counting.
func TestSignInBackoffDoublesToTheCap(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	l := testLimiter(&now)
	ctx := context.Background()
	k := limitKey{&signInByPair, "anna|192.0.2.1"}
	for range signInByPair.free {
		l.fail(ctx, now, k)
	}
	if d := l.wait(ctx, now, k); d != 0 {
		t.Fatalf("after %d failures wait %v, want 0", signInByPair.free, d)
	}
	want := 2 * time.Second
	for range 12 {
		l.fail(ctx, now, k)
		if d := l.wait(ctx, now, k); d != min(want, 15*time.Minute) {
			t.Fatalf("wait %v, want %v", d, min(want, 15*time.Minute))
		}
		want *= 2
	}
	now = now.Add(signInByPair.window + time.Second)
	if d := l.wait(ctx, now, k); d != 0 {
		t.Errorf("failures older than the window still counted: wait %v", d)
	}
}

// Table codes: a sliding window — free failures per window, then one more
// each time the oldest leaves it.
func TestCodeWindowSlides(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	l := testLimiter(&now)
	ctx := context.Background()
	k := limitKey{&codeByAddr, "192.0.2.1"}
	for i := range codeByAddr.free {
		if d := l.wait(ctx, now, k); d != 0 {
			t.Fatalf("failure %d waited %v", i+1, d)
		}
		l.fail(ctx, now, k)
		now = now.Add(time.Second)
	}
	// 20 failures at 0..19 s: the oldest leaves at 60 s, now is 20 s.
	if d := l.wait(ctx, now, k); d != 40*time.Second {
		t.Fatalf("wait %v, want 40s", d)
	}
	now = now.Add(40 * time.Second)
	if d := l.wait(ctx, now, k); d != 0 {
		t.Fatalf("after the oldest left: wait %v", d)
	}
}

// UI.md §2 / OWASP: whoever knows a secretary's name cannot keep the
// secretary out. Wrong passwords for "anna" from 50 addresses put the
// name over its allowance; anna from an address that has not failed
// signs in at once, an address that failed waits.
func TestSignInNameUnderAttackStillLetsTheRealUserIn(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	a := testSignInApp(t, &now)
	ctx := context.Background()
	for i := range 50 {
		addr := fmt.Sprintf("198.51.100.%d", i+1)
		for range 3 {
			if a.SignInWait(ctx, "Anna", addr) == 0 {
				a.SignInFailed(ctx, "Anna", addr)
			}
		}
	}
	if d := a.SignInWait(ctx, "anna", "203.0.113.5"); d != 0 {
		t.Errorf("the real user from a fresh address waits %v, want 0", d)
	}
	if d := a.SignInWait(ctx, "anna", "198.51.100.7"); d == 0 {
		t.Error("an attacking address is not slowed by the name's count")
	}
	// An address that failed only for another name is not slowed by
	// anna's count (its own count is the per-address limit).
	a.SignInFailed(ctx, "bruno", "203.0.113.9")
	if d := a.SignInWait(ctx, "anna", "203.0.113.9"); d != 0 {
		t.Errorf("an address that failed for another name waits %v for anna", d)
	}
}

// Per name and address: the sixth wrong password from one address slows
// that address for that name; a success clears it.
func TestSignInPairAndSuccess(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	a := testSignInApp(t, &now)
	ctx := context.Background()
	for range signInByPair.free + 1 {
		a.SignInFailed(ctx, "anna", "192.0.2.1")
	}
	if d := a.SignInWait(ctx, "anna", "192.0.2.1"); d != 2*time.Second {
		t.Fatalf("wait %v, want 2s", d)
	}
	now = now.Add(3 * time.Second)
	if d := a.SignInWait(ctx, "anna", "192.0.2.1"); d != 0 {
		t.Fatalf("after the wait: %v", d)
	}
	a.SignInSucceeded(ctx, "anna", "192.0.2.1")
	a.SignInFailed(ctx, "anna", "192.0.2.1")
	if d := a.SignInWait(ctx, "anna", "192.0.2.1"); d != 0 {
		t.Errorf("one failure after a success waits %v (the pair was not cleared)", d)
	}
}

// Per address: twenty wrong passwords for twenty names from one address
// slow every name from it.
func TestSignInPerAddress(t *testing.T) {
	now := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	a := testSignInApp(t, &now)
	ctx := context.Background()
	for i := range signInByAddr.free + 1 {
		a.SignInFailed(ctx, fmt.Sprintf("name%d", i), "192.0.2.1")
	}
	if d := a.SignInWait(ctx, "someone.new", "192.0.2.1"); d == 0 {
		t.Error("a new name from an address over its allowance is not slowed")
	}
	if d := a.SignInWait(ctx, "someone.new", "192.0.2.2"); d != 0 {
		t.Errorf("another address waits %v", d)
	}
}

// IPv6 addresses count by /64: a phone's whole network is one address.
func TestAddressKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.1":             "192.0.2.1",
		"::ffff:192.0.2.1":      "192.0.2.1",
		"2001:db8:1:2:3:4:5:6":  "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff::1":  "2001:db8:1:2::/64",
		"fe80::1%eth0":          "fe80::/64",
		"not an address at all": "not an address at all",
	} {
		if got := addressKey(in); got != want {
			t.Errorf("addressKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// The limits are shared by replicas through PostgreSQL: failures counted
// by one App (one replica) slow the same key on another within a second,
// and a new App (a restart) starts with them.
func TestLimitsSharedByReplicasPostgres(t *testing.T) {
	db := dbtest.Postgres(t)
	now := time.Now()
	one, two := New(db, nil, nil), New(db, nil, nil)
	one.limits.now = func() time.Time { return now }
	two.limits.now = func() time.Time { return now }
	ctx := context.Background()
	if d := two.SignInWait(ctx, "anna", "192.0.2.1"); d != 0 { // reads the (empty) snapshot
		t.Fatalf("fresh: wait %v", d)
	}
	for range signInByPair.free + 1 {
		one.SignInFailed(ctx, "anna", "192.0.2.1")
	}
	if d := one.SignInWait(ctx, "anna", "192.0.2.1"); d == 0 {
		t.Fatal("the replica that counted does not slow")
	}
	// The other replica re-reads the shared counts once its snapshot is a
	// second old (in the background: wait for it).
	now = now.Add(limitRefresh + time.Millisecond)
	deadline := time.Now().Add(5 * time.Second)
	for two.SignInWait(ctx, "anna", "192.0.2.1") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the other replica never saw the failures")
		}
		time.Sleep(10 * time.Millisecond)
	}
	restarted := New(db, nil, nil)
	restarted.limits.now = func() time.Time { return now }
	if d := restarted.SignInWait(ctx, "anna", "192.0.2.1"); d == 0 {
		t.Error("a restart forgot the failures")
	}
	// A success on one replica clears the pair everywhere (after refresh).
	one.SignInSucceeded(ctx, "anna", "192.0.2.1")
	fresh := New(db, nil, nil)
	fresh.limits.now = func() time.Time { return now }
	if d := fresh.SignInWait(ctx, "anna", "192.0.2.1"); d != 0 {
		t.Errorf("after a success: wait %v", d)
	}
}
