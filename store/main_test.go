package store_test

import (
	"testing"

	"segnapunti/store/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
