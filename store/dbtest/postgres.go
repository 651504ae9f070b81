package dbtest

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx" for the admin connection

	"segnapunti/store"
)

// pgServer is the PostgreSQL server of this test package.
type pgServer struct {
	base    *url.URL // the maintenance database; test databases differ in path
	admin   *sql.DB
	source  string // how it was chosen, for messages
	startup time.Duration

	// A throwaway server started by this package.
	dir     string // temporary folder: data/, the socket, the log
	bindir  string
	cred    *syscall.Credential // run as this user (root cannot run PostgreSQL)
	exited  chan error          // receives cmd.Wait's result once the server has gone
	running bool

	templateOnce sync.Once
	template     string // migrated database that test databases copy
	templateErr  error
}

var (
	pgOnce sync.Once
	pg     *pgServer
	pgErr  error
)

// server returns the package's server, choosing (and maybe starting) it on
// first use.
func server(t testing.TB) *pgServer {
	t.Helper()
	if !mainCalled.Load() {
		t.Fatal("dbtest: PostgreSQL tests need `func TestMain(m *testing.M) { dbtest.Main(m) }` in the package, so the server is stopped at the end")
	}
	first := false
	pgOnce.Do(func() {
		first = true
		pg, pgErr = choosePostgres()
	})
	if pgErr != nil {
		t.Fatalf("dbtest: no PostgreSQL for the tests: %v", pgErr)
	}
	if first {
		t.Logf("dbtest: PostgreSQL: %s, ready in %s", pg.source, pg.startup.Round(time.Millisecond))
	}
	return pg
}

// choosePostgres picks the server: DATABASE_URL, a throwaway server from
// the local binaries, or 127.0.0.1:5432.
func choosePostgres() (*pgServer, error) {
	begin := time.Now()
	if dsn := os.Getenv("DATABASE_URL"); dsn != "" {
		srv, err := connect(dsn, "DATABASE_URL "+redact(dsn), 10*time.Second)
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL is set but unusable: %w", err)
		}
		srv.startup = time.Since(begin)
		return srv, nil
	}
	bindir, binErr := findBinaries()
	if binErr == nil {
		srv, err := startThrowaway(bindir)
		if err != nil {
			return nil, fmt.Errorf("starting a throwaway server from %s: %w", bindir, err)
		}
		srv.startup = time.Since(begin)
		return srv, nil
	}
	const local = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	if c, err := net.DialTimeout("tcp", "127.0.0.1:5432", time.Second); err == nil {
		c.Close()
		srv, err := connect(local, "127.0.0.1:5432", 5*time.Second)
		if err != nil {
			return nil, fmt.Errorf("no DATABASE_URL, %v, and 127.0.0.1:5432 answers but %w", binErr, err)
		}
		srv.startup = time.Since(begin)
		return srv, nil
	}
	return nil, fmt.Errorf("DATABASE_URL is not set, %v, and nothing listens on 127.0.0.1:5432; "+
		"set DATABASE_URL=postgres://... or install the PostgreSQL server (apt-get install postgresql-15)", binErr)
}

// connect opens the admin connection and waits up to wait for the server.
func connect(dsn, source string, wait time.Duration) (*pgServer, error) {
	u, err := url.Parse(dsn)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return nil, fmt.Errorf("want a postgres:// URL, got %q", redact(dsn))
	}
	admin, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	admin.SetMaxOpenConns(4)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	for {
		err = admin.PingContext(ctx)
		if err == nil {
			return &pgServer{base: u, admin: admin, source: source}, nil
		}
		select {
		case <-ctx.Done():
			admin.Close()
			return nil, err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// findBinaries finds a folder with initdb, postgres and pg_ctl.
func findBinaries() (string, error) {
	candidates := []string{"/usr/lib/postgresql/15/bin"}
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		candidates = append(candidates, strings.TrimSpace(string(out)))
	}
	if dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin"); len(dirs) > 0 {
		candidates = append(candidates, dirs...)
	}
	for _, dir := range candidates {
		ok := true
		for _, bin := range []string{"initdb", "postgres", "pg_ctl"} {
			if _, err := os.Stat(filepath.Join(dir, bin)); err != nil {
				ok = false
			}
		}
		if ok {
			return dir, nil
		}
	}
	return "", fmt.Errorf("no PostgreSQL server binaries (initdb, postgres, pg_ctl) in %s", strings.Join(candidates, ", "))
}

