package jsonrpcline

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// run filters input with the given limit and returns what was handed on
// and what was answered.
func run(t *testing.T, input string, limit int) (passed, replies []string) {
	t.Helper()
	var out bytes.Buffer
	f := NewFilter(strings.NewReader(input), NewWriter(&out), nil, limit)
	data, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l != "" {
			passed = append(passed, l)
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if l != "" {
			replies = append(replies, l)
		}
	}
	return passed, replies
}

type reply struct {
	ID    json.RawMessage `json:"id"`
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func decode(t *testing.T, line string) reply {
	t.Helper()
	var r reply
	if err := json.Unmarshal([]byte(line), &r); err != nil {
		t.Fatalf("not a JSON reply: %q", line)
	}
	return r
}

const ok = `{"jsonrpc":"2.0","id":1,"method":"ping"}`

func TestRefusedLinesAreAnsweredAndTheNextPasses(t *testing.T) {
	cases := []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", `{not json`, CodeParseError, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":3,"method":"x"`, CodeParseError, "null"},
		{"method a number", `{"jsonrpc":"2.0","id":7,"method":42}`, CodeInvalidRequest, "7"},
		{"method a number, string id", `{"jsonrpc":"2.0","id":"a b","method":42}`, CodeInvalidRequest, `"a b"`},
		{"id without method", `{"jsonrpc":"2.0","id":8}`, CodeInvalidRequest, "8"},
		{"id without method, params", `{"jsonrpc":"2.0","id":8,"params":{}}`, CodeInvalidRequest, "8"},
		{"method without id, a number", `{"jsonrpc":"2.0","method":1}`, CodeInvalidRequest, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, CodeInvalidRequest, "null"},
		{"empty batch", `[]`, CodeInvalidRequest, "null"},
		{"a string", `"hello"`, CodeInvalidRequest, "null"},
		{"no version", `{"id":4,"method":"ping"}`, CodeInvalidRequest, "4"},
		{"version 1", `{"jsonrpc":"1.0","id":4,"method":"ping"}`, CodeInvalidRequest, "4"},
		{"id an object", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, CodeInvalidRequest, "null"},
		{"id a fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"id too large", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"id 20 digits", `{"jsonrpc":"2.0","id":12345678901234567890,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"method twice", `{"jsonrpc":"2.0","id":5,"method":"ping","method":7}`, CodeInvalidRequest, "null"},
		{"method in capitals", `{"jsonrpc":"2.0","id":5,"Method":"ping"}`, CodeInvalidRequest, "null"},
		{"escaped capital name", `{"jsonrpc":"2.0","id":5,"\u004dethod":"ping"}`, CodeInvalidRequest, "null"},
		{"escaped method a number", `{"jsonrpc":"2.0","id":6,"\u006dethod":3}`, CodeInvalidRequest, "6"},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, CodeInvalidRequest, "null"},
		{"trailing data", ok + ` {}`, CodeParseError, "null"},
		{"deep", `{"jsonrpc":"2.0","id":9,"method":"x","params":` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}`, CodeInvalidRequest, "9"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			passed, replies := run(t, c.line+"\n"+ok+"\n", 1<<20)
			if len(passed) != 1 || passed[0] != ok {
				t.Errorf("handed on %q, want only the good request", passed)
			}
			if len(replies) != 1 {
				t.Fatalf("replies %q, want one", replies)
			}
			r := decode(t, replies[0])
			if r.Error.Code != c.code || string(r.ID) != c.id || r.Error.Message == "" {
				t.Errorf("reply %s, want code %d id %s", replies[0], c.code, c.id)
			}
		})
	}
}

func TestGoodMessagesPassUnchanged(t *testing.T) {
	good := []string{
		ok,
		`{"jsonrpc":"2.0","method":"notify","params":{"a":[1,2,{"b":"}"}]}}`,
		`{"jsonrpc":"2.0","id":"x","method":"m","params":[]}`,
		`{"jsonrpc":"2.0","id":-12,"result":{"ok":true}}`,
		`{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no","data":{"x":1}}}`,
		` { "method" : "m" , "jsonrpc" : "2.0" , "id" : 3 } `,
		`{"jsonrpc":"2.0","id":4,"method":"m","other":{"method":1,"id":{}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"a\"b"}`,
	}
	input := strings.Join(good, "\r\n") + "\n\n   \n"
	passed, replies := run(t, input, 1<<20)
	if len(replies) != 0 {
		t.Errorf("replies to good messages: %q", replies)
	}
	if len(passed) != len(good) {
		t.Fatalf("handed on %d of %d: %q", len(passed), len(good), passed)
	}
	for i := range good {
		if passed[i] != good[i] {
			t.Errorf("handed on %q, want %q", passed[i], good[i])
		}
	}
}

