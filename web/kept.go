package web

import "sync"

// kept keeps, per slot, the last value computed and the version of what
// it was computed from: a value is computed once per version, and a new
// version replaces the old one in its slot (a page's part is kept once
// per tournament, not once per state it went through). At most max slots:
// full, it starts again empty. The version must name everything the value
// shows, so nothing kept is stale. The zero value is ready.
type kept[V any] struct {
	mu     sync.Mutex
	values map[string]keptValue[V]
}

type keptValue[V any] struct {
	version string
	value   V
}

// get returns the value kept in slot at version, else computes, keeps and
// returns it; an error is returned and not kept.
func (k *kept[V]) get(slot, version string, max int, compute func() (V, error)) (V, error) {
	k.mu.Lock()
	e, ok := k.values[slot]
	k.mu.Unlock()
	if ok && e.version == version {
		return e.value, nil
	}
	v, err := compute()
	if err != nil {
		return v, err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, ok := k.values[slot]; k.values == nil || (!ok && len(k.values) >= max) {
		k.values = make(map[string]keptValue[V])
	}
	k.values[slot] = keptValue[V]{version, v}
	return v, nil
}
