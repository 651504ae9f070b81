package sheetjson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"segnapunti/domain"
)

// readAll drains a decoder.
func readAll(d *Decoder) ([]domain.Sheet, error) {
	var out []domain.Sheet
	for {
		s, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out = append(out, s)
	}
}

func TestDecoderMatchesDecode(t *testing.T) {
	want := genSheets(60)
	data, err := EncodeBatch(want)
	if err != nil {
		t.Fatal(err)
	}
	readers := map[string]func() io.Reader{
		"whole":         func() io.Reader { return bytes.NewReader(data) },
		"one byte":      func() io.Reader { return iotest.OneByteReader(bytes.NewReader(data)) },
		"half":          func() io.Reader { return iotest.HalfReader(bytes.NewReader(data)) },
		"data with EOF": func() io.Reader { return iotest.DataErrReader(bytes.NewReader(data)) },
	}
	for name, r := range readers {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(r())
			if !d.Batch() {
				t.Fatal("Batch() = false for a batch")
			}
			got, err := readAll(d)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got, cmpSheet); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if _, err := d.Next(); err != io.EOF {
				t.Errorf("Next after the end = %v, want io.EOF", err)
			}
		})
	}
}

func TestDecoderSingleSheet(t *testing.T) {
	d := NewDecoder(iotest.OneByteReader(strings.NewReader(apiExample)))
	if d.Batch() {
		t.Fatal("Batch() = true for a single sheet")
	}
	s, err := d.Next()
	if err != nil {
		t.Fatal(err)
	}
	want, _, _ := Decode([]byte(apiExample))
	if diff := cmp.Diff(want[0], s, cmpSheet); diff != "" {
		t.Errorf("(-Decode +Decoder):\n%s", diff)
	}
	for range 2 {
		if _, err := d.Next(); err != io.EOF {
			t.Errorf("Next after the sheet = %v, want io.EOF", err)
		}
	}
}

// TestDecoderGoesOnAfterABadSheet: a sheet with a wrong value does not stop
// the stream; the caller decides (the CLI reports every bad sheet).
func TestDecoderGoesOnAfterABadSheet(t *testing.T) {
	one := `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5},"eo":{"base":0,"points":-5}}]}`
	in := `{"sheets":[` + one + `,` + strings.Replace(one, `"hands_planned":3`, `"hands_planned":"3"`, 1) + `,` +
		strings.Replace(one, `"ruleset"`, `"rules"`, 1) + `,7,` + one + `]}`
	d := NewDecoder(strings.NewReader(in))
	want := []string{"", "/sheets/1/hands_planned", "/sheets/2/rules", "/sheets/3", ""}
	for i, ptr := range want {
		_, err := d.Next()
		if ptr == "" {
			if err != nil {
				t.Fatalf("sheet %d: %v", i, err)
			}
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Pointer != ptr {
			t.Fatalf("sheet %d: got %v, want an error at %s", i, err, ptr)
		}
	}
	if _, err := d.Next(); err != io.EOF {
		t.Errorf("got %v, want io.EOF", err)
	}
}

func TestDecoderSyntaxErrorIsFinal(t *testing.T) {
	one := `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5},"eo":{"base":0,"points":-5}}]}`
	for name, in := range map[string]string{
		"inside a sheet":  `{"sheets":[` + one + `,{"ruleset":}` + `,` + one + `]}`,
		"between sheets":  `{"sheets":[` + one + ` ` + one + `]}`,
		"cut in a string": `{"sheets":[` + one + `,{"ruleset":"fit`,
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(strings.NewReader(in))
			if _, err := d.Next(); err != nil {
				t.Fatal(err)
			}
			_, err1 := d.Next()
			_, err2 := d.Next()
			if err1 == nil || err1 != err2 {
				t.Errorf("got %v then %v, want the same syntax error twice", err1, err2)
			}
			if !strings.Contains(err1.Error(), "malformed JSON at line 1") {
				t.Errorf("error %v does not say where", err1)
			}
		})
	}
}

func TestDecoderReadError(t *testing.T) {
	boom := errors.New("connection reset")
	for name, r := range map[string]io.Reader{
		"at once":         iotest.ErrReader(boom),
		"after the start": io.MultiReader(strings.NewReader(`{"sheets":[{"ruleset":"fi`), iotest.ErrReader(boom)),
		"single sheet":    io.MultiReader(strings.NewReader(`{"ruleset":"fi`), iotest.ErrReader(boom)),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewDecoder(r).Next()
			if err == nil || !strings.Contains(err.Error(), "could not be read: connection reset") || !errors.Is(err, domain.ErrInvalid) {
				t.Errorf("got %v", err)
			}
		})
	}
}

