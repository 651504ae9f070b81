package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"segnapunti/api"
	"segnapunti/app"
	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/web"
	"segnapunti/web/clientip"
)

// dbConfig is where the database is: DATABASE_URL (PostgreSQL) wins over
// the embedded file (--db, SEGNAPUNTI_DB, default segnapunti.db), API §3.
type dbConfig struct {
	file string
}

func (c *dbConfig) register(fs *flag.FlagSet, getenv func(string) string) {
	def := getenv("SEGNAPUNTI_DB")
	if def == "" {
		def = "segnapunti.db"
	}
	fs.StringVar(&c.file, "db", def, "embedded database file, used when DATABASE_URL is not set (env SEGNAPUNTI_DB)")
}

// dsn is what store.Open takes: a postgres:// URL or a file path.
func (c *dbConfig) dsn(getenv func(string) string) string {
	if u := getenv("DATABASE_URL"); u != "" {
		return u
	}
	return c.file
}

// newLogger writes JSON when stderr is not a terminal (a service under a
// supervisor), readable text when it is.
func newLogger(w io.Writer) *slog.Logger { return newLoggerAt(w, slog.LevelInfo) }

// newLoggerAt is newLogger keeping the lines of level and above (serve:
// SEGNAPUNTI_LOG_LEVEL; at debug, the successful reads and validates too).
func newLoggerAt(w io.Writer, level slog.Level) *slog.Logger {
	opts := &slog.HandlerOptions{Level: level}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			return slog.New(slog.NewTextHandler(w, opts))
		}
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

// parseFlags parses a command's flags; --help prints them and is no error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	return nil
}

// Server timeouts: slow clients cannot hold connections, and an export may
// stream for a while.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 5 * time.Minute
	idleTimeout       = 2 * time.Minute
	shutdownGrace     = 20 * time.Second
)

// runServe implements `segnapunti serve`.
func runServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	defAddr := getenv("SEGNAPUNTI_ADDR")
	if defAddr == "" {
		defAddr = ":8080"
	}
	addr := fs.String("addr", defAddr, "listen address (env SEGNAPUNTI_ADDR)")
	var db dbConfig
	db.register(fs, getenv)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: segnapunti serve [--addr :8080] [--db segnapunti.db]\n\n"+
			"Runs the service: the web pages at / and the REST API at /v1. DATABASE_URL (postgres://...)\n"+
			"selects PostgreSQL; without it the embedded database file is used. Pending migrations are\n"+
			"applied at start. On first run (nobody can sign in yet) it logs a one-time /setup?code=... link\n"+
			"that creates the administrator. Env SEGNAPUNTI_TRUST_PROXY=true trusts X-Forwarded-Proto;\n"+
			"SEGNAPUNTI_TRUSTED_PROXIES (CIDRs, comma-separated, e.g. 127.0.0.1,10.0.0.0/8) names the proxies\n"+
			"whose X-Forwarded-For gives the client's address (the key of the sign-in and table-code limits).\n"+
			"Env SEGNAPUNTI_LOG_LEVEL (debug, info, warn, error; default info): one log line per write and per\n"+
			"refused request at info; successful reads and validates only at debug.\n"+
			"Env SEGNAPUNTI_PUBLIC_URL (e.g. http://192.168.1.20:8080) is the address players' phones open:\n"+
			"QR codes, printed sheets and links carry it. Without it, the address set on /admin, else this\n"+
			"machine's LAN address (first non-loopback IPv4 address of an interface that is up).\n"+
			"Env SEGNAPUNTI_PG_SHEET_WRITERS (PostgreSQL; default 4 per core, at least 8): sheet writes run at\n"+
			"once, the others queue in arrival order.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	trusted, err := clientip.ParseTrusted(getenv("SEGNAPUNTI_TRUSTED_PROXIES"))
	if err != nil {
		return fmt.Errorf("%w: SEGNAPUNTI_TRUSTED_PROXIES: %v", errUsage, err)
	}
	publicURL := ""
	if v := getenv("SEGNAPUNTI_PUBLIC_URL"); v != "" {
		var err error
		if publicURL, err = app.NormalizePublicURL(v); err != nil {
			return fmt.Errorf("%w: SEGNAPUNTI_PUBLIC_URL: %v", errUsage, err)
		}
	}
	var level slog.Level
	if v := getenv("SEGNAPUNTI_LOG_LEVEL"); v != "" {
		if err := level.UnmarshalText([]byte(v)); err != nil {
			return fmt.Errorf("%w: SEGNAPUNTI_LOG_LEVEL: %q is not debug, info, warn or error", errUsage, v)
		}
	}
	sheetWriters := 0 // the store's default
	if v := getenv("SEGNAPUNTI_PG_SHEET_WRITERS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			return fmt.Errorf("%w: SEGNAPUNTI_PG_SHEET_WRITERS: %q is not a number from 1 to 1000", errUsage, v)
		}
		sheetWriters = n
	}
	log := newLoggerAt(stderr, level)
	st, err := store.Open(ctx, db.dsn(getenv), log)
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer st.Close()
	st.SetSheetWriters(sheetWriters)

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", *addr, err)
	}
	ops := app.New(st, nil, log)
	lan := ""
	if ifaces, err := systemInterfaces(); err == nil {
		lan = lanURL(ln.Addr(), ifaces)
	}
	pages, err := web.New(web.Deps{Store: st, App: ops, Log: log, TrustForwardedProto: getenv("SEGNAPUNTI_TRUST_PROXY") == "true",
		PublicURL: publicURL, LANURL: lan})
	if err != nil {
		return fmt.Errorf("pages: %w", err)
	}
	srv := &http.Server{
		// Behind trusted proxies, every handler reads the client's own
		// address (rate limits key on it), not the proxy's.
		Handler:           clientip.Middleware(trusted, web.Site(api.NewServer(api.Config{App: ops}, st, log), pages)),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	srv.RegisterOnShutdown(ops.Close) // open event streams end, the listener stops
	// Listen to the other replicas all the time (one connection on
	// PostgreSQL), not only while a live page is open: a token revoked
	// on another replica is forgotten here at once.
	ops.Events().Hold()
	log.Info("segnapunti listening", "addr", ln.Addr().String(), "database", st.Dialect())
	switch {
	case publicURL != "":
		log.Info("phones open the address of SEGNAPUNTI_PUBLIC_URL", "public_url", publicURL)
	case lan != "":
		log.Info("phones on this network open this machine's LAN address (unless /admin sets another)", "lan_url", lan)
	default:
		log.Warn("no LAN address found: phones cannot open this machine; set SEGNAPUNTI_PUBLIC_URL or the address on /admin")
	}
	// UI.md §2: on first run, one line with the one-time link that creates
	// the first admin.
	if link, ok, err := web.FirstRunLink(ctx, st); err != nil {
		return fmt.Errorf("first run: %w", err)
	} else if ok {
		log.Info("first run: open this link once to create the administrator", "url", "http://"+browserHost(ln.Addr())+link)
	}
	if n, err := st.DeleteExpiredSessions(ctx); err == nil && n > 0 {
		log.Info("expired sessions deleted", "count", n)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	err = srv.Shutdown(sctx)
	// The requests that ended during the shutdown may have published
	// events after the first Close: send them before the database closes.
	ops.Close()
	if err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	return nil
}

// runMigrate implements `segnapunti migrate`: Open applies what is pending.
func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var db dbConfig
	db.register(fs, getenv)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: segnapunti migrate [--db segnapunti.db]\n\n"+
			"Applies the pending database migrations and exits (serve also applies them at start).\n"+
			"DATABASE_URL (postgres://...) selects PostgreSQL; without it the embedded database file.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	st, err := store.Open(ctx, db.dsn(getenv), newLogger(stderr))
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer st.Close()
	_, err = fmt.Fprintf(stdout, "migrations applied (%s)\n", st.Dialect())
	return err
}

