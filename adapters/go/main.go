// crosscheck adapter for the AHP Go SDK (adapter protocol v1, see docs/protocol.md).
//
// Reads NDJSON requests on stdin, writes one JSON line per request on stdout and flushes.
// Two decoding paths of the go-sdk checkout named by AHP_GO_SDK:
//
//	text (default)  ahp.Parse<Root>([]byte) then ahp.Encode<Root>(value)
//	-path direct    json.Unmarshal into the generated model then json.Marshal
//
// The root table is registered from sdk_gen.go, which install.sh writes from the checkout's own
// generated.go (one register call per Parse<Root>/Encode<Root> pair), so it always matches the
// SDK. The raw bytes go to the SDK unchanged: Go takes []byte, so invalid UTF-8 reaches it too.
package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"sort"
	"time"

	ahp "github.com/agenthooksprotocol/go-sdk"
)

const protocol = 1

// Filled in by sdk_gen.go (written by install.sh); empty when built without it.
var (
	sdkVersion, sdkLock, sdkBundle string
	roots                          = map[string]codec{}
)

type diagnostic struct {
	Path     string `json:"path"`
	Code     string `json:"code"`
	Severity string `json:"severity"`
}

type answer struct {
	ID          any          `json:"id"` // the request's JSON integer, or null
	Outcome     string       `json:"outcome"`
	Diagnostics []diagnostic `json:"diagnostics"`
	Encoded     *string      `json:"encoded"`
	EncodeError *string      `json:"encodeError"`
	Message     *string      `json:"message"`
}

type codec struct{ text, direct func([]byte) answer }

func register[T any](name string, parse func([]byte) ahp.ParseResult[T], encode func(T) ([]byte, error)) {
	roots[name] = codec{
		text: func(in []byte) answer {
			r := parse(in)
			if !r.OK {
				return answer{Outcome: "rejected", Diagnostics: convert(r.Diagnostics)}
			}
			out, err := encode(r.Value)
			return accepted(convert(r.Diagnostics), out, err)
		},
		direct: func(in []byte) answer {
			var value T
			if err := json.Unmarshal(in, &value); err != nil {
				a := answer{Outcome: "rejected", Diagnostics: []diagnostic{}, Message: text(err.Error())}
				var syntax *json.SyntaxError
				if errors.As(err, &syntax) {
					a.Diagnostics = []diagnostic{{"", "invalid_json", "error"}}
				}
				return a
			}
			// Direct decoding returns no warnings: this path reports acceptance and re-encoding only.
			out, err := json.Marshal(value)
			return accepted([]diagnostic{}, out, err)
		},
	}
}

func convert(in []ahp.ParseDiagnostic) []diagnostic {
	out := make([]diagnostic, 0, len(in))
	for _, d := range in {
		out = append(out, diagnostic{d.Path, string(d.Code), string(d.Severity)})
	}
	return out
}

func accepted(diagnostics []diagnostic, out []byte, err error) answer {
	a := answer{Outcome: "accepted", Diagnostics: diagnostics}
	if err != nil {
		a.EncodeError = text(err.Error())
	} else {
		a.Encoded = text(base64.StdEncoding.EncodeToString(out))
	}
	return a
}

func text(s string) *string { return &s }

func failure(message string) answer {
	return answer{Outcome: "error", Diagnostics: []diagnostic{}, Message: text(message)}
}

// guarded runs one SDK call; a panic becomes an "error" answer instead of the adapter's death.
func guarded(f func([]byte) answer, in []byte) (a answer) {
	defer func() {
		if p := recover(); p != nil {
			a = failure(fmt.Sprintf("panic: %v", p))
		}
	}()
	return f(in)
}

type request struct {
	Op         string          `json:"op"`
	Protocol   json.RawMessage `json:"protocol"`
	ID         json.Number     `json:"id"`
	Root       *string         `json:"root"`
	Input      *string         `json:"input"`
	Iterations int64           `json:"iterations"`
}

var integer = regexp.MustCompile(`^-?[0-9]+$`)

