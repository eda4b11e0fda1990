module crosscheck/adapters/go

go 1.27

require github.com/agenthooksprotocol/go-sdk v0.0.0-00010101000000-000000000000

// The Go module proxy does not serve go-sdk, so it always comes from a local checkout.
// install.sh copies this file to bin/build/ and points the replace at $AHP_GO_SDK there;
// this committed copy stays free of machine paths.
replace github.com/agenthooksprotocol/go-sdk => ./sdk
