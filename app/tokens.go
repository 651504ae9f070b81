package app

import (
	"context"
	"errors"
	"segnapunti/events"

	"segnapunti/domain"
	"segnapunti/store"
)

// Tokens lists the tokens p may see (TokenScope), never their secrets.
func (a *App) Tokens(ctx context.Context, p Principal) ([]store.TokenInfo, error) {
	club, err := TokenScope(p)
	if err != nil {
		return nil, err
	}
	return a.db.ListTokens(ctx, club)
}

// RevokeToken deletes a token p may revoke: an admin any token, a club its
// own club's. Another club's token is not found, exactly as an unknown id,
// so ids cannot be probed. The revoked token is refused from the next
// request on, on every replica (the API caches hear events.TokenRevoked).
func (a *App) RevokeToken(ctx context.Context, p Principal, id string) (store.TokenInfo, error) {
	club, err := TokenScope(p)
	if err != nil {
		return store.TokenInfo{}, err
	}
	nf := notFound("api.no_token", id)
	if !ValidID(id) {
		return store.TokenInfo{}, nf
	}
	info, err := a.db.GetToken(ctx, id)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && club != "" && info.ClubID != club) {
		return store.TokenInfo{}, nf
	}
	if err != nil {
		return store.TokenInfo{}, err
	}
	if err := a.db.RevokeToken(ctx, id); errors.Is(err, domain.ErrNotFound) {
		return store.TokenInfo{}, nf // revoked meanwhile
	} else if err != nil {
		return store.TokenInfo{}, err
	}
	// Every replica's authentication cache forgets it (this process's at
	// once, inside Publish; the others when the notification arrives).
	a.bus.Publish(ctx, events.Event{Kind: events.TokenRevoked, Token: id})
	return info, nil
}
