package domain

import "testing"

// FuzzAppendMessage: for any format and integers, AppendMessage writes the
// bytes Message returns (fmt's), whether it formats them itself (%d and
// %% only, as many %d as integers) or hands them to fmt.
func FuzzAppendMessage(f *testing.F) {
	f.Add("base %d has several readings", "la base %d ammette più letture", 2, 1, 300, 0, 0, 1)
	f.Add("%d + %d is %d, not %d", "", 0, 0, 5, -7, 100000, 3)
	f.Add("50%% of %d", "il 50%% di %d", 4, 0, -1, 0, 0, 1)
	f.Add("a stray %", "%s and %v", 1, 1, 0, 0, 0, 0)
	f.Add("%d%d%d", "%%%d", 0, 0, 1, 2, 3, 3)
	f.Add("", "", 3, 1, 0, 0, 0, 0)
	f.Fuzz(func(t *testing.T, en, it string, hand, line, a, b, c, n int) {
		fd := Finding{text: lazyText{en: en, it: it, hand: hand, line: Line(line & 1), ints: [3]int{a, b, c}, n: n & 3}}
		for _, l := range []Lang{English, Italian} {
			if got, want := string(fd.AppendMessage(nil, l)), fd.Message(l); got != want {
				t.Fatalf("%s: AppendMessage %q, Message %q", l, got, want)
			}
		}
	})
}

func TestAppendMessageSetTexts(t *testing.T) {
	fd := Finding{MessageEN: "an English text with 100%", MessageIT: "un testo"}
	for _, l := range []Lang{English, Italian} {
		if got, want := string(fd.AppendMessage(nil, l)), fd.Message(l); got != want {
			t.Errorf("%s: AppendMessage %q, Message %q", l, got, want)
		}
	}
}