func TestLastLineWithoutNewline(t *testing.T) {
	passed, _ := run(t, ok, 1<<20)
	if len(passed) != 1 || passed[0] != ok {
		t.Errorf("handed on %q", passed)
	}
}

func TestBadResponsesBecomeErrors(t *testing.T) {
	cases := []string{
		`{"jsonrpc":"2.0","id":11,"error":"boom"}`,
		`{"jsonrpc":"2.0","id":11,"error":{"code":"1","message":"m"}}`,
		`{"jsonrpc":"2.0","id":11,"error":{"code":1.5,"message":"m"}}`,
		`{"jsonrpc":"2.0","id":11,"error":{"code":1}}`,
		`{"jsonrpc":"2.0","id":11,"result":1,"error":{"code":1,"message":"m"}}`,
	}
	for _, c := range cases {
		passed, replies := run(t, c+"\n", 1<<20)
		if len(replies) != 0 || len(passed) != 1 {
			t.Fatalf("%s: replies %q, passed %q", c, replies, passed)
		}
		r := decode(t, passed[0])
		if string(r.ID) != "11" || r.Error.Code != CodeInvalidRequest {
			t.Errorf("%s became %s", c, passed[0])
		}
	}
	passed, replies := run(t, `{"jsonrpc":"2.0","id":null,"result":1}`+"\n", 1<<20)
	if len(passed)+len(replies) != 0 {
		t.Errorf("a response without id: passed %q, replies %q", passed, replies)
	}
}

func TestOversizedLines(t *testing.T) {
	const limit = 1 << 20
	big := strings.Repeat("A", 3*limit)
	cases := []struct {
		name, line, id string
		replied        bool
	}{
		{"request, id first", `{"jsonrpc":"2.0","id":21,"method":"session/prompt","params":{"data":"` + big + `"}}`, "21", true},
		{"request, id last", `{"jsonrpc":"2.0","method":"session/prompt","params":{"data":"` + big + `","x":["}"]},"id":"last"}`, `"last"`, true},
		{"not JSON at all", big, "null", true},
		{"an id only inside params", `{"jsonrpc":"2.0","method":"m","params":{"id":5,"data":"` + big + `"}}`, "null", true},
		{"escapes in the big string", `{"jsonrpc":"2.0","method":"m","params":{"data":"\\\"}` + big + `"},"id":23}`, "23", true},
		{"notification", `{"jsonrpc":"2.0","method":"n","params":"` + big + `"}`, "null", true},
		{"a response of the client's", `{"jsonrpc":"2.0","id":22,"result":{"content":"` + big + `"}}`, "22", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			passed, replies := run(t, c.line+"\n"+ok+"\n", limit)
			var got string
			if c.replied {
				if len(replies) != 1 || len(passed) != 1 || passed[0] != ok {
					t.Fatalf("replies %d, passed %d", len(replies), len(passed))
				}
				got = replies[0]
			} else {
				if len(replies) != 0 || len(passed) != 2 || passed[1] != ok {
					t.Fatalf("replies %d, passed %d", len(replies), len(passed))
				}
				got = passed[0]
			}
			r := decode(t, got)
			if string(r.ID) != c.id || r.Error.Code != CodeInvalidRequest || !strings.Contains(r.Error.Message, "limit") {
				t.Errorf("answer %s, want id %s", got, c.id)
			}
		})
	}
}

func TestALineAtTheLimitPasses(t *testing.T) {
	const limit = 1 << 16
	head := `{"jsonrpc":"2.0","id":1,"method":"m","params":"`
	line := head + strings.Repeat("b", limit-len(head)-2) + `"}`
	if len(line) != limit {
		t.Fatal(len(line))
	}
	passed, replies := run(t, line+"\r\n"+line+"x\n", limit)
	if len(passed) != 1 || passed[0] != line {
		t.Errorf("the line at the limit was not handed on")
	}
	if len(replies) != 1 || decode(t, replies[0]).Error.Code != CodeInvalidRequest {
		t.Errorf("the line one byte over: %q", replies)
	}
}