func TestDecoderSheetTooLarge(t *testing.T) {
	big := `{"ruleset":"fitab-2025","tournament":"` + strings.Repeat("x", 5000) + `"}`
	d := NewDecoder(iotest.HalfReader(strings.NewReader(`{"sheets":[` + big + `]}`)))
	d.maxSheet = 1000
	_, err := d.Next()
	var e *Error
	if !errors.As(err, &e) || e.Pointer != "/sheets/0" || !strings.Contains(e.Detail, "larger than 1000 bytes") {
		t.Fatalf("got %v", err)
	}
	if _, err2 := d.Next(); err2 != err {
		t.Errorf("a sheet over the limit must end the stream, got %v", err2)
	}
}

// endlessBatch produces {"sheets":[s,\ns,\n...,\nlast]} without ever holding
// more than one sheet, as a file of any size would.
type endlessBatch struct {
	sheet, last []byte
	n, i        int
	pending     []byte
}

func (b *endlessBatch) Read(p []byte) (int, error) {
	for len(b.pending) == 0 {
		switch {
		case b.i == 0:
			b.pending = []byte(`{"sheets":[` + "\n")
		case b.i < b.n:
			b.pending = append(b.sheet, ",\n"...)
		case b.i == b.n:
			b.pending = append(b.last, "\n]}\n"...)
		default:
			return 0, io.EOF
		}
		b.i++
	}
	n := copy(p, b.pending)
	b.pending = b.pending[n:]
	return n, nil
}

// TestDecoderBoundedMemory streams a batch of 5,000 sheets and checks that
// the decoder's buffer stays the size of a read chunk, and that line
// numbers are still right at the end of the stream.
func TestDecoderBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 6 MB")
	}
	const n = 5000
	sheet, err := Encode(genSheets(1)[0])
	if err != nil {
		t.Fatal(err)
	}
	last := bytes.Replace(sheet, []byte(`"hands_planned":3`), []byte(`"hands_planned":3.0`), 1)
	d := NewDecoder(&endlessBatch{sheet: sheet, last: last, n: n})
	count := 0
	for {
		_, err := d.Next()
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("after %d sheets: %v", count, err)
			}
			want := &Error{Pointer: fmt.Sprintf("/sheets/%d/hands_planned", n-1), Line: n + 1, Column: len(`{"ruleset":"fitab-2025","hands_planned":`) + 1}
			if e.Pointer != want.Pointer || e.Line != want.Line || e.Column != want.Column {
				t.Errorf("got %s at %d:%d, want %s at %d:%d", e.Pointer, e.Line, e.Column, want.Pointer, want.Line, want.Column)
			}
			break
		}
		count++
	}
	if count != n-1 {
		t.Errorf("read %d sheets, want %d", count, n-1)
	}
	if total := n * len(sheet); cap(d.in.pending) > 256<<10 {
		t.Errorf("buffer grew to %d bytes for a %d-byte stream", cap(d.in.pending), total)
	}
}

// TestDecoderAfterResync: after a sheet of the wrong shape the library's
// decoder is restarted behind the bad sheet (resync); later errors must
// still name the right sheet, line and column, also across several
// restarts and with every read size.
func TestDecoderAfterResync(t *testing.T) {
	one := `{"ruleset":"fitab-2025","hands_planned":3,"hands":[{"ns":{"base":0,"points":5},"eo":{"base":0,"points":-5}}]}`
	badType := strings.Replace(one, `"points":5`, `"points":"5"`, 1)
	badKey := strings.Replace(one, `"hands_planned"`, `"hands_plan"`, 1)
	in := "{\"sheets\":[\n" + one + ",\n" + badType + ",\n" + one + ",\n" + badKey + ",\n" + badType + ",\n" + `{"ruleset" "x"}` + "\n]}"
	type want struct {
		ptr       string
		line, col int
	}
	wants := []want{
		{},
		{"/sheets/1/hands/0/ns/points", 3, strings.Index(badType, `"5"`) + 1},
		{},
		{"/sheets/3/hands_plan", 5, strings.Index(badKey, `"hands_plan"`) + 1},
		{"/sheets/4/hands/0/ns/points", 6, strings.Index(badType, `"5"`) + 1},
		{"/sheets/5/ruleset", 7, len(`{"ruleset" `) + 1},
	}
	for name, r := range map[string]func() io.Reader{
		"whole":    func() io.Reader { return strings.NewReader(in) },
		"one byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(in)) },
	} {
		t.Run(name, func(t *testing.T) {
			d := NewDecoder(r())
			for i, w := range wants {
				_, err := d.Next()
				if w.ptr == "" {
					if err != nil {
						t.Fatalf("sheet %d: %v", i, err)
					}
					continue
				}
				var e *Error
				if !errors.As(err, &e) || e.Pointer != w.ptr || e.Line != w.line || e.Column != w.col {
					t.Errorf("sheet %d: got %v (%d:%d), want %s at %d:%d", i, err, e.Line, e.Column, w.ptr, w.line, w.col)
				}
			}
		})
	}
}