// tokenUsage describes `segnapunti token`.
const tokenUsage = `Usage: segnapunti token create --role ROLE --name TEXT [--club ID] [--db segnapunti.db]

Creates an API token on the service's database and prints it once (only its
hash is kept). Send it as "Authorization: Bearer <token>". Roles: club (needs
--club; the club is created if new), referee (--name is the name tournaments
assign), federation, admin. List and revoke tokens with GET /v1/tokens and
DELETE /v1/tokens/{id}.

`

// runToken implements `segnapunti token create`.
func runToken(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) > 0 && asksHelp(args[:1]) {
		fmt.Fprint(stderr, tokenUsage) // stdout: see run
		return errHelp
	}
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("%w: want 'segnapunti token create --role ROLE --name TEXT [--club ID]'", errUsage)
	}
	fs := flag.NewFlagSet("token create", flag.ContinueOnError)
	fs.SetOutput(stderr)
	role := fs.String("role", "", "club, referee, federation or admin")
	name := fs.String("name", "", "who holds the token (a referee's name is how tournaments assign them)")
	club := fs.String("club", "", "the club of a club token; created if new")
	var db dbConfig
	db.register(fs, getenv)
	fs.Usage = func() {
		fmt.Fprint(stderr, tokenUsage)
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	r, err := domain.ParseRole(*role)
	if err != nil {
		return fmt.Errorf("%w: --role: %v", errUsage, err)
	}
	if strings.TrimSpace(*name) == "" {
		return fmt.Errorf("%w: --name is required", errUsage)
	}
	if r == domain.RoleClub && *club == "" {
		return fmt.Errorf("%w: a club token needs --club", errUsage)
	}
	st, err := store.Open(ctx, db.dsn(getenv), newLogger(stderr))
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer st.Close()
	if *club != "" {
		if _, err := st.GetClub(ctx, *club); errors.Is(err, domain.ErrNotFound) {
			if _, err := st.CreateClub(ctx, domain.Club{ID: *club, Name: *club}); err != nil {
				return fmt.Errorf("create club %s: %w", *club, err)
			}
		} else if err != nil {
			return err
		}
	}
	token, _, err := st.CreateToken(ctx, r, *name, *club)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, token)
	return err
}

// browserHost is the listen address as a browser would type it: a
// wildcard address becomes localhost.
func browserHost(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "localhost"
	}
	return net.JoinHostPort(host, port)
}
