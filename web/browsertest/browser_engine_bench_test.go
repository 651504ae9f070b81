package browsertest

import (
	"context"
	"fmt"
	"segnapunti/web/webtest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// fourHands is a full 4-hand fitab-2025 sheet (API §1) with a wrong total
// in hand 4, what a phone checks as the last hand is typed.
const fourHands = `{"ruleset":"fitab-2025","hands_planned":4,"ns":{"id":"1"},"eo":{"id":"3"},"hands":[
{"end":"closed","ns":{"base":300,"points":235,"total":535},"eo":{"base":100,"points":-120,"total":-20}},
{"end":"closed","ns":{"base":0,"points":-55},"eo":{"base":400,"points":180,"total":580}},
{"end":"closed","ns":{"base":350,"points":120},"eo":{"base":200,"points":65}},
{"end":"closed","ns":{"base":400,"points":90,"total":490},"eo":{"base":100,"points":30,"total":150}}]}`

// benchTablePage opens a table page in a fresh Chromium and returns its
// tab once the page is usable.
func benchTablePage(b *testing.B) context.Context {
	b.Helper()
	site, _, _, code := sqliteTable(b)
	ctx := webtest.NewBrowser(b)
	webtest.Run(b, ctx, chromedp.EmulateViewport(360, 800), chromedp.Navigate(site.URL+"/table/"+code), chromedp.WaitVisible(chromedp.CSS(`#hand-form`)))
	return ctx
}

// BenchmarkEngineCheckThrottled ("Speed on a phone"): checking
// a 4-hand sheet with the loaded engine in Chromium with the CPU slowed
// 4× (Emulation.setCPUThrottlingRate). Reported as ms/check; the aim is
// ≤ 20 ms.
func BenchmarkEngineCheckThrottled(b *testing.B) {
	ctx := benchTablePage(b)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("table").dataset.engineReady === "true"`, chromedp.WithPollingTimeout(2*time.Minute))); err != nil {
		b.Fatal(err)
	}
	webtest.Run(b, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: 4})
		return err
	}))
	b.ResetTimer()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[float64](fmt.Sprintf(`(function () {
		var sheet = %q, t0 = performance.now();
		for (var i = 0; i < %d; i++) {
			var r = JSON.parse(segnapuntiCheck(sheet, "it"));
			if (!r.findings.some(function (f) { return f.code === "HAND_TOTAL_MISMATCH"; })) throw new Error("no finding");
		}
		return performance.now() - t0;
	})()`, fourHands, b.N)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(ms/float64(b.N), "ms/check")
}

// BenchmarkEngineLoadFast3G: fetching, compiling and starting
// the engine, uncached, with DevTools' "Fast 3G" conditions (562.5 ms
// latency, 180,000 B/s down, 84,375 B/s up). Reported as ms/load; the aim
// is ≤ 1.5 s.
func BenchmarkEngineLoadFast3G(b *testing.B) {
	ctx := benchTablePage(b)
	webtest.Run(b, ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		// The service worker would answer from its cache, outside the
		// page's emulated network: bypass it, the engine comes uncached.
		if _, err := cdp.Call(ctx, tg, network.SetBypassServiceWorker, network.SetBypassServiceWorkerParams{Bypass: true}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: 562.5, DownloadThroughput: 180000, UploadThroughput: 84375}},
		}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, network.OverrideNetworkState, network.OverrideNetworkStateParams{Latency: 562.5, DownloadThroughput: 180000, UploadThroughput: 84375})
		return err
	}))
	b.ResetTimer()
	var total, bytes float64
	for i := 0; i < b.N; i++ {
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(async function () {
			var main = document.getElementById("table"), t0 = performance.now();
			var go = new Go();
			var res = await WebAssembly.instantiateStreaming(fetch(main.dataset.engine, { cache: "no-store" }), go.importObject);
			go.run(res.instance);
			var ms = performance.now() - t0;
			var e = performance.getEntriesByType("resource").filter(function (r) { return r.name.indexOf("/engine/") >= 0; }).pop();
			performance.clearResourceTimings();
			return [ms, e ? e.transferSize : -1];
		})()`, chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		total += got[0]
		bytes = got[1]
	}
	b.ReportMetric(total/float64(b.N), "ms/load")
	b.ReportMetric(bytes, "B/transfer")
}
