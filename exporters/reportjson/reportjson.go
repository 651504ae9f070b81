// Package reportjson writes validation reports as the JSON of API §2, one
// report or a batch {"reports": [...]}, and reads them back.
//
// The layout is appended by hand, the strings are escaped by the library
// (jsontext.AppendQuote): the field order is API §2's, optional fields are
// left out exactly where API §2 says, and a batch of 100,000 reports
// streams through one reused buffer. Measured 2026-11-26 (one report,
// BenchmarkMarshal): this 0.42–0.58 µs, 1 allocation; jsontext's token
// Encoder writing the same tokens 4.8–6.2 µs, 2 allocations (10×: its
// per-token state machine); encoding/json marshalling the Report struct
// of decode.go 1.3–1.6 µs, 2 allocations.
package reportjson

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"segnapunti/domain"
)

// Marshal returns the report as API §2 JSON, with finding messages in lang
// (English when the finding has no message in lang). It fails only on a
// report no validator produces: a finding with an unknown severity or line.
func Marshal(r domain.Report, lang domain.Lang) ([]byte, error) {
	var msg [msgScratch]byte
	return appendReport(make([]byte, 0, sizeHint(r)), msg[:0], r, lang)
}

// msgScratch is the room on the stack for one finding's message before it
// is quoted: the validator's longest is about 230 bytes.
const msgScratch = 512

// sizeHint is about what a report takes, so Marshal allocates once.
func sizeHint(r domain.Report) int {
	return 256 + 80*len(r.Computed.Hands) + 320*len(r.Findings)
}

