package browsertest

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"segnapunti/web/webtest"
)

// The phone's engine checks the hand when the digits pause, not while they
// come (table-engine.js): typing 120 one digit every 100 ms shows nothing
// about "1" or "12" (not multiples of 5) under the field, so nothing below
// it moves under a thumb; a wrong total is still said once the typing
// stops.
func TestTableEngineChecksWhenTheDigitsPause(t *testing.T) {
	site, _, _, code := sqliteTable(t)
	ctx := webtest.NewBrowser(t)
	webtest.Run(t, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table/"+code), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	waitJS(t, ctx, `document.getElementById("table").dataset.engineReady === "true"`)
	webtest.Run(t, ctx, typeNumbers(0, map[string]int{"ns.base": 300, "ns.points": 235, "eo.base": 100}))
	waitJS(t, ctx, `!document.getElementById("table").dataset.engineCheck`)

	// From here on: every finding the engine puts on the page, and when
	// each digit came.
	webtest.Run(t, ctx, webtest.JS(`window.shown = []; window.digits = [];
		new MutationObserver(function (ms) { ms.forEach(function (m) { m.addedNodes.forEach(function (n) {
			if (n.dataset && n.dataset.source === "engine" && n.dataset.code) shown.push(n.dataset.code + " " + n.dataset.pointer);
		}); }); }).observe(document.body, {childList: true, subtree: true});
		document.getElementById("hand-form").addEventListener("input", function () { digits.push(performance.now()); })`))
	points := chromedp.CSS(`input[name="hands.0.eo.points"]`)
	for _, d := range "120" {
		webtest.Run(t, ctx, chromedp.SendKeys(points, string(d)), chromedp.Sleep(100*time.Millisecond))
	}
	waitJS(t, ctx, `!document.getElementById("table").dataset.engineCheck`)
	gap, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`Math.max.apply(null, digits.slice(1).map(function (d, i) { return d - digits[i]; }))`))
	if err != nil {
		t.Fatal(err)
	}
	if gap >= 250 {
		t.Skipf("the digits came %.0f ms apart on this machine: a pause, not typing", gap)
	}
	shown, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`shown`))
	if err != nil {
		t.Fatal(err)
	}
	if len(shown) > 0 {
		t.Errorf("typing 120 (digits at most %.0f ms apart) showed %v under the inputs", gap, shown)
	}

	// A wrong total, then a pause: said under the total.
	webtest.Run(t, ctx, chromedp.SendKeys(chromedp.CSS(`input[name="hands.0.eo.total"]`), "300"),
		chromedp.WaitVisible(chromedp.CSS(`[data-source="engine"][data-code="HAND_TOTAL_MISMATCH"][data-pointer="/hands/0/eo/total"]`)))
}
