package verifier

import (
	"testing"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/tournamentfile/filetest"
)

// BenchmarkVerify1000Pairs8Rounds is the budget: verifying a
// 1,000-pair, 8-round tournament file (read, check, re-derive) ≤ 2 s.
func BenchmarkVerify1000Pairs8Rounds(b *testing.B) {
	systems := []domain.PairingSystem{domain.SystemEntryOrder}
	for range 7 {
		systems = append(systems, domain.SystemDanese)
	}
	data, err := tournamentfile.Marshal(filetest.Generate(b, 1000, systems, 11))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		rep, err := File(data, domain.English)
		if err != nil || !rep.OK {
			b.Fatalf("%v %d differences", err, len(rep.Differences))
		}
	}
}
