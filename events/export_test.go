package events

// The bounds and the reading of a payload, for the tests of package
// events_test.
const (
	MaxPending = maxPending
	MaxPayload = maxPayload
)

var DecodePayload = decodePayload
