package store_test

import (
	"context"
	"errors"
	"testing"

	"segnapunti/domain"
	"segnapunti/store"
	"segnapunti/store/dbtest"
)

// The public address is a stored setting an admin changes;
// storing again replaces it, an empty value clears it.
func TestSettings(t *testing.T) {
	dbtest.Run(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		if _, err := db.Setting(ctx, store.SettingPublicURL); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("unset setting: %v, want not found", err)
		}
		if err := db.PutSetting(ctx, store.SettingPublicURL, "http://192.168.1.20:8080", "admin"); err != nil {
			t.Fatal(err)
		}
		if err := db.PutSetting(ctx, store.SettingPublicURL, "https://torneo.example.it", "anna"); err != nil {
			t.Fatal(err)
		}
		if v, err := db.Setting(ctx, store.SettingPublicURL); err != nil || v != "https://torneo.example.it" {
			t.Fatalf("setting after two writes = %q, %v; want the second", v, err)
		}
		if err := db.PutSetting(ctx, store.SettingPublicURL, "", "anna"); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Setting(ctx, store.SettingPublicURL); !errors.Is(err, domain.ErrNotFound) {
			t.Fatalf("cleared setting: %v, want not found", err)
		}
	})
}
