package store

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// Exec runs a raw statement (with ? placeholders) for tests of the schema's
// own constraints, translating its error like every repository method.
func Exec(ctx context.Context, db *DB, query string, args ...any) error {
	return translate(db.gorm.WithContext(ctx).Exec(query, args...).Error, "exec")
}

// Scan runs a raw query into dest (a pointer to a slice of structs or of
// one column's values).
func Scan(ctx context.Context, db *DB, dest any, query string, args ...any) error {
	return translate(db.gorm.WithContext(ctx).Raw(query, args...).Scan(dest).Error, "scan")
}

// PipelineScan runs the statements as one pipeline (withPgx, as the sheet
// write does) and scans the first column of each one's single row.
func PipelineScan(ctx context.Context, db *DB, queries ...string) ([]int64, error) {
	out := make([]int64, len(queries))
	err := db.withPgx(ctx, func(pc *pgx.Conn) error {
		var b pgx.Batch
		for _, q := range queries {
			b.Queue(q)
		}
		br := pc.SendBatch(ctx, &b)
		for i := range queries {
			if err := br.QueryRow().Scan(&out[i]); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
	return out, err
}
