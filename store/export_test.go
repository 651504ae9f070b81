package store

import "context"

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
