package store

import (
	"context"
	"errors"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"segnapunti/domain"
)

// The instance's settings that an admin changes from the pages:
// one value per key.

// SettingPublicURL is the address players' phones open (QR codes, printed
// sheets, links), when the environment does not fix it.
const SettingPublicURL = "public_url"

type settingRow struct {
	Key       string  `gorm:"column:key;primaryKey"`
	Value     string  `gorm:"column:value"`
	UpdatedBy string  `gorm:"column:updated_by"`
	UpdatedAt instant `gorm:"column:updated_at"`
}

func (settingRow) TableName() string { return "site_settings" }

// Setting returns a setting's value; a setting never stored (or cleared)
// is ErrNotFound.
func (db *DB) Setting(ctx context.Context, key string) (string, error) {
	var row settingRow
	err := db.readDB(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", errorf(domain.ErrNotFound, "setting %q", key)
	}
	if err != nil {
		return "", translate(err, "read setting")
	}
	return row.Value, nil
}

// PutSetting stores a setting's value (an empty value clears it), saying
// who changed it.
func (db *DB) PutSetting(ctx context.Context, key, value, by string) error {
	q := db.gorm.WithContext(ctx)
	if value == "" {
		return translate(q.Where("key = ?", key).Delete(&settingRow{}).Error, "clear setting")
	}
	row := settingRow{Key: key, Value: value, UpdatedBy: by, UpdatedAt: instant(db.stamp())}
	err := q.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "key"}},
		DoUpdates: clause.AssignmentColumns([]string{"value", "updated_by", "updated_at"}),
	}).Create(&row).Error
	return translate(err, "store setting")
}
