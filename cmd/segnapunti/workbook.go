package main

import (
	"fmt"
	"io"
)

func readWorkbook(path string, r io.Reader, size int64, emit func(validated) error) error {
	return fmt.Errorf("%s: workbooks are not supported yet", path)
}
