package reportjson

import (
	"encoding/json"
	"io"
	"testing"

	"segnapunti/domain"
)

// BenchmarkBatchWriter streams a batch of 100,000 reports (the volume of a
// season's sheets) to io.Discard.
func BenchmarkBatchWriter(b *testing.B) {
	const n = 100000
	r := apiReport(b)
	one, _ := Marshal(r, domain.Italian)
	b.SetBytes(int64(n * len(one)))
	b.ReportAllocs()
	for b.Loop() {
		w := NewBatchWriter(io.Discard, domain.Italian)
		for range n {
			if err := w.Write(r); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMarshal(b *testing.B) {
	r := apiReport(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Marshal(r, domain.English); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodingJSONReport is the yardstick: encoding/json marshalling
// the same report through the Report struct of decode.go.
func BenchmarkEncodingJSONReport(b *testing.B) {
	data, _ := Marshal(apiReport(b), domain.English)
	r, _ := Decode(data)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(r); err != nil {
			b.Fatal(err)
		}
	}
}
