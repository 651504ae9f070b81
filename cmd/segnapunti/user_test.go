package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink read while serve writes it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// UI.md §2: `segnapunti user create` reads the password from standard
// input when it is not a terminal, else generates one and prints it once;
// --help goes to stdout; bad usage is exit 2.
func TestUserCreate(t *testing.T) {
	dbFile := filepath.Join(t.TempDir(), "people.db")
	env := func(k string) string {
		if k == "SEGNAPUNTI_DB" {
			return dbFile
		}
		return ""
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"user", "create", "--role", "referee", "--name", "anna.rossi"}, env, strings.NewReader("segreta-123\n"), &out, &errb)
	if code != exitOK || !strings.Contains(out.String(), "anna.rossi") || strings.Contains(out.String(), "segreta") {
		t.Fatalf("user create from stdin: exit %d, out %q, err %q", code, out.String(), errb.String())
	}
	out.Reset()
	// No stdin (not a pipe): a generated password, printed once.
	code = run(context.Background(), []string{"user", "create", "--role", "club", "--club", "bc-roma", "--name", "segreteria"}, env, nil, &out, &errb)
	if code != exitOK || !regexp.MustCompile(`password, shown only once: \S{16}\n$`).MatchString(out.String()) {
		t.Fatalf("generated password: exit %d, out %q, err %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"user", "create", "--help"}, env, nil, &out, io.Discard); code != exitOK || !strings.Contains(out.String(), "--role") {
		t.Errorf("--help: exit %d, stdout %q", code, out.String())
	}
	for _, bad := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"user", "create", "--role", "king", "--name", "x"}, "segreta-123"},
		{[]string{"user", "create", "--role", "club", "--name", "x"}, "segreta-123"},           // no --club
		{[]string{"user", "create", "--role", "admin"}, "segreta-123"},                         // no --name
		{[]string{"user", "create", "--role", "admin", "--name", "anna.rossi"}, "segreta-123"}, // taken
		{[]string{"user", "create", "--role", "admin", "--name", "short"}, "abc"},              // too short
		{[]string{"user", "create", "--role", "admin", "--name", "empty"}, ""},
		{[]string{"user", "list"}, ""},
	} {
		var e bytes.Buffer
		if code := run(context.Background(), bad.args, env, strings.NewReader(bad.stdin), io.Discard, &e); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", bad.args, code, e.String())
		}
	}
}

// UI.md §2: on first run serve logs ONE line with the one-time /setup
// link; the pages and the API answer on the same address.
func TestServeFirstRunLinkAndPages(t *testing.T) {
	dbFile := filepath.Join(t.TempDir(), "first.db")
	env := func(k string) string {
		if k == "SEGNAPUNTI_DB" {
			return dbFile
		}
		return ""
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var logs syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"serve", "--addr", addr}, env, nil, io.Discard, &logs) }()
	client := &http.Client{Timeout: 2 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var resp *http.Response
	for range 100 {
		if resp, err = client.Get("http://" + addr + "/readyz"); err == nil {
			resp.Body.Close()
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	links := regexp.MustCompile(`/setup\?code=[A-Za-z0-9_-]{20,}`).FindAllString(logs.String(), -1)
	if len(links) != 1 || strings.Count(logs.String(), "/setup?code=") != 1 {
		t.Fatalf("want one setup link in the log, got %v in:\n%s", links, logs.String())
	}
	if resp, err = client.Get("http://" + addr + links[0]); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("setup page: %v %v", err, resp)
	}
	resp.Body.Close()
	code := strings.TrimPrefix(links[0], "/setup?code=")
	resp, err = client.PostForm("http://"+addr+"/setup", url.Values{"code": {code}, "username": {"admin"}, "password": {"segreta-123"}})
	if err != nil || resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("setup post: %v %v", err, resp)
	}
	resp.Body.Close()
	if resp, err = client.Get("http://" + addr + links[0]); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("setup page after setup: %v %v, want 404", err, resp)
	}
	resp.Body.Close()
	if resp, err = client.Get("http://" + addr + "/"); err != nil || resp.StatusCode != http.StatusSeeOther || !strings.HasPrefix(resp.Header.Get("Location"), "/login") {
		t.Fatalf("signed-out home: %v %v, want a redirect to /login", err, resp)
	}
	resp.Body.Close()
	if resp, err = client.Get("http://" + addr + "/v1/tournaments"); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("API without token: %v %v, want 401", err, resp)
	}
	resp.Body.Close()
	cancel()
	if c := <-done; c != exitOK {
		t.Fatalf("serve exited %d", c)
	}
}
