package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Every subcommand's --help is output (stdout, exit 0) with a
// description, not only its flags.
func TestSubcommandHelpOnStdout(t *testing.T) {
	getenv := func(string) string { return "" }
	for _, args := range [][]string{
		{"validate", "--help"}, {"vp", "--help"}, {"pairings", "--help"}, {"verify", "--help"}, {"serve", "--help"},
		{"migrate", "--help"}, {"token", "--help"}, {"token", "create", "--help"}, {"user", "create", "--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), args, getenv, strings.NewReader(""), &out, &errOut)
			if code != exitOK || errOut.Len() != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut.String())
			}
			text := out.String()
			lines := strings.Split(strings.TrimSpace(text), "\n")
			if !strings.HasPrefix(text, "Usage") || len(lines) < 4 {
				t.Errorf("help is not a usage with a description:\n%s", text)
			}
		})
	}
}
