package jsonrpcline

import (
	"encoding/json"
	"fmt"
)

// The error codes of JSON-RPC 2.0.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
)

// verdict is what becomes of one line.
type verdict struct {
	pass  bool   // hand the line on unchanged
	reply []byte // an error response for the client, if any
	// instead is a line handed on in its place: an error response to a
	// request of ponder's whose real answer could not be read, so that
	// nothing waits for it forever.
	instead []byte
	why     string // for the log, when the line is dropped or replaced
}

// judge classifies a line of size bytes. valid says whether it is JSON
// (unknown, and false, for an oversized line, which is never read whole).
func judge(s *topScan, valid bool, size, limit int) verdict {
	if size > limit {
		return oversized(s, size, limit)
	}
	if !valid {
		return refuse(CodeParseError, "Parse error: the line is not valid JSON", nil)
	}
	if s.kind != '{' {
		if s.kind == '[' {
			return refuse(CodeInvalidRequest, "Invalid Request: batches are not supported; send one message per line", nil)
		}
		return refuse(CodeInvalidRequest, "Invalid Request: a message is a JSON object", nil)
	}
	id, idOK := idOf(s)
	if s.dup {
		return refuse(CodeInvalidRequest, `Invalid Request: a member ("jsonrpc", "id", "method", "params", "result", "error") appears twice or in other letter case`, nil)
	}
	if !idOK {
		return refuse(CodeInvalidRequest, "Invalid Request: id must be a string, an integer of at most 15 digits, or null", nil)
	}
	if s.deep {
		return refuse(CodeInvalidRequest, fmt.Sprintf("Invalid Request: nested deeper than %d levels", maxDepth), id)
	}
	if v, ok := s.get("jsonrpc"); !ok || string(v.raw) != `"2.0"` {
		return refuse(CodeInvalidRequest, `Invalid Request: "jsonrpc" must be "2.0"`, id)
	}
	if m, ok := s.get("method"); ok {
		var name string
		if m.truncated || json.Unmarshal(m.raw, &name) != nil {
			return refuse(CodeInvalidRequest, `Invalid Request: "method" must be a string`, id)
		}
		if string(id) == "null" {
			// Both SDKs take a null id for a notification and would leave
			// the request unanswered.
			return refuse(CodeInvalidRequest, "Invalid Request: a request's id must not be null; leave id out for a notification", nil)
		}
		return verdict{pass: true}
	}
	_, hasResult := s.get("result")
	errv, hasError := s.get("error")
	if !hasResult && !hasError {
		return refuse(CodeInvalidRequest, `Invalid Request: a request needs "method" (and a response "result" or "error")`, id)
	}
	// A response to a request of ponder's.
	if id == nil || string(id) == "null" {
		return verdict{why: "a response without an id was dropped"}
	}
	switch {
	case hasResult && hasError:
		return answerInstead(id, `the client's response had both "result" and "error"`)
	case hasError && !wellFormedError(errv):
		return answerInstead(id, `the client's response had an "error" that is not an object with an integer "code" and a string "message"`)
	}
	return verdict{pass: true}
}

// oversized answers a line over the limit: a request gets an error
// response (with its id when the scanner found it), a response of the
// client's is replaced by an error response so that ponder's request ends.
func oversized(s *topScan, size, limit int) verdict {
	msg := fmt.Sprintf("Invalid Request: the message is %d bytes, over ponder's limit of %d bytes for one message", size, limit)
	id, ok := idOf(s)
	if !ok {
		id = nil
	}
	_, hasMethod := s.get("method")
	_, hasResult := s.get("result")
	_, hasError := s.get("error")
	if !hasMethod && (hasResult || hasError) && id != nil && string(id) != "null" {
		return answerInstead(id, msg)
	}
	return refuse(CodeInvalidRequest, msg, id)
}

// idOf returns the message's id as written (nil when it has none), and
// whether it is one an SDK can answer to: a string, null, or an integer
// small enough to survive a round trip through a float64.
func idOf(s *topScan) ([]byte, bool) {
	m, ok := s.get("id")
	if !ok {
		return nil, true
	}
	if m.truncated || len(m.raw) == 0 {
		return nil, false
	}
	switch raw := m.raw; raw[0] {
	case '"':
		var str string
		return raw, json.Unmarshal(raw, &str) == nil
	case 'n':
		return raw, string(raw) == "null"
	default:
		digits := raw
		if digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) == 0 || len(digits) > 15 || (digits[0] == '0' && len(digits) > 1) {
			return nil, false
		}
		for _, c := range digits {
			if c < '0' || c > '9' {
				return nil, false
			}
		}
		return raw, true
	}
}

// wellFormedError reports whether an error member is an object with an
// integer code and a string message, as both SDKs decode it.
func wellFormedError(m member) bool {
	if m.truncated {
		return true // larger than anything read here; the SDK decides
	}
	var e struct {
		Code    json.RawMessage `json:"code"`
		Message *string         `json:"message"`
	}
	if json.Unmarshal(m.raw, &e) != nil || len(e.Code) == 0 || e.Message == nil {
		return false
	}
	var code int64
	return e.Code[0] != '"' && json.Unmarshal(e.Code, &code) == nil
}

// refuse builds an error response to the client.
func refuse(code int, msg string, id []byte) verdict {
	return verdict{reply: errorLine(id, code, msg), why: msg}
}

// answerInstead builds the error response handed on in place of a
// response ponder could not take.
func answerInstead(id []byte, msg string) verdict {
	return verdict{instead: errorLine(id, CodeInvalidRequest, msg), why: msg}
}

// errorLine is a JSON-RPC error response, newline included.
func errorLine(id []byte, code int, msg string) []byte {
	if id == nil {
		id = []byte("null")
	}
	text, _ := json.Marshal(msg)
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":%s}}`+"\n", id, code, text)
}
