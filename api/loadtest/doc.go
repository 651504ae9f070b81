// Package loadtest measures the REST service under load on loopback. Its
// tests carry the build tag loadtest, so the ordinary suite skips them:
//
//	go test -tags loadtest -run . -v ./api/loadtest
//
// TestValidateThroughput compares POST /v1/validate with an echo handler
// that answers the same report bytes on the same server (goal: at least
// half the echo's throughput; p99 under 20 ms at half the validate load).
// TestStoredSheetsPerSecond stores sheets with 32 concurrent clients on
// PostgreSQL (goal: at least 1,000 sheets/s). Each phase is bounded in time
// and in requests.
package loadtest
