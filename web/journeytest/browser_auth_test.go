package journeytest

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"segnapunti/domain"
	"segnapunti/store/dbtest"
	"segnapunti/web"
	"segnapunti/web/webtest"
)

// UI.md §2, §1: a wrong password is announced (aria-live) and the input
// carries aria-invalid pointing at its message; the right one signs in;
// sign-out ends the session. PostgreSQL.
func TestBrowserSignInAndOut(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	pw := site.CreatePerson(t, domain.RoleReferee, "anna.rossi", "")
	ctx := webtest.NewBrowser(t)

	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/"))
	if u := webtest.Location(t, ctx); !strings.Contains(u, "/login") {
		t.Fatalf("signed-out home went to %s, want /login", u)
	}
	if lang := webtest.Attr(t, ctx, "html", "lang"); lang != "it" {
		t.Errorf(`<html lang=%q>, want "it" by default`, lang)
	}
	webtest.Screenshot(t, ctx, "login")
	webtest.CheckA11y(t, ctx)

	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="username"]`), "anna.rossi"),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), "sbagliata-1"),
		chromedp.Submit(chromedp.CSS(`input[name="password"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[role="alert"] [data-error]`)),
	)
	if msg := webtest.Text(t, ctx, `[role="alert"]`); msg != "Nome utente o password errati." {
		t.Errorf("announced error %q", msg)
	}
	if live := webtest.Attr(t, ctx, "#errors", "aria-live"); live == "" {
		t.Error("the error region is not aria-live")
	}
	if inv := webtest.Attr(t, ctx, `input[name="password"]`, "aria-invalid"); inv != "true" {
		t.Errorf("password aria-invalid=%q, want true", inv)
	}
	desc := webtest.Attr(t, ctx, `input[name="password"]`, "aria-describedby")
	if desc == "" || webtest.Text(t, ctx, "#"+desc) == "" {
		t.Errorf("password aria-describedby=%q does not point at a message", desc)
	}
	if v, _ := chromedp.Run(ctx, chromedp.Value(chromedp.CSS(`input[name="username"]`))); v != "anna.rossi" {
		t.Errorf("the name typed was lost: %q", v)
	}
	webtest.Screenshot(t, ctx, "login-error")
	webtest.CheckA11y(t, ctx)

	webtest.SignIn(t, ctx, site, "anna.rossi", pw)
	if h := webtest.Text(t, ctx, "h1"); h != "I tuoi tornei" {
		t.Errorf("home heading %q", h)
	}
	webtest.Screenshot(t, ctx, "home")
	webtest.CheckA11y(t, ctx)

	// English on request, remembered.
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/?lang=en"))
	if h := webtest.Text(t, ctx, "h1"); h != "Your tournaments" {
		t.Errorf("English home heading %q", h)
	}
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/"))
	if lang := webtest.Attr(t, ctx, "html", "lang"); lang != "en" {
		t.Errorf("the language choice was not remembered: lang=%q", lang)
	}
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/?lang=it"))

	sessions, _ := site.Store.ListSessions(context.Background(), personID(t, site, "anna.rossi"))
	if len(sessions) != 1 {
		t.Fatalf("sessions after sign-in: %d", len(sessions))
	}
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="logout"]`)), chromedp.WaitVisible(chromedp.CSS(`input[name="username"]`)))
	if sessions, _ := site.Store.ListSessions(context.Background(), personID(t, site, "anna.rossi")); len(sessions) != 0 {
		t.Errorf("sign-out left %d sessions", len(sessions))
	}
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/"))
	if u := webtest.Location(t, ctx); !strings.Contains(u, "/login") {
		t.Errorf("after sign-out / went to %s", u)
	}
}

// UI.md §2: the one-time setup link creates the first admin, then stops
// working. Embedded SQLite.
func TestBrowserFirstRunSetup(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.SQLite(t))
	link, ok, err := web.FirstRunLink(context.Background(), site.Store)
	if err != nil || !ok {
		t.Fatalf("FirstRunLink = %q, %v, %v", link, ok, err)
	}
	ctx := webtest.NewBrowser(t)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+link), chromedp.WaitVisible(chromedp.CSS(`input[name="username"]`)))
	webtest.Screenshot(t, ctx, "setup")
	webtest.CheckA11y(t, ctx)
	// Too short a password: refused with the field named.
	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="username"]`), "admin"),
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), "corta"),
		chromedp.Submit(chromedp.CSS(`input[name="password"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#password-error`)),
	)
	if inv := webtest.Attr(t, ctx, `input[name="password"]`, "aria-invalid"); inv != "true" {
		t.Errorf("short password: aria-invalid=%q", inv)
	}
	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`input[name="password"]`), "segreta-lunga"),
		chromedp.Submit(chromedp.CSS(`input[name="password"]`)),
		chromedp.WaitReady(chromedp.CSS(`[data-form="club"]`)),
	)
	if u := webtest.Location(t, ctx); !strings.HasSuffix(u, "/admin") {
		t.Errorf("after setup at %s, want /admin", u)
	}
	webtest.Screenshot(t, ctx, "admin-empty")
	webtest.CheckA11y(t, ctx)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+link))
	if msg := webtest.Text(t, ctx, "main"); !strings.Contains(msg, "già stato completato") {
		t.Errorf("setup link after setup shows %q", msg)
	}
}