// Encode writes the report as API §2 JSON followed by a newline.
func Encode(w io.Writer, r domain.Report, lang domain.Lang) error {
	var msg [msgScratch]byte
	b, err := appendReport(make([]byte, 0, sizeHint(r)+1), msg[:0], r, lang)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// MarshalBatch returns {"reports": [...]} with the reports in input order
// (API §2), one report per line: the bytes a BatchWriter writes, without
// the final newline.
func MarshalBatch(reports []domain.Report, lang domain.Lang) ([]byte, error) {
	var buf bytes.Buffer
	w := NewBatchWriter(&buf, lang)
	for _, r := range reports {
		if err := w.Write(r); err != nil {
			return nil, err
		}
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// The batch layout: `{"reports":[` newline, the reports separated by a
// comma and a newline, newline `]}`; `{"reports":[]}` when empty.
const (
	batchOpen = "{\"reports\":[\n"
	batchSep  = ",\n"
)

func closing(n int) string {
	if n == 0 {
		return "]}"
	}
	return "\n]}"
}

// BatchWriter streams a batch report: reports are written as they come,
// so a batch of any size needs the memory of one report. Call Close to end
// the batch; the writer buffers up to 64 KiB between writes to w.
type BatchWriter struct {
	w    io.Writer
	lang domain.Lang
	buf  []byte
	msg  []byte // one finding's message before it is quoted, reused
	n    int
	err  error
}

const flushAt = 64 << 10

// NewBatchWriter starts a batch report on w with messages in lang.
func NewBatchWriter(w io.Writer, lang domain.Lang) *BatchWriter {
	return &BatchWriter{w: w, lang: lang, buf: make([]byte, 0, flushAt+4096), msg: make([]byte, 0, msgScratch)}
}

// Write adds one report to the batch. After an error every later call
// returns it.
func (b *BatchWriter) Write(r domain.Report) error {
	if b.err != nil {
		return b.err
	}
	mark := len(b.buf)
	if b.n == 0 {
		b.buf = append(b.buf, batchOpen...)
	} else {
		b.buf = append(b.buf, batchSep...)
	}
	out, err := appendReport(b.buf, b.msg, r, b.lang)
	if err != nil {
		b.buf = b.buf[:mark] // nothing of a bad report is written
		return fmt.Errorf("report %d: %w", b.n, err)
	}
	b.buf = out
	b.n++
	if len(b.buf) >= flushAt {
		return b.flush()
	}
	return nil
}

// Close ends the batch (a batch with no report is {"reports":[]}) and
// writes a final newline. It does not close the underlying writer.
func (b *BatchWriter) Close() error {
	if b.err != nil {
		return b.err
	}
	if b.n == 0 {
		b.buf = append(b.buf, batchOpen[:len(batchOpen)-1]...)
	}
	b.buf = append(b.buf, closing(b.n)...)
	b.buf = append(b.buf, '\n')
	if err := b.flush(); err != nil {
		return err
	}
	b.err = errClosed
	return nil
}

var errClosed = fmt.Errorf("reportjson: batch writer is closed")

func (b *BatchWriter) flush() error {
	if _, err := b.w.Write(b.buf); err != nil {
		b.err = err
		return err
	}
	b.buf = b.buf[:0]
	return nil
}

// appendReport appends API §2 for r; msg is scratch room for a message.
func appendReport(b, msg []byte, r domain.Report, lang domain.Lang) ([]byte, error) {
	var counts [3]int
	for i, f := range r.Findings {
		switch f.Severity {
		case domain.SeverityError:
			counts[0]++
		case domain.SeverityWarning:
			counts[1]++
		case domain.SeverityInfo:
			counts[2]++
		default:
			return nil, fmt.Errorf("reportjson: finding %d (%s) has unknown severity %q", i, f.Code, f.Severity)
		}
		if f.Line != nil && *f.Line != domain.NS && *f.Line != domain.EO {
			return nil, fmt.Errorf("reportjson: finding %d (%s) has unknown line %d", i, f.Code, *f.Line)
		}
	}
	b = append(b, `{"ok":`...)
	b = strconv.AppendBool(b, counts[0] == 0) // API §2: true iff no finding is an error
	b = append(b, `,"ruleset":`...)
	b = appendString(b, string(r.Ruleset))
	b = append(b, `,"vp_table":`...)
	if r.VPTable.IsZero() {
		b = append(b, "null"...)
	} else {
		b = appendString(b, r.VPTable.ID())
	}
	b = append(b, `,"computed":{"hands":[`...)
	for i, h := range r.Computed.Hands {
		if i > 0 {
			b = append(b, ',')
		}
		for _, l := range domain.Lines {
			if l == domain.NS {
				b = append(b, `{"ns":{"total":`...)
			} else {
				b = append(b, `,"eo":{"total":`...)
			}
			b = strconv.AppendInt(b, int64(h.Total[l]), 10)
			b = append(b, `,"running_total":`...)
			b = strconv.AppendInt(b, int64(h.RunningTotal[l]), 10)
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	for _, l := range domain.Lines {
		res := r.Computed.Lines[l]
		b = append(b, `,"`...)
		b = append(b, l.String()...)
		b = append(b, `":{"total":`...)
		b = strconv.AppendInt(b, int64(res.Total), 10)
		b = append(b, `,"mp":`...)
		b = strconv.AppendInt(b, int64(res.MP), 10)
		b = append(b, `,"vp":`...)
		b = strconv.AppendInt(b, int64(res.VP), 10)
		b = append(b, '}')
	}
	b = append(b, `},"findings":[`...)
	for i, f := range r.Findings {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendFinding(b, msg, f, lang)
	}
	b = append(b, `],"counts":{"error":`...)
	b = strconv.AppendInt(b, int64(counts[0]), 10)
	b = append(b, `,"warning":`...)
	b = strconv.AppendInt(b, int64(counts[1]), 10)
	b = append(b, `,"info":`...)
	b = strconv.AppendInt(b, int64(counts[2]), 10)
	return append(b, "}}"...), nil
}

// appendFinding appends one finding; hand, line, written, expected, pointer
// and cell are left out when the finding has none (API §2; pointer, the JSON
// pointer of the offending field in the sheet of API §1, added 2026-11-24).
func appendFinding(b, msg []byte, f domain.Finding, lang domain.Lang) []byte {
	b = append(b, `{"code":`...)
	b = appendString(b, string(f.Code))
	b = append(b, `,"severity":`...)
	b = appendString(b, string(f.Severity))
	if f.Hand != 0 {
		b = append(b, `,"hand":`...)
		b = strconv.AppendInt(b, int64(f.Hand), 10)
	}
	if f.Line != nil {
		b = append(b, `,"line":"`...)
		b = append(b, f.Line.String()...)
		b = append(b, '"')
	}
	b = append(b, `,"field":`...)
	b = appendString(b, f.Field)
	if f.Written != nil {
		b = append(b, `,"written":`...)
		b = strconv.AppendInt(b, int64(*f.Written), 10)
	}
	if f.Expected != nil {
		b = append(b, `,"expected":`...)
		b = strconv.AppendInt(b, int64(*f.Expected), 10)
	}
	b = append(b, `,"rule":`...)
	b = appendString(b, f.Rule)
	b = append(b, `,"message":`...)
	// The message is written into msg and quoted from there: no string
	// per finding (Finding.AppendMessage).
	b, _ = jsontext.AppendQuote(b, f.AppendMessage(msg[:0], lang))
	if f.Pointer != "" {
		b = append(b, `,"pointer":`...)
		b = appendString(b, f.Pointer)
	}
	if f.Cell != "" {
		b = append(b, `,"cell":`...)
		b = appendString(b, f.Cell)
	}
	return append(b, '}')
}

// appendString appends s as a JSON string, escaped by the library the
// request bodies are decoded with (jsontext.AppendQuote: quote, backslash
// and control characters escaped; invalid UTF-8 written as U+FFFD, as
// encoding/json does — the error that reports it is not one for a
// report, whose text the validator made).
func appendString(b []byte, s string) []byte {
	b, _ = jsontext.AppendQuote(b, s)
	return b
}
