-- The SQLite twin of migrations/postgres/00003_imports.sql, which sets the
-- compression of the large JSON columns in PostgreSQL. SQLite stores them
-- as they are: nothing to change, the version is kept so both databases
-- number their migrations alike.

-- +goose Up
SELECT 1;

-- +goose Down
SELECT 1;
