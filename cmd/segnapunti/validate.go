package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"segnapunti/domain"
	"segnapunti/exporters/reportjson"
	"segnapunti/importers/sheetjson"
	"segnapunti/importers/xlsx"
	"segnapunti/messages"
)

// maxInputFile bounds one input file. A 100,000-sheet batch is about
// 150 MB; anything past this is refused before it is read.
const maxInputFile = 1 << 30

var errHelp = errors.New("help shown")

// validated is one sheet's outcome, with where it came from.
type validated struct {
	source string // file, and the match within it (a workbook's)
	index  int    // the sheet's place in a JSON batch, from 1; 0 if none
	sheet  domain.Sheet
	report domain.Report
	batch  bool // part of a batch or a workbook: reported as {"reports": [...]}
}

// runValidate implements `segnapunti validate`.
func runValidate(args []string, getenv func(string) string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	format := fs.String("format", "text", "output format: text (for a referee) or json (the reports of docs/api.md §2)")
	lang := fs.String("lang", "en", "language of the report: en or it (messages; in the text report also severities, labels and field names)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: segnapunti validate [--format text|json] [--lang en|it] FILE...\n\n"+
			"Validates score sheets offline: .json (a sheet or {\"sheets\": [...]}) or .xlsx workbooks.\n"+
			"Exit status: 0 no errors, 1 some sheet has an error finding, 2 unreadable input or bad usage.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, errHelp
		}
		return exitUsage, fmt.Errorf("%w: %v", errUsage, err)
	}
	if err := checkReportFlags(*format, *lang); err != nil {
		return exitUsage, err
	}
	files := fs.Args()
	if len(files) == 0 {
		return exitUsage, fmt.Errorf("%w: no FILE given (run 'segnapunti validate --help')", errUsage)
	}
	l := domain.Lang(*lang)

	// Output goes to a buffer file first: on unreadable input nothing but
	// the one-line reason is printed, never half a JSON document.
	out, err := os.CreateTemp("", "segnapunti-validate-*")
	if err != nil {
		return exitUsage, fmt.Errorf("cannot create a temporary file: %v", err)
	}
	defer os.Remove(out.Name())
	defer out.Close()
	bw := bufio.NewWriterSize(out, 1<<16)

	var sink reportSink
	if *format == "json" {
		sink = newJSONSink(bw, l, len(files) > 1)
	} else {
		sink = &textSink{w: bw, lang: l}
	}
	anyError := false
	for _, path := range files {
		err := readSheets(path, getenv("GOGC") == "", func(v validated) error {
			if !v.report.OK() {
				anyError = true
			}
			return sink.add(v)
		})
		if err != nil {
			return exitUsage, inLang(err, l)
		}
	}
	if err := sink.close(); err != nil {
		return exitUsage, err
	}
	if err := bw.Flush(); err != nil {
		return exitUsage, fmt.Errorf("cannot write the output: %v", err)
	}
	if _, err := out.Seek(0, io.SeekStart); err != nil {
		return exitUsage, err
	}
	if _, err := io.Copy(stdout, out); err != nil {
		return exitUsage, fmt.Errorf("cannot write the output: %v", err)
	}
	if anyError {
		return exitFindings, nil
	}
	return exitOK, nil
}

// inLang is an unreadable input's reason in lang: the detail of the cell
// (xlsx) or of the sheet's member (sheetjson) worded from the catalogue
// when the reader coded it; the rest as written.
func inLang(err error, lang domain.Lang) error {
	if lang == domain.English {
		return err
	}
	text := err.Error()
	if m, ok := xlsx.Message(err); ok {
		text = strings.Replace(text, m.English(), m.In(lang), 1)
	}
	var se *sheetjson.Error
	if errors.As(err, &se) && se.Code != "" {
		text = strings.Replace(text, se.Detail, messages.Text(lang, se.Code, se.Args...), 1)
	}
	return worded{text, err}
}

// worded is an error with its text in the reader's language.
type worded struct {
	text string
	err  error
}

func (w worded) Error() string { return w.text }
func (w worded) Unwrap() error { return w.err }