// UI.md §2: an admin creates a club and a club person; the generated
// password is shown once and signs that person in. A person named
// <script>alert(1)</script> is shown as text (a dialog fails the test).
func TestBrowserAdminCreatesClubPerson(t *testing.T) {
	t.Parallel()
	site := webtest.StartSite(t, dbtest.Postgres(t))
	pw := site.CreatePerson(t, domain.RoleAdmin, "admin", "")
	ctx := webtest.NewBrowser(t)
	webtest.SignIn(t, ctx, site, "admin", pw)
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/admin"), openDetails())
	webtest.Run(t, ctx,
		chromedp.SendKeys(chromedp.CSS(`#club-id`), "bc-roma"),
		chromedp.SendKeys(chromedp.CSS(`#club-name`), "Burraco Club Roma"),
		chromedp.Submit(chromedp.CSS(`#club-name`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-club="bc-roma"]`)),
	)
	webtest.Run(t, ctx,
		openDetails(),
		chromedp.SendKeys(chromedp.CSS(`#person-name`), "segreteria.roma"),
		chromedp.SetValue(chromedp.CSS(`#person-role`), "club"),
		chromedp.SetValue(chromedp.CSS(`#person-club`), "bc-roma"),
		chromedp.Submit(chromedp.CSS(`#person-name`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-generated-password="segreteria.roma"]`)),
	)
	generated := webtest.Text(t, ctx, `[data-generated-password] code`)
	if len(generated) < 12 {
		t.Fatalf("generated password %q", generated)
	}
	if role := webtest.Attr(t, ctx, `tr[data-person="segreteria.roma"]`, "data-role"); role != "club" {
		t.Errorf("new person's role %q", role)
	}
	webtest.Screenshot(t, ctx, "admin-person-created")
	webtest.CheckA11y(t, ctx)

	// Hostile name: rendered as text.
	webtest.Run(t, ctx,
		openDetails(),
		chromedp.SendKeys(chromedp.CSS(`#person-name`), "<script>alert(1)</script>"),
		chromedp.SetValue(chromedp.CSS(`#person-role`), "referee"),
		chromedp.Submit(chromedp.CSS(`#person-name`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-generated-password]`)),
	)
	if got := webtest.Text(t, ctx, `[data-referee]`); got != "<script>alert(1)</script>" {
		t.Errorf("hostile name shown as %q", got)
	}
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("main script").length`)); n != 0 {
		t.Errorf("%d script elements in main", n)
	}

	// The new person signs in with the generated password (another browser).
	other := webtest.NewBrowser(t)
	webtest.SignIn(t, other, site, "segreteria.roma", generated)
	if who := webtest.Text(t, other, ".who"); !strings.Contains(who, "segreteria.roma") || !strings.Contains(who, "Circolo") {
		t.Errorf("signed in as %q", who)
	}

	// The admin ends that session on the person's page: it stops at once.
	id := personID(t, site, "segreteria.roma")
	webtest.Run(t, ctx, chromedp.Navigate(site.URL+"/admin/people/"+id), chromedp.WaitVisible(chromedp.CSS(`[data-action="revoke"]`)))
	webtest.Screenshot(t, ctx, "admin-person")
	webtest.CheckA11y(t, ctx)
	// The page is the same before and after the post: wait for the session
	// row to go, not for something already there.
	webtest.Run(t, ctx, chromedp.Click(chromedp.CSS(`[data-action="revoke"]`)), chromedp.WaitNotPresent(chromedp.CSS(`[data-session]`)),
		chromedp.WaitVisible(chromedp.CSS(`#password-heading`)))
	if n, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("[data-session]").length`)); n != 0 {
		t.Errorf("%d sessions listed after revoking", n)
	}
	webtest.Run(t, other, chromedp.Navigate(site.URL+"/"))
	if u := webtest.Location(t, other); !strings.Contains(u, "/login") {
		t.Errorf("a revoked session still opens / (at %s)", u)
	}
}

func personID(t testing.TB, site *webtest.Site, name string) string {
	t.Helper()
	people, err := site.Store.ListPeople(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range people {
		if p.Name == name {
			return p.ID
		}
	}
	t.Fatalf("no person %q", name)
	return ""
}

// openDetails opens every <details> (the admin's creation forms).
func openDetails() chromedp.Action[chromedp.Void] {
	return webtest.JS(`document.querySelectorAll("details").forEach(d => d.open = true)`)
}
