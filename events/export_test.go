package events

// The bounds, for the tests of package events_test.
const (
	MaxPending = maxPending
	MaxPayload = maxPayload
)
