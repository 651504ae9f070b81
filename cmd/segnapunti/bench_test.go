package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// batchFile writes, once per run, a batch of n realistic 3-hand sheets (the
// clean example with varying tables and figures) and returns its path.
var batchFile = sync.OnceValues(func() (string, error) {
	const n = 100_000
	example, err := os.ReadFile("../../examples/clean.json")
	if err != nil {
		return "", err
	}
	var sheet map[string]any
	if err := json.Unmarshal(example, &sheet); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "segnapunti-bench-")
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "batch.json")
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	w.WriteString(`{"sheets": [`)
	for i := range n {
		if i > 0 {
			w.WriteString(",\n")
		}
		sheet["table"] = i%500 + 1
		sheet["round"] = i/500%5 + 1
		b, err := json.Marshal(sheet)
		if err != nil {
			return "", err
		}
		w.Write(b)
	}
	w.WriteString("]}\n")
	return path, w.Flush()
})

// BenchmarkValidateBatchCLI is the whole CLI path for a 100,000-sheet
// batch: read, decode strictly, validate, write JSON reports.
func BenchmarkValidateBatchCLI(b *testing.B) {
	path, err := batchFile()
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		code := run(context.Background(), []string{"validate", "--format", "json", path}, func(string) string { return "" },
			strings.NewReader(""), io.Discard, io.Discard)
		if code != exitOK {
			b.Fatalf("exit %d", code)
		}
	}
}

// BenchmarkBareDecodeBatch decodes the same file with encoding/json alone,
// streaming, into plain structs: the floor the CLI is measured against.
func BenchmarkBareDecodeBatch(b *testing.B) {
	path, err := batchFile()
	if err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	for b.Loop() {
		if err := bareDecode(path); err != nil {
			b.Fatal(err)
		}
	}
}

// bareDecode decodes the batch at path with encoding/json v1 alone,
// streaming, into plain structs, with no check at all.
func bareDecode(path string) error {
	type line struct {
		Base, Points int
		Total        *int
		RunningTotal *int `json:"running_total"`
		Burrachi     map[string]int
		Closed       *bool
		Pozzetto     string
		TablePoints  *int `json:"table_points"`
		HandPoints   *int `json:"hand_points"`
	}
	type sheet struct {
		Ruleset      string
		HandsPlanned int `json:"hands_planned"`
		Kind         string
		Tournament   string
		Round, Table int
		NS, EO       struct {
			ID      string
			Players []string
		}
		FirstDealer string `json:"first_dealer"`
		Hands       []struct {
			End    string
			NS, EO line
		}
		Written struct{ NS, EO struct{ Total, MP, VP *int } }
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 1<<16))
	dec.Token() // {
	dec.Token() // "sheets"
	dec.Token() // [
	n := 0
	for dec.More() {
		var s sheet
		if err := dec.Decode(&s); err != nil {
			return err
		}
		n++
	}
	if n != 100_000 {
		return fmt.Errorf("decoded %d", n)
	}
	return nil
}
