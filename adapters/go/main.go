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
//
// Layer 2 (the validate op, text path only): interop.NewValidator(dir) then Validate(kind, bytes),
// the SDK's only public canonical entrypoint (santhosh-tekuri/jsonschema with formats asserted,
// after the generated parse), for its six documents. It reads a schema folder, not the bundle the
// SDK embeds (internal/canonical is not importable): the canonical layer is listed in hello only
// when AHP_SCHEMA_DIR names one. Its intercept-request check also compares the request id with the
// event id, a rule beyond the schema.
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
	"strings"
	"time"

	ahp "github.com/agenthooksprotocol/go-sdk"
	"github.com/agenthooksprotocol/go-sdk/interop"
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
			out, err := encodeGuarded(func() ([]byte, error) { return encode(r.Value) })
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
			out, err := encodeGuarded(func() ([]byte, error) { return json.Marshal(value) })
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

// encodeGuarded runs an encode call; a panic in it is its encodeError (the parse did succeed).
func encodeGuarded(encode func() ([]byte, error)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("panic: %v", p)
		}
	}()
	return encode()
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

// A request line's members, each kept raw so that one of the wrong type spoils only itself: the id
// of a request with a bad root is still echoed.
type request struct {
	Op         string
	Protocol   json.RawMessage
	ID         any // the id's JSON integer literal as json.Number, or nil
	Root       *string
	Document   *string
	Input      *string
	Iterations int64
}

var integer = regexp.MustCompile(`^-?[0-9]+$`)

func parseRequest(line []byte) (request, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(line, &members); err != nil {
		return request{}, err
	}
	var req request
	// Only a JSON number literal is an id: a string "5" is not one (answered with id null).
	if raw := bytes.TrimSpace(members["id"]); integer.Match(raw) {
		req.ID = json.Number(raw)
	}
	str := func(name string) *string {
		var s string
		if raw, ok := members[name]; ok && json.Unmarshal(raw, &s) == nil && raw[0] == '"' {
			return &s
		}
		return nil
	}
	if op := str("op"); op != nil {
		req.Op = *op
	}
	req.Protocol = members["protocol"]
	req.Root, req.Document, req.Input = str("root"), str("document"), str("input")
	if raw, ok := members["iterations"]; ok {
		_ = json.Unmarshal(raw, &req.Iterations)
	}
	return req, nil
}

// decodeInput is strict standard base64: Go's decoder skips '\r' and '\n' even in Strict mode, which
// the protocol does not allow.
func decodeInput(s string) ([]byte, error) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, errors.New("invalid base64")
	}
	return base64.StdEncoding.Strict().DecodeString(s)
}

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
	layers := []string{"structural"}
	if validator != nil && !direct {
		layers = append(layers, "canonical")
	}
	return map[string]any{"op": "hello", "protocol": protocol, "roots": names, "lock": lock,
		"schemaBundle": bundle, "reportsWarnings": !direct, "layers": layers,
		"implementation": map[string]any{"name": name, "language": "go", "path": path,
			"version": sdkVersion, "languageVersion": runtime.Version(),
			"os": runtime.GOOS + "-" + runtime.GOARCH}}
}

// handle answers one request line; it returns the reply (nil for none) and an exit code (-1: go on).
func handle(line []byte, direct bool) (any, int) {
	req, err := parseRequest(line)
	if err != nil {
		return failure("bad request: " + err.Error()), -1
	}
	id := req.ID
	switch req.Op {
	case "hello":
		if string(req.Protocol) != "1" {
			return map[string]any{"op": "hello", "protocol": protocol,
				"error": "unsupported protocol " + string(req.Protocol)}, 2
		}
		return hello(direct), -1
	case "shutdown":
		return nil, 0
	case "validate":
		if !direct {
			return validate(id, req), -1
		}
		return withID(failure(fmt.Sprintf("bad request: unknown op %q", req.Op)), id), -1
	case "decode", "bench":
		if id == nil || req.Root == nil || req.Input == nil {
			return withID(failure("bad request: needs an integer id, a string root and input"), id), -1
		}
	default:
		return withID(failure(fmt.Sprintf("bad request: unknown op %q", req.Op)), id), -1
	}
	c, known := roots[*req.Root]
	in, err := decodeInput(*req.Input)
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

type verdict struct {
	ID      any         `json:"id"`
	Outcome string      `json:"outcome"`
	Errors  []errorPath `json:"errors"`
	Message *string     `json:"message"`
}

type errorPath struct {
	Path string `json:"path"`
}

// The six documents interop.Validator compiles.
var documents = map[string]bool{"registration": true, "intercept-request": true, "intercept-response": true,
	"capabilities": true, "capabilities-request": true, "capabilities-response": true}

var validator *interop.Validator // nil: no schema folder, no canonical layer

func validate(id any, req request) verdict {
	switch {
	case id == nil || req.Document == nil || req.Input == nil:
		return verdict{id, "error", []errorPath{}, text("bad request: validate needs an integer id, a string document and input")}
	case validator == nil || !documents[*req.Document]:
		return verdict{id, "unsupported", []errorPath{}, text(fmt.Sprintf("no canonical validation of %q here", *req.Document))}
	}
	in, err := decodeInput(*req.Input)
	if err != nil {
		return verdict{id, "error", []errorPath{}, text("invalid base64")}
	}
	v := verdict{ID: id, Outcome: "valid", Errors: []errorPath{}}
	func() {
		defer func() {
			if p := recover(); p != nil {
				v = verdict{id, "error", []errorPath{}, text(fmt.Sprintf("panic: %v", p))}
			}
		}()
		// The SDK reports no instance path, only its text: errors stay empty.
		if _, err := validator.Validate(*req.Document, in); err != nil {
			v.Outcome, v.Message = "invalid", text(err.Error())
		}
	}()
	return v
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
	if dir := os.Getenv("AHP_SCHEMA_DIR"); dir != "" && *path == "text" {
		v, err := interop.NewValidator(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, "canonical layer off: interop.NewValidator:", err)
		} else {
			validator = v
		}
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
