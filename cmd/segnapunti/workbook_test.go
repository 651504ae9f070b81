package main

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// A shared-strings bomb is unreadable input: exit 2, one line
// naming the part, nothing on stdout — not gigabytes of memory.
func TestValidateSharedStringsBombExits2(t *testing.T) {
	src, err := os.ReadFile("../../importers/xlsx/testdata/libreoffice/tidy_fitab2025.xlsx")
	if err != nil {
		t.Skipf("fixture not available: %v", err)
	}
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name == "xl/sharedStrings.xml" {
			continue
		}
		if err := zw.Copy(f); err != nil {
			t.Fatal(err)
		}
	}
	w, err := zw.Create("xl/sharedStrings.xml")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
	io.WriteString(w, strings.Repeat(`<si><t>a</t></si>`, 200_000))
	io.WriteString(w, `</sst>`)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runCLI(t, "validate", writeFile(t, "bomb.xlsx", buf.Bytes()))
	if code != exitUsage || out != "" || !strings.Contains(errs, "xl/sharedStrings.xml: more than 100000 strings") || strings.Count(errs, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 naming xl/sharedStrings.xml", code, out, errs)
	}
}
