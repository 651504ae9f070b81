package app

import (
	"context"

	"segnapunti/domain"
	"segnapunti/tournamentfile"
	"segnapunti/verifier"
)

// VerifyFile verifies a tournament file from the file alone (API §4.4):
// no caller, nothing stored. A file that cannot be read or does not hold
// together is a field error naming its JSON pointer.
func (a *App) VerifyFile(data []byte, lang domain.Lang) (verifier.Report, error) {
	rep, err := verifier.File(data, lang)
	if err != nil {
		return verifier.Report{}, fileError(err)
	}
	return rep, nil
}

// VerifyTournament is the verification of a stored tournament p may read,
// from its own tournament file: what the federation will see when the
// club sends it.
func (a *App) VerifyTournament(ctx context.Context, p Principal, tid string, lang domain.Lang) (domain.Tournament, verifier.Report, error) {
	t, err := a.readable(ctx, p, tid)
	if err != nil {
		return t, verifier.Report{}, err
	}
	f, err := a.tournamentFile(ctx, t)
	if err != nil {
		return t, verifier.Report{}, err
	}
	c, err := tournamentfile.Check(f)
	if err != nil {
		return t, verifier.Report{}, err
	}
	return t, verifier.Verify(f, c, lang), nil
}
