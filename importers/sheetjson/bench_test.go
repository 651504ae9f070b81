package sheetjson

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"segnapunti/domain"
)

// The target: decoding plus domain.Validate within 1.5× of a bare
// encoding/json decode of the same bytes. Compare
//
//	BenchmarkDecodeSheet           with BenchmarkBareEncodingJSON/sheet/*
//	BenchmarkDecodeBatch           with BenchmarkBareEncodingJSON/batch/*
//	BenchmarkDecodeAndValidate     with BenchmarkBareEncodingJSON/batch/*
//
// go test -run '^$' -bench . -benchmem ./importers/sheetjson/

const benchBatchSize = 10000

var benchData = sync.OnceValues(func() (sheet, batch []byte) {
	sheets := genSheets(benchBatchSize)
	one, err := Encode(sheets[0])
	if err != nil {
		panic(err)
	}
	all, err := EncodeBatch(sheets)
	if err != nil {
		panic(err)
	}
	return one, all
})

func BenchmarkDecodeSheet(b *testing.B) {
	sheet, _ := benchData()
	b.SetBytes(int64(len(sheet)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode(sheet); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBatch(b *testing.B) {
	_, batch := benchData()
	b.SetBytes(int64(len(batch)))
	b.ReportAllocs()
	for b.Loop() {
		sheets, _, err := Decode(batch)
		if err != nil || len(sheets) != benchBatchSize {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecoderStream reads the batch through the streaming decoder, as
// a file of any size is read.
func BenchmarkDecoderStream(b *testing.B) {
	_, batch := benchData()
	b.SetBytes(int64(len(batch)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(batch))
		n := 0
		for {
			_, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != benchBatchSize {
			b.Fatal(n)
		}
	}
}

func BenchmarkDecodeAndValidate(b *testing.B) {
	_, batch := benchData()
	b.SetBytes(int64(len(batch)))
	b.ReportAllocs()
	for b.Loop() {
		d := NewDecoder(bytes.NewReader(batch))
		for {
			s, err := d.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			_ = domain.Validate(s)
		}
	}
}

// BenchmarkBareEncodingJSON is the yardstick: json.Unmarshal of the same
// bytes with no checks at all, into map[string]any and into the wire
// structs.
func BenchmarkBareEncodingJSON(b *testing.B) {
	sheet, batch := benchData()
	run := func(data []byte, v func() any) func(b *testing.B) {
		return func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := json.Unmarshal(data, v()); err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.Run("sheet/map", run(sheet, func() any { return new(map[string]any) }))
	b.Run("sheet/wire", run(sheet, func() any { return new(wireSheet) }))
	b.Run("batch/map", run(batch, func() any { return new(map[string]any) }))
	b.Run("batch/wire", run(batch, func() any { return new(struct{ Sheets []wireSheet }) }))
}

func BenchmarkEncodeSheet(b *testing.B) {
	s := genSheets(1)[0]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Encode(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeParts splits BenchmarkDecodeSheet: what encoding/json
// (v1) and the library we decode with (v2) cost, and what convert and
// validation add.
func BenchmarkDecodeParts(b *testing.B) {
	sheet, _ := benchData()
	var w wireSheet
	if err := json.Unmarshal(sheet, &w); err != nil {
		b.Fatal(err)
	}
	b.Run("unmarshal", func(b *testing.B) {
		for b.Loop() {
			var w wireSheet
			_ = json.Unmarshal(sheet, &w)
		}
	})
	b.Run("unmarshal-v2", func(b *testing.B) {
		for b.Loop() {
			var w wireSheet
			if err := jsonv2.Unmarshal(sheet, &w, unmarshalOptions); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		s, p := convert(&w)
		if p != nil {
			b.Fatal(p.detail)
		}
		for b.Loop() {
			_ = domain.Validate(s)
		}
	})
	b.Run("convert", func(b *testing.B) {
		for b.Loop() {
			if _, p := convert(&w); p != nil {
				b.Fatal(p.detail)
			}
		}
	})
}

// BenchmarkDecoderPaths compares the decoder's paths on the same batch:
// the fast path from the stream (what NewDecoder does), the library on
// each framed sheet (noFast), and the library alone in one pass (onePass,
// the path before the fast path).
func BenchmarkDecoderPaths(b *testing.B) {
	_, batch := benchData()
	for _, c := range []struct {
		name            string
		noFast, onePass bool
	}{{"fast", false, false}, {"framed-library", true, false}, {"one-pass-library", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(batch)))
			b.ReportAllocs()
			for b.Loop() {
				d := NewDecoder(bytes.NewReader(batch))
				d.noFast, d.onePass = c.noFast, c.onePass
				n := 0
				for {
					_, err := d.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						b.Fatal(err)
					}
					n++
				}
				if n != benchBatchSize {
					b.Fatal(n)
				}
			}
		})
	}
}
