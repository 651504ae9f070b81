package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The README's API walkthrough ("commands run as written on a
// fresh clone"; it had gone stale) is run as written: the shell blocks
// between <!-- walkthrough --> and <!-- /walkthrough --> in README.md, in
// order, in one bash with set -euo pipefail, in an empty directory holding
// the examples, against `segnapunti serve` on the embedded database there.
// Two things stand in for the reader's machine: `go build -o segnapunti
// ./cmd/segnapunti`, which the walkthrough runs from the source tree, is
// checked to be that command and answered with the binary this test built
// with it; and `curl` records each answer's status (the README's curl -s
// would not fail on a 4xx), and stops the event stream after two seconds.

const (
	walkthroughStart = "<!-- walkthrough -->"
	walkthroughEnd   = "<!-- /walkthrough -->"
	readmeBuild      = "go build -o segnapunti ./cmd/segnapunti"
)

// walkthroughBlocks returns the ```sh blocks of the README's walkthrough.
func walkthroughBlocks(t *testing.T, readme string) []string {
	t.Helper()
	_, rest, ok := strings.Cut(readme, walkthroughStart)
	if !ok {
		t.Fatalf("README.md has no %s marker", walkthroughStart)
	}
	section, _, ok := strings.Cut(rest, walkthroughEnd)
	if !ok {
		t.Fatalf("README.md has no %s marker", walkthroughEnd)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?ms)^```sh\n(.*?)^```").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) < 5 {
		t.Fatalf("the walkthrough has %d sh blocks", len(blocks))
	}
	if !strings.Contains(blocks[0], readmeBuild+"\n") {
		t.Fatalf("the walkthrough's first block does not build the command with %q", readmeBuild)
	}
	return blocks
}

// needTools skips (fails under CI) without curl and jq.
func needTools(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed by the README walkthrough (.ci/run installs it): %v", tool, err)
			}
			t.Skipf("%s is not installed: the README walkthrough is not run", tool)
		}
	}
}

// walkthroughEnv is the environment of the server and the script: the
// embedded database in the working directory, whatever the caller's shell
// says.
func walkthroughEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "DATABASE_URL", "SEGNAPUNTI_DB", "SEGNAPUNTI_ADDR", "S":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

const walkthroughPrelude = `set -euo pipefail
# The walkthrough's build, from the source tree: the test built it already.
go() {
  if [ "$*" = "build -o segnapunti ./cmd/segnapunti" ]; then cp "$SEGNAPUNTI_BIN" ./segnapunti; return; fi
  echo "walkthrough: unexpected go $*" >&2; return 1
}
# Every answer's status goes to $CURL_LOG; the event stream stops after 2 s.
curl() {
  local extra=() rc=0
  case "$*" in *"/events"*) extra=(--max-time 2) ;; esac
  command curl "${extra[@]}" -w '%{stderr}@@ %{http_code} %{method} %{url_effective}\n' "$@" 2>>"$CURL_LOG" || rc=$?
  if [ "$rc" -eq 28 ] && [ "${#extra[@]}" -gt 0 ]; then return 0; fi
  return "$rc"
}
`

// curlCall is one request the walkthrough made.
type curlCall struct {
	block  int
	status int
	method string
	url    string
}

func TestREADMEWalkthrough(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	needTools(t, "bash", "curl", "jq")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := walkthroughBlocks(t, string(readme))

	tmp := t.TempDir()
	bin := filepath.Join(tmp, "segnapunti")
	build := exec.Command("go", strings.Fields(strings.Replace(readmeBuild, "-o segnapunti", "-o "+bin, 1))[1:]...)
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	work := filepath.Join(tmp, "clone")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Fatal(err)
	}

	// The service, as the README starts it, on a free loopback port.
	addr := freeAddr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var serverLog bytes.Buffer
	srv := exec.CommandContext(ctx, bin, "serve", "--addr", addr)
	srv.Dir, srv.Env, srv.Stdout, srv.Stderr = work, walkthroughEnv(), &serverLog, &serverLog
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
		}
	})
	base := "http://" + addr
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server did not answer /healthz: %v\n%s", err, serverLog.String())
		}
		time.Sleep(100 * time.Millisecond)
	}

	var script strings.Builder
	script.WriteString(walkthroughPrelude)
	for i, b := range blocks {
		fmt.Fprintf(&script, "echo '@@@ block %d' | tee -a \"$CURL_LOG\"\n%s\n", i+1, b)
	}
	scriptFile := filepath.Join(tmp, "walkthrough.sh")
	if err := os.WriteFile(scriptFile, []byte(script.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	curlLog := filepath.Join(tmp, "curl.log")
	var stdout, stderr bytes.Buffer
	sh := exec.CommandContext(ctx, "bash", scriptFile)
	sh.Dir, sh.Stdout, sh.Stderr = work, &stdout, &stderr
	sh.Env = walkthroughEnv("S="+base, "SEGNAPUNTI_BIN="+bin, "CURL_LOG="+curlLog)
	runErr := sh.Run()
	out := stdout.String()
	logText, _ := os.ReadFile(curlLog)
	if runErr != nil {
		t.Fatalf("the walkthrough failed: %v\nstderr:\n%s\nstdout (tail):\n%s\ncurl log:\n%s", runErr, stderr.String(), tail(out, 3000), logText)
	}

	// Every request answered as the README says: 2xx, except the upload
	// into the entered table, refused with 409 (would_replace), and the
	// signature of the sheet with the sum error (409).
	var calls []curlCall
	block := 0
	sc := bufio.NewScanner(bytes.NewReader(logText))
	for sc.Scan() {
		line := sc.Text()
		if _, err := fmt.Sscanf(line, "@@@ block %d", &block); err == nil {
			continue
		}
		var c curlCall
		if _, err := fmt.Sscanf(line, "@@ %d %s %s", &c.status, &c.method, &c.url); err == nil {
			c.block = block
			calls = append(calls, c)
		}
	}
	if len(calls) < 25 {
		t.Fatalf("only %d requests recorded:\n%s", len(calls), logText)
	}
	refused := map[string]int{}
	for _, c := range calls {
		switch {
		case c.status == http.StatusConflict && c.method == "POST" && strings.HasSuffix(c.url, "/imports"):
			refused["upload"]++
		case c.status == http.StatusConflict && c.method == "POST" && strings.HasSuffix(c.url, "/sheet/confirm"):
			refused["signature"]++
		case c.status < 200 || c.status > 299:
			t.Errorf("block %d: %s %s answered %d", c.block, c.method, c.url, c.status)
		}
	}
	if refused["upload"] != 1 || refused["signature"] != 1 {
		t.Errorf("refused %v, want the upload into the entered table and the signature of the wrong sheet", refused)
	}
	for _, want := range []string{
		`"/problems/would-replace"`, `"status": "would_replace"`, // the refused upload
		`"source": "import"`, `"undone_at"`, // replace, history, undo
		`"code": "HAND_TOTAL_MISMATCH"`, // the sheet with the sum error is back
		`"applied": true`,               // the referee's correction
		`"state":"proposed"`,            // the generated round 2
		": connected",                   // the public event stream opened
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the walkthrough's output lacks %s\n%s", want, tail(out, 4000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}
