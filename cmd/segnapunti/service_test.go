package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The service commands on the embedded database: migrate, token create,
// then serve answering on loopback and shutting down gracefully.
func TestServiceCommandsOnEmbeddedDatabase(t *testing.T) {
	dbFile := filepath.Join(t.TempDir(), "club.db")
	env := func(k string) string {
		if k == "SEGNAPUNTI_DB" {
			return dbFile
		}
		return ""
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"migrate"}, env, nil, &out, &errb); code != exitOK || !strings.Contains(out.String(), "sqlite") {
		t.Fatalf("migrate: exit %d, %q %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"token", "create", "--role", "club", "--name", "Segreteria", "--club", "bc-lugano"}, env, nil, &out, &errb); code != exitOK {
		t.Fatalf("token create: exit %d, %q", code, errb.String())
	}
	token := strings.TrimSpace(out.String())
	if !strings.HasPrefix(token, "sp_") || strings.Contains(token, "\n") {
		t.Fatalf("token %q: want one line starting sp_", token)
	}
	for _, bad := range [][]string{
		{"token", "create", "--role", "king", "--name", "x"},
		{"token", "create", "--role", "club", "--name", "x"}, // a club token needs --club
		{"token", "create", "--role", "admin"},
		{"token", "list"},
	} {
		if code := run(context.Background(), bad, env, nil, io.Discard, io.Discard); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--addr", addr}, env, nil, io.Discard, io.Discard)
	}()
	client := &http.Client{Timeout: 2 * time.Second}
	var resp *http.Response
	for i := 0; i < 100; i++ {
		if resp, err = client.Get("http://" + addr + "/readyz"); err == nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("serve never answered: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("readyz %d", resp.StatusCode)
	}
	req, _ := http.NewRequest("GET", "http://"+addr+"/v1/tournaments", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	if resp, err = client.Do(req); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the created token is not accepted: %v %v", err, resp)
	}
	resp.Body.Close()
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("serve exited %d after shutdown", code)
		}
	case <-time.After(25 * time.Second):
		t.Fatal("serve did not shut down")
	}
}
