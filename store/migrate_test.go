package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"segnapunti/domain"
	"segnapunti/migrations"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// emptyDSN is a fresh database with no tables, for each dialect.
func emptyDSN(t *testing.T, dialect string) string {
	if dialect == store.DialectPostgres {
		return dbtest.PostgresURL(t)
	}
	return dbtest.SQLitePath(t)
}

func open(t *testing.T, dsn string) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), dsn, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// fileVersions lists the versions of the embedded files in order (the
// numbers need not be contiguous while branches reserve numbers).
func fileVersions(t *testing.T, dialect string) []int64 {
	t.Helper()
	dir, err := migrations.Dir(dialect)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := fs.Glob(dir, "*.sql")
	out := make([]int64, 0, len(names))
	for _, n := range names {
		var v int64
		fmt.Sscanf(n, "%05d", &v)
		out = append(out, v)
	}
	return out
}

// appliedVersions lists the rows goose recorded, oldest first.
func appliedVersions(t *testing.T, db *store.DB) []int64 {
	t.Helper()
	var vs []int64
	if err := store.Scan(context.Background(), db, &vs, "SELECT version_id FROM goose_db_version WHERE version_id > 0 ORDER BY id"); err != nil {
		t.Fatal(err)
	}
	return vs
}

func forEachDialect(t *testing.T, f func(t *testing.T, dialect string)) {
	for _, d := range migrations.Dialects {
		t.Run(d, func(t *testing.T) { f(t, d) })
	}
}

func TestOpenMigratesAnEmptyDatabase(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		db := open(t, emptyDSN(t, dialect))
		if db.Dialect() != dialect {
			t.Errorf("Dialect() = %q, want %q", db.Dialect(), dialect)
		}
		want := fileVersions(t, dialect)
		if got := appliedVersions(t, db); !slices.Equal(got, want) {
			t.Fatalf("applied versions %v, want %v", got, want)
		}
		if err := db.Ping(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
}

// A second start finds nothing to do and leaves the data alone.
func TestOpenTwiceIsANoOp(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		dsn := emptyDSN(t, dialect)
		first := open(t, dsn)
		if _, err := first.CreateClub(context.Background(), domain.Club{ID: "c1", Name: "Circolo"}); err != nil {
			t.Fatal(err)
		}
		before := appliedVersions(t, first)
		first.Close()

		second := open(t, dsn)
		if got := appliedVersions(t, second); !slices.Equal(got, before) {
			t.Fatalf("versions after second Open %v, want %v", got, before)
		}
		if _, err := second.GetClub(context.Background(), "c1"); err != nil {
			t.Fatalf("club lost by the second Open: %v", err)
		}
	})
}

// Two replicas starting together on one PostgreSQL: the goose session lock
// makes one wait; both succeed and each migration is applied once.
func TestConcurrentOpenOnPostgres(t *testing.T) {
	t.Parallel()
	dsn := dbtest.PostgresURL(t)
	var wg sync.WaitGroup
	dbs := make([]*store.DB, 2)
	errs := make([]error, 2)
	for i := range dbs {
		wg.Go(func() { dbs[i], errs[i] = store.Open(context.Background(), dsn, nil) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("Open %d: %v", i, err)
		}
		defer dbs[i].Close()
	}
	want := fileVersions(t, store.DialectPostgres)
	if got := appliedVersions(t, dbs[0]); !slices.Equal(got, want) {
		t.Fatalf("applied versions %v, want %v (each once)", got, want)
	}
}

// Every Down undoes its Up: down to 0 leaves no table, and up again works.
func TestMigrationsGoDownAndUpAgain(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		dsn := emptyDSN(t, dialect)
		open(t, dsn).Close()
		p, _ := gooseOn(t, dialect, dsn)
		ctx := context.Background()
		if _, err := p.DownTo(ctx, 0); err != nil {
			t.Fatalf("down: %v", err)
		}
		db := open(t, dsn) // Open migrates up again
		if tables := schemaOf(t, db)["table"]; len(tables) == 0 {
			t.Fatal("no tables after up")
		}
		if _, err := p.DownTo(ctx, 0); err != nil {
			t.Fatalf("second down: %v", err)
		}
		if tables := schemaOf(t, db)["table"]; len(tables) != 0 {
			t.Fatalf("tables left after down to 0: %v", tables)
		}
	})
}

