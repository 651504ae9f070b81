package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"segnapunti/domain"
	"segnapunti/store"
)

const userUsage = `Usage: segnapunti user create --role ROLE --name NAME [--club ID] [--db segnapunti.db]

Creates a person who signs in to the web pages (UI.md §2). ROLE is club, referee,
federation or admin; a club person needs --club (created if new). NAME is the name the
API uses for them: a referee named anna.rossi is the one PUT .../referees/anna.rossi assigns.

The password is read from standard input (its first line) when standard input is not a
terminal, e.g.  echo "$PASSWORD" | segnapunti user create ...
Otherwise a password is generated and printed once.
Database: DATABASE_URL (postgres://...) or the embedded file, as for serve.

Flags:
`

// runUser implements `segnapunti user create`.
func runUser(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
		args = []string{"create", "--help"}
	}
	if len(args) == 0 || args[0] != "create" {
		return fmt.Errorf("%w: want 'segnapunti user create --role ROLE --name NAME [--club ID]'", errUsage)
	}
	fs := flag.NewFlagSet("user create", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	role := fs.String("role", "", "club, referee, federation or admin")
	name := fs.String("name", "", "the person's user name (for a referee, the name tournaments assign)")
	club := fs.String("club", "", "the club of a club person; created if new")
	var db dbConfig
	db.register(fs, getenv)
	if err := parseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(stdout, userUsage)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
		}
		return err
	}
	r, err := domain.ParseRole(*role)
	if err != nil {
		return fmt.Errorf("%w: --role: %v", errUsage, err)
	}
	if strings.TrimSpace(*name) == "" {
		return fmt.Errorf("%w: --name is required", errUsage)
	}
	if r == domain.RoleClub && *club == "" {
		return fmt.Errorf("%w: a club person needs --club", errUsage)
	}
	password, generated, err := readPassword(stdin)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, db.dsn(getenv), newLogger(stderr))
	if err != nil {
		return fmt.Errorf("database: %w", err)
	}
	defer st.Close()
	if *club != "" && r == domain.RoleClub {
		if _, err := st.GetClub(ctx, *club); errors.Is(err, domain.ErrNotFound) {
			if _, err := st.CreateClub(ctx, domain.Club{ID: *club, Name: *club}); err != nil {
				return fmt.Errorf("create club %s: %w", *club, err)
			}
		} else if err != nil {
			return err
		}
	}
	p, err := st.CreatePerson(ctx, *name, r, *club, password)
	if errors.Is(err, domain.ErrInvalid) || errors.Is(err, domain.ErrConflict) {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if err != nil {
		return err
	}
	if generated {
		_, err = fmt.Fprintf(stdout, "created %s (%s); password, shown only once: %s\n", p.Name, p.Role, password)
		return err
	}
	_, err = fmt.Fprintf(stdout, "created %s (%s)\n", p.Name, p.Role)
	return err
}

// readPassword takes the first line of stdin when it is not a terminal;
// on a terminal (or with no stdin) it generates one.
func readPassword(stdin io.Reader) (password string, generated bool, err error) {
	if stdin == nil || isTerminal(stdin) {
		return store.GeneratePassword(), true, nil
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 1024)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", false, fmt.Errorf("read password from standard input: %w", err)
	}
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		return "", false, fmt.Errorf("%w: standard input is not a terminal but holds no password", errUsage)
	}
	return line, false, nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