func pick(c codec, direct bool) func([]byte) answer {
	if direct {
		return c.direct
	}
	return c.text
}

func hello(direct bool) map[string]any {
	names := make([]string, 0, len(roots))
	for name := range roots {
		names = append(names, name)
	}
	sort.Strings(names)
	name, path := "go", "text"
	if direct {
		name, path = "go/direct", "direct"
	}
	var lock any
	if json.Unmarshal([]byte(sdkLock), &lock) != nil {
		lock = nil
	}
	var bundle any
	if _, err := os.Stat(sdkBundle); sdkBundle != "" && err == nil {
		bundle = sdkBundle
	}
	return map[string]any{"op": "hello", "protocol": protocol, "roots": names, "lock": lock,
		"schemaBundle": bundle, "reportsWarnings": !direct,
		"implementation": map[string]any{"name": name, "language": "go", "path": path,
			"version": sdkVersion, "languageVersion": runtime.Version(),
			"os": runtime.GOOS + "-" + runtime.GOARCH}}
}

// handle answers one request line; it returns the reply (nil for none) and an exit code (-1: go on).
func handle(line []byte, direct bool) (any, int) {
	var req request
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&req); err != nil {
		return failure("bad request: " + err.Error()), -1
	}
	var id any
	if integer.MatchString(string(req.ID)) {
		id = req.ID
	}
	switch req.Op {
	case "hello":
		if string(req.Protocol) != "1" {
			return map[string]any{"op": "hello", "protocol": protocol,
				"error": "unsupported protocol " + string(req.Protocol)}, 2
		}
		return hello(direct), -1
	case "shutdown":
		return nil, 0
	case "decode", "bench":
		if id == nil || req.Root == nil || req.Input == nil {
			return withID(failure("bad request: needs an integer id, a string root and input"), id), -1
		}
	default:
		return withID(failure(fmt.Sprintf("bad request: unknown op %q", req.Op)), id), -1
	}
	c, known := roots[*req.Root]
	in, err := base64.StdEncoding.Strict().DecodeString(*req.Input)
	if req.Op == "bench" {
		return bench(id, req.Iterations, pick(c, direct), known, in, err), -1
	}
	switch {
	case !known:
		a := answer{Outcome: "unsupported", Diagnostics: []diagnostic{},
			Message: text(fmt.Sprintf("no root %q in this SDK", *req.Root))}
		return withID(a, id), -1
	case err != nil:
		return withID(failure("invalid base64"), id), -1
	}
	return withID(guarded(pick(c, direct), in), id), -1
}

func bench(id any, iterations int64, run func([]byte) answer, known bool, in []byte, err error) any {
	reply := map[string]any{"id": id, "nanos": nil}
	if !known || err != nil {
		reply["message"] = "unsupported root or invalid base64"
		return reply
	}
	start := time.Now()
	for i := int64(0); i < iterations; i++ {
		if a := guarded(run, in); a.Outcome == "error" {
			reply["message"] = *a.Message
			return reply
		}
	}
	reply["nanos"] = time.Since(start).Nanoseconds()
	return reply
}

func withID(a answer, id any) answer {
	a.ID = id
	return a
}

func main() {
	path := flag.String("path", "text", "decoding path: text or direct")
	flag.Parse()
	if (*path != "text" && *path != "direct") || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: crosscheck-adapter-go [-path text|direct]")
		os.Exit(2)
	}
	in, out := bufio.NewReaderSize(os.Stdin, 1<<20), bufio.NewWriter(os.Stdout)
	for {
		line, err := in.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			reply, code := handle(line, *path == "direct")
			if reply != nil {
				encoded, _ := json.Marshal(reply)
				out.Write(append(encoded, '\n'))
				if out.Flush() != nil {
					os.Exit(3) // the harness is gone
				}
			}
			if code >= 0 {
				os.Exit(code)
			}
		}
		if err == io.EOF {
			return
		} else if err != nil {
			fmt.Fprintln(os.Stderr, "ERROR: reading stdin:", err)
			os.Exit(3)
		}
	}
}
