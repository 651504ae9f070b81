-- The instance's settings that an admin changes from /admin (issue 22).
-- The SQLite twin of migrations/postgres/00018_site_settings.sql.

-- +goose Up
CREATE TABLE site_settings (
    key        TEXT NOT NULL PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    CONSTRAINT site_settings_value_check CHECK (length(value) <= 2048)
) STRICT;

-- +goose Down
DROP TABLE site_settings;