// gooseOn is a goose provider of the embedded migrations on the database
// at dsn, through a connection of its own (closed when the test ends).
func gooseOn(t *testing.T, dialect, dsn string) (*goose.Provider, *sql.DB) {
	t.Helper()
	driver, gooseDialect := "pgx", goose.DialectPostgres
	if dialect == store.DialectSQLite {
		driver, gooseDialect, dsn = "sqlite", goose.DialectSQLite3, dsn+"?_pragma=foreign_keys(1)"
	}
	sqlDB, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	dir, _ := migrations.Dir(dialect)
	p, err := goose.NewProvider(gooseDialect, sqlDB, dir, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	return p, sqlDB
}

// The two folders must build the same schema: same tables and columns with
// the same nullability, primary keys, foreign keys with their ON DELETE,
// unique keys, named CHECK constraints and indexes. SQLite's *_type_check
// constraints stand in for PostgreSQL column types (date, json, boolean)
// and are left out.
func TestBothDialectsBuildTheSameSchema(t *testing.T) {
	t.Parallel()
	pg := schemaOf(t, dbtest.Postgres(t))
	lite := schemaOf(t, dbtest.SQLite(t))
	for _, kind := range []string{"table", "column", "pk", "fk", "unique", "check", "index", "view"} {
		if len(pg[kind]) == 0 {
			t.Errorf("postgres: no %s found; the introspection query is wrong", kind)
		}
		if !slices.Equal(pg[kind], lite[kind]) {
			t.Errorf("%s differs:\n only postgres: %v\n only sqlite:   %v", kind, minus(pg[kind], lite[kind]), minus(lite[kind], pg[kind]))
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, s := range a {
		if !slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

var pgSchema = map[string]string{
	"table": `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'goose_db_version'`,
	"column": `SELECT c.table_name || '.' || c.column_name || CASE WHEN c.is_nullable = 'NO' THEN ' NOT NULL' ELSE '' END
		FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.table_name <> 'goose_db_version'`,
	"view": `SELECT v.table_name || '(' || (SELECT string_agg(c.column_name, ',' ORDER BY c.ordinal_position)
			FROM information_schema.columns c WHERE c.table_schema = v.table_schema AND c.table_name = v.table_name) || ')'
		FROM information_schema.views v WHERE v.table_schema = current_schema()`,
	"pk": `SELECT c.conrelid::regclass::text || '(' || (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
			FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) || ')'
		FROM pg_constraint c WHERE c.contype = 'p' AND c.connamespace = current_schema()::regnamespace
		AND c.conrelid::regclass::text <> 'goose_db_version'`,
	"fk": `SELECT c.conrelid::regclass::text || '(' || (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
			FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)
		|| ') -> ' || c.confrelid::regclass::text || '(' || (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
			FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum)
		|| ') ON DELETE ' || CASE c.confdeltype WHEN 'a' THEN 'NO ACTION' WHEN 'r' THEN 'RESTRICT' WHEN 'c' THEN 'CASCADE'
			WHEN 'n' THEN 'SET NULL' ELSE 'SET DEFAULT' END
		FROM pg_constraint c WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace`,
	"unique": `SELECT t.relname || '(' || (SELECT string_agg(a.attname, ',' ORDER BY k.ord)
			FROM unnest(i.indkey::int2[]) WITH ORDINALITY k(attnum, ord) JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum) || ')'
		FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid
		WHERE t.relnamespace = current_schema()::regnamespace AND i.indisunique AND NOT i.indisprimary`,
	"check": `SELECT c.conrelid::regclass::text || '.' || c.conname FROM pg_constraint c
		WHERE c.contype = 'c' AND c.connamespace = current_schema()::regnamespace`,
	"index": `SELECT i.indexname FROM pg_indexes i WHERE i.schemaname = current_schema()
		AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass)`,
}

var sqliteSchema = map[string]string{
	"table": `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version'`,
	"column": `SELECT m.name || '.' || p.name || CASE WHEN p."notnull" THEN ' NOT NULL' ELSE '' END
		FROM sqlite_schema m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'goose_db_version'`,
	"pk": `SELECT m.name || '(' || group_concat(p.name, ',' ORDER BY p.pk) || ')'
		FROM sqlite_schema m JOIN pragma_table_info(m.name) p
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND m.name <> 'goose_db_version' AND p.pk > 0 GROUP BY m.name`,
	"fk": `SELECT m.name || '(' || group_concat(f."from", ',' ORDER BY f.seq) || ') -> ' || f."table"
			|| '(' || group_concat(f."to", ',' ORDER BY f.seq) || ') ON DELETE ' || f.on_delete
		FROM sqlite_schema m JOIN pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' GROUP BY m.name, f.id`,
	"unique": `SELECT m.name || '(' || (SELECT group_concat(ii.name, ',' ORDER BY ii.seqno) FROM pragma_index_info(il.name) ii) || ')'
		FROM sqlite_schema m JOIN pragma_index_list(m.name) il
		WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' AND il."unique" AND il.origin <> 'pk'`,
	"index": `SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL`,
	"view": `SELECT m.name || '(' || group_concat(p.name, ',' ORDER BY p.cid) || ')'
		FROM sqlite_schema m JOIN pragma_table_info(m.name) p WHERE m.type = 'view' GROUP BY m.name`,
}

var checkName = regexp.MustCompile(`CONSTRAINT\s+(\w+)\s+CHECK`)

// schemaOf describes the database's schema as sorted lines per kind.
func schemaOf(t *testing.T, db *store.DB) map[string][]string {
	t.Helper()
	ctx := context.Background()
	queries := pgSchema
	if db.Dialect() == store.DialectSQLite {
		queries = sqliteSchema
	}
	out := map[string][]string{}
	for kind, q := range queries {
		var lines []string
		if err := store.Scan(ctx, db, &lines, q); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		slices.Sort(lines)
		out[kind] = lines
	}
	if db.Dialect() == store.DialectSQLite {
		var tables []struct{ Name, SQL string }
		if err := store.Scan(ctx, db, &tables, `SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`); err != nil {
			t.Fatal(err)
		}
		for _, tb := range tables {
			for _, m := range checkName.FindAllStringSubmatch(tb.SQL, -1) {
				if !strings.HasSuffix(m[1], "_type_check") {
					out["check"] = append(out["check"], tb.Name+"."+m[1])
				}
			}
		}
		// Migration 00013: SQLite cannot add a table constraint or a
		// composite foreign key to an existing table; its triggers enforce
		// what PostgreSQL's constraints do (round_tables' second players).
		var triggers []string
		if err := store.Scan(ctx, db, &triggers, `SELECT name FROM sqlite_schema WHERE type = 'trigger'`); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(triggers, "round_tables_players_insert") && slices.Contains(triggers, "round_tables_players_update") {
			out["check"] = append(out["check"], "round_tables.round_tables_players_check")
			out["fk"] = append(out["fk"],
				"round_tables(tournament_id,ns2_entrant) -> entrants(tournament_id,id) ON DELETE NO ACTION",
				"round_tables(tournament_id,eo2_entrant) -> entrants(tournament_id,id) ON DELETE NO ACTION")
			slices.Sort(out["fk"])
		}
		slices.Sort(out["check"])
	}
	return out
}

func TestOpenRefusesWhatItCannotUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, tc := range []struct{ name, dsn string }{
		{"empty", ""},
		{"blank", "  "},
		{"no path before the query", "?mode=ro"},
		{"SQLite file in a folder that does not exist", t.TempDir() + "/missing/segnapunti.db"},
		{"PostgreSQL that does not answer", "postgres://postgres@127.0.0.1:1/none?sslmode=disable&connect_timeout=2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := store.Open(ctx, tc.dsn, nil)
			if err == nil {
				db.Close()
				t.Fatal("want an error")
			}
		})
	}
}

// ":memory:" is one database per connection; Open keeps a single one.
func TestOpenSQLiteInMemory(t *testing.T) {
	t.Parallel()
	db := open(t, ":memory:")
	ctx := context.Background()
	if _, err := db.CreateClub(ctx, domain.Club{ID: "c1", Name: "Circolo"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.GetClub(ctx, "c1"); err != nil {
		t.Fatal(err)
	}
	tid := setup(t, db)
	if _, _, err := db.AppendHand(ctx, tid, 1, 1, minimalSheet(), minimalSheet().Hands[0], "k", report); err != nil {
		t.Fatal(err)
	}
}

// Migration 00022 moves the results into the sheet rows: every row of the
// table match_results before it comes out of the view match_results after
// it, as it was (not recomputed: a figure no sheet gives proves the copy),
// and a sheet without a result has none until Open computes it. Its Down
// puts them back into a table.
func TestMigrationKeepsResults(t *testing.T) {
	t.Parallel()
	forEachDialect(t, func(t *testing.T, dialect string) {
		ctx := context.Background()
		dsn, db, _ := threeSheets(t, dialect)
		db.Close()
		p, sqlDB := gooseOn(t, dialect, dsn)
		if _, err := p.DownTo(ctx, 21); err != nil {
			t.Fatalf("down to 21: %v", err)
		}
		// Before 00022: a table of results. Table 2's result has a figure
		// no sheet gives; table 3 has none.
		for _, q := range []string{
			"UPDATE match_results SET ns_vp = 17, kind = 'other', differs = TRUE WHERE table_no = 2",
			"DELETE FROM match_results WHERE table_no = 3",
		} {
			if _, err := sqlDB.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		if _, err := p.UpTo(ctx, 22); err != nil {
			t.Fatalf("up to 22: %v", err)
		}
		type result struct {
			Table  int
			NSVP   int
			Kind   string
			SheetV int
		}
		read := func() []result {
			t.Helper()
			rows, err := sqlDB.QueryContext(ctx, "SELECT table_no, ns_vp, kind, sheet_version FROM match_results ORDER BY table_no")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []result
			for rows.Next() {
				var r result
				if err := rows.Scan(&r.Table, &r.NSVP, &r.Kind, &r.SheetV); err != nil {
					t.Fatal(err)
				}
				out = append(out, r)
			}
			return out
		}
		vp := fullSheetOfficial[0].VP
		want := []result{{1, vp, "sum", 1}, {2, 17, "other", 1}}
		if got := read(); !slices.Equal(got, want) {
			t.Fatalf("after 00022: %+v, want %+v", got, want)
		}
		// Down and up again keep them too.
		if _, err := p.DownTo(ctx, 21); err != nil {
			t.Fatalf("down to 21 again: %v", err)
		}
		if _, err := p.UpTo(ctx, 22); err != nil {
			t.Fatalf("up to 22 again: %v", err)
		}
		if got := read(); !slices.Equal(got, want) {
			t.Fatalf("after down and up: %+v, want %+v", got, want)
		}
		// Open computes the missing result (table 3), and leaves the
		// copied ones (same sheet version) alone.
		open(t, dsn).Close()
		want = append(want, result{3, vp, "sum", 1})
		if got := read(); !slices.Equal(got, want) {
			t.Fatalf("after Open: %+v, want %+v", got, want)
		}
	})
}
