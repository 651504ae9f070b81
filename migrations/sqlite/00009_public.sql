-- Public tournaments (UI.md §7, API §4.2): once its club says so, a
-- tournament's standings, rounds and cards are readable without a token.
-- migrations/postgres/00009_public.sql is the PostgreSQL twin.

-- +goose Up
ALTER TABLE tournaments ADD COLUMN public INTEGER NOT NULL DEFAULT 0 CHECK (public IN (0, 1));

-- +goose Down
ALTER TABLE tournaments DROP COLUMN public;
