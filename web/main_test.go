package web

import (
	"testing"

	"segnapunti/store/dbtest"
)

func TestMain(m *testing.M) { dbtest.Main(m) }
