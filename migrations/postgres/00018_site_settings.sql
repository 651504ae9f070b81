-- The instance's settings that an admin changes from /admin (issue 22):
-- one row per key. The first is public_url, the address players' phones
-- open (QR codes, printed sheets and links carry it) when the environment
-- does not fix it (SEGNAPUNTI_PUBLIC_URL).
-- migrations/sqlite/00018_site_settings.sql is the SQLite twin.

-- +goose Up
CREATE TABLE site_settings (
    key        text        NOT NULL PRIMARY KEY,
    value      text        NOT NULL,
    updated_by text        NOT NULL,
    updated_at timestamptz NOT NULL,
    CONSTRAINT site_settings_value_check CHECK (length(value) <= 2048)
);

-- +goose Down
DROP TABLE site_settings;