// readSheets opens one input file, checks it is a readable regular file of
// sane size, and hands every sheet it holds, validated, to emit. paceGC
// lets it set the collector's pace for a JSON file (jsonGCPercent).
func readSheets(path string, paceGC bool, emit func(validated) error) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case err != nil:
		return fmt.Errorf("%s: %v", path, unwrapPathError(err))
	case st.IsDir():
		return fmt.Errorf("%s: is a directory, not a sheet file", path)
	case !st.Mode().IsRegular() && st.Mode()&os.ModeNamedPipe == 0:
		return fmt.Errorf("%s: not a regular file", path)
	case st.Size() > maxInputFile:
		return fmt.Errorf("%s: %d bytes is over the %d-byte limit for one file", path, st.Size(), maxInputFile)
	case st.Size() == 0 && st.Mode().IsRegular():
		return fmt.Errorf("%s: the file is empty", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%s: %v", path, unwrapPathError(err))
	}
	defer f.Close()
	if strings.EqualFold(filepath.Ext(path), ".xlsx") {
		return readWorkbook(path, f, st.Size(), emit)
	}
	if paceGC {
		defer debug.SetGCPercent(debug.SetGCPercent(jsonGCPercent))
	}
	return readJSON(path, f, emit)
}

// jsonGCPercent is the collector's pace while a JSON file streams through
// (issue 26: the CPU of validating 100,000 sheets). The live heap is then
// one sheet, its report and the read and write buffers, a few megabytes,
// so at Go's default of 100 the collector ran after every few megabytes
// allocated, about 125 times for 100,000 sheets, and its cycles and write
// barriers cost some 15% of the run's CPU. At 400 it runs a fifth as
// often, and the peak memory goes from about 45 to 60 MB
// (docs/performance.md). A workbook is held whole while it is read, so it
// keeps the default; a GOGC in the environment is left alone.
const jsonGCPercent = 400

// readJSON streams a sheet or a batch: a 100,000-sheet file is never held
// in memory at once.
func readJSON(path string, r io.Reader, emit func(validated) error) error {
	dec := sheetjson.NewDecoder(io.LimitReader(r, maxInputFile))
	for i := 0; ; i++ {
		s, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		v := validated{source: path, sheet: s, report: domain.Validate(s), batch: dec.Batch()}
		if v.batch {
			v.index = i + 1 // worded by where, only for the text report
		}
		if err := emit(v); err != nil {
			return err
		}
	}
}

// where names the sheet for a referee: the file, and the match in it.
func (v *validated) where() string {
	if v.index > 0 {
		return fmt.Sprintf("%s, sheet %d", v.source, v.index)
	}
	return v.source
}

func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// reportSink receives the reports in input order.
type reportSink interface {
	add(validated) error
	close() error
}

// jsonSink prints exactly one JSON document: a single report for a single
// sheet file, {"reports": [...]} for a batch, a workbook or several files.
type jsonSink struct {
	w     io.Writer
	lang  domain.Lang
	many  bool // several files: always a batch
	first *validated
	batch *reportjson.BatchWriter
}

func newJSONSink(w io.Writer, lang domain.Lang, many bool) *jsonSink {
	return &jsonSink{w: w, lang: lang, many: many}
}

func (s *jsonSink) add(v validated) error {
	if s.batch != nil {
		return s.batch.Write(v.report)
	}
	if s.first == nil && !s.many && !v.batch {
		kept := v       // maybe the only sheet: wait and see (a copy, so that v
		s.first = &kept // itself does not move to the heap on every call)
		return nil
	}
	s.batch = reportjson.NewBatchWriter(s.w, s.lang)
	if s.first != nil {
		if err := s.batch.Write(s.first.report); err != nil {
			return err
		}
		s.first = nil
	}
	return s.batch.Write(v.report)
}

func (s *jsonSink) close() error {
	switch {
	case s.batch != nil:
		return s.batch.Close()
	case s.first != nil:
		b, err := reportjson.Marshal(s.first.report, s.lang)
		if err != nil {
			return err
		}
		_, err = s.w.Write(append(b, '\n'))
		return err
	default: // a batch with no sheets
		b := reportjson.NewBatchWriter(s.w, s.lang)
		return b.Close()
	}
}

// checkReportFlags checks the --format and --lang of a command that
// prints a report (validate, verify).
func checkReportFlags(format, lang string) error {
	if format != "text" && format != "json" {
		return fmt.Errorf("%w: --format must be text or json, not %q", errUsage, format)
	}
	if lang != "en" && lang != "it" {
		return fmt.Errorf("%w: --lang must be en or it, not %q", errUsage, lang)
	}
	return nil
}
