package main

import (
	"context"
	"fmt"
	"io"
)

func runServe(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	return fmt.Errorf("%w: serve is not built yet", errUsage)
}

func runMigrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return fmt.Errorf("%w: migrate is not built yet", errUsage)
}

func runToken(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	return fmt.Errorf("%w: token is not built yet", errUsage)
}
