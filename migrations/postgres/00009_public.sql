-- Public tournaments (UI.md §7, API §4.2): once its club says so, a
-- tournament's standings, rounds and cards are readable without a token.
-- migrations/sqlite/00009_public.sql is the SQLite twin.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN public boolean NOT NULL DEFAULT false;

-- +goose Down
ALTER TABLE tournaments DROP COLUMN public;