// startThrowaway runs initdb and starts a server listening only on a Unix
// socket in a new temporary folder, so test packages running in parallel
// each have their own. Durability is off: the data dies with the tests.
func startThrowaway(bindir string) (srv *pgServer, err error) {
	parent := os.TempDir()
	if len(parent) > 60 { // a socket path is limited to 107 bytes
		parent = "/tmp"
	}
	dir, err := os.MkdirTemp(parent, "segnapunti-pg-")
	if err != nil {
		return nil, err
	}
	srv = &pgServer{dir: dir, bindir: bindir, exited: make(chan error, 1)}
	defer func() {
		if err != nil {
			srv.stop()
		}
	}()
	// initdb and postgres refuse to run as root: run them as "postgres".
	if os.Geteuid() == 0 {
		cred, err := postgresUser()
		if err != nil {
			return nil, err
		}
		srv.cred = cred
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bindir, "initdb"), "--auth=trust", "--no-sync", "--no-instructions",
		"--username=postgres", "--encoding=UTF8", "--locale=C", "-D", data)
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: srv.cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %w\n%s", err, out)
	}
	logPath := filepath.Join(dir, "postgres.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	defer logFile.Close() // the child has its own descriptor
	cmd := exec.Command(filepath.Join(bindir, "postgres"), "-D", data, "-k", dir,
		"-c", "listen_addresses=",
		"-c", "fsync=off",
		"-c", "synchronous_commit=off",
		"-c", "full_page_writes=off",
		"-c", "max_connections=300",
	)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Pdeathsig: if the test binary dies without reaching Main's cleanup
	// (a panic, a timeout), the kernel kills the server too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: srv.cred, Pdeathsig: syscall.SIGKILL}
	started := make(chan error, 1)
	go func() {
		// Pdeathsig fires when the thread that started the child exits;
		// keep this goroutine on its thread for the server's lifetime.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		srv.exited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("start postgres: %w", err)
	}
	srv.running = true
	srv.base = &url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/postgres",
		RawQuery: url.Values{"host": {dir}, "sslmode": {"disable"}}.Encode()}
	srv.source = "throwaway server from " + bindir + " in " + dir
	srv.admin, err = sql.Open("pgx", srv.base.String())
	if err != nil {
		return nil, err
	}
	srv.admin.SetMaxOpenConns(4)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = srv.admin.PingContext(ctx)
		cancel()
		if err == nil {
			return srv, nil
		}
		select {
		case werr := <-srv.exited:
			srv.exited <- werr
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("postgres exited (%v):\n%s", werr, log)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			return nil, fmt.Errorf("postgres not ready after 30s: %v\n%s", err, log)
		}
	}
}

func postgresUser() (*syscall.Credential, error) {
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, and initdb refuses root: %w", err)
	}
	uid, err := strconv.ParseUint(u.Uid, 10, 32)
	if err != nil {
		return nil, err
	}
	gid, err := strconv.ParseUint(u.Gid, 10, 32)
	if err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// stop stops a throwaway server (pg_ctl -m immediate: no checkpoint, the
// data is thrown away) and removes its folder.
func (s *pgServer) stop() error {
	if s.admin != nil {
		s.admin.Close()
	}
	if s.dir == "" {
		return nil
	}
	defer os.RemoveAll(s.dir)
	if !s.running {
		return nil
	}
	select {
	case <-s.exited:
		return nil // never started, or already gone
	default:
	}
	stop := exec.Command(filepath.Join(s.bindir, "pg_ctl"), "-D", filepath.Join(s.dir, "data"), "-m", "immediate", "-w", "stop")
	stop.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	var out bytes.Buffer
	stop.Stdout, stop.Stderr = &out, &out
	stopErr := stop.Run()
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		return fmt.Errorf("postgres in %s did not stop (pg_ctl: %v %s)", s.dir, stopErr, out.String())
	}
	return nil
}

// shutdownPostgres is Main's cleanup.
func shutdownPostgres() error {
	if pg == nil {
		return nil
	}
	var errs []error
	if pg.template != "" {
		// A template cannot be dropped; make it a plain database first.
		_, err := pg.admin.Exec("ALTER DATABASE " + quoteIdent(pg.template) + " WITH IS_TEMPLATE false")
		errs = append(errs, err, pg.dropDatabase(pg.template))
	}
	begin := time.Now()
	errs = append(errs, pg.stop())
	if testing.Verbose() && pg.dir != "" {
		fmt.Fprintf(os.Stderr, "dbtest: PostgreSQL started in %s, stopped in %s\n",
			pg.startup.Round(time.Millisecond), time.Since(begin).Round(time.Millisecond))
	}
	return errors.Join(errs...)
}

// createDatabase creates a database with a random name: a copy of the
// migrated template (migrated true) or an empty one.
func (s *pgServer) createDatabase(migrated bool) (string, error) {
	name := randomName("segnapunti_test_")
	stmt := "CREATE DATABASE " + quoteIdent(name)
	if migrated {
		s.templateOnce.Do(s.makeTemplate)
		if s.templateErr != nil {
			return "", fmt.Errorf("template database: %w", s.templateErr)
		}
		stmt += " TEMPLATE " + quoteIdent(s.template)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.admin.ExecContext(ctx, stmt); err != nil {
		return "", fmt.Errorf("%s: %w", stmt, err)
	}
	return name, nil
}

// makeTemplate creates and migrates the database every test database
// copies: CREATE DATABASE ... TEMPLATE is faster than migrating each one.
func (s *pgServer) makeTemplate() {
	name := randomName("segnapunti_template_")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.admin.ExecContext(ctx, "CREATE DATABASE "+quoteIdent(name)); err != nil {
		s.templateErr = err
		return
	}
	s.template = name
	db, err := store.Open(ctx, s.databaseURL(name), nil)
	if err != nil {
		s.templateErr = err
		return
	}
	// No connection may stay open on a template while it is copied.
	if s.templateErr = db.Close(); s.templateErr != nil {
		return
	}
	// Nor may autovacuum visit it (CREATE DATABASE would wait for the
	// worker); it skips databases that allow no connections.
	_, s.templateErr = s.admin.ExecContext(ctx, "ALTER DATABASE "+quoteIdent(name)+" WITH IS_TEMPLATE true ALLOW_CONNECTIONS false")
}

func (s *pgServer) dropDatabase(name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// FORCE ends connections a test left open (PostgreSQL 13+).
	if _, err := s.admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+quoteIdent(name)+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

func (s *pgServer) databaseURL(name string) string {
	u := *s.base
	u.Path = "/" + name
	u.RawPath = ""
	return u.String()
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// redact hides a password in a URL for messages.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	return u.Redacted()
}
