// Package e2e runs the real ponder binary against the fake model server
// over loopback HTTP and checks what a user would see: output, exit codes
// and files on disk.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	// The binary under test is built from these packages; importing them
	// makes go test's cache notice when they change.
	_ "github.com/ponder-agent/ponder/internal/cli"
	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// ponderBin is the binary built once for all tests.
var ponderBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ponder-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ponderBin = filepath.Join(dir, "ponder")
	build := exec.Command("go", "build", "-o", ponderBin, "github.com/ponder-agent/ponder/cmd/ponder")
	build.Stdout, build.Stderr = os.Stdout, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ponder:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// apis are the two wire APIs every behaviour is checked against.
var apis = []string{"anthropic", "openai"}

// world is one project directory, one config directory and one fake
// model server.
type world struct {
	t        *testing.T
	api      string
	srv      *fakemodel.Server
	dir      string
	cfg      string
	extraEnv []string
	// timeout bounds one run; a minute when zero.
	timeout time.Duration
}

func newWorld(t *testing.T, api string, replies ...fakemodel.Reply) *world {
	t.Helper()
	srv := fakemodel.NewServer(fakemodel.Script{Replies: replies})
	t.Cleanup(srv.Close)
	base := t.TempDir()
	w := &world{t: t, api: api, srv: srv, dir: filepath.Join(base, "project"), cfg: filepath.Join(base, "config")}
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// write creates a file in the project.
func (w *world) write(rel, content string) string {
	w.t.Helper()
	p := filepath.Join(w.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// read returns a project file's content, or "<missing>".
func (w *world) read(rel string) string {
	data, err := os.ReadFile(filepath.Join(w.dir, rel))
	if err != nil {
		return "<missing>"
	}
	return string(data)
}

func (w *world) env() []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Dir(w.cfg),
		"PONDER_CONFIG_DIR=" + w.cfg,
		"TERM=dumb",
	}
	env = append(env, w.srv.Env(w.api)...)
	return append(env, w.extraEnv...)
}

// outcome is what one run printed and returned.
type outcome struct {
	stdout, stderr string
	code           int
}

// run runs ponder with args and optional standard input.
func (w *world) run(stdin string, args ...string) outcome {
	w.t.Helper()
	return w.runWith(stdin, ponderBin, args...)
}

// runProgram runs another program (a shell that starts ponder, say) in
// ponder's environment.
func (w *world) runProgram(prog string, args ...string) outcome {
	w.t.Helper()
	return w.runWith("", prog, args...)
}

func (w *world) runWith(stdin, prog string, args ...string) outcome {
	w.t.Helper()
	timeout := w.timeout
	if timeout == 0 {
		timeout = 60 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env()
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("running ponder: %v", err)
	}
	if ctx.Err() != nil {
		w.t.Fatalf("ponder did not finish in time; stderr:\n%s", errb.String())
	}
	return outcome{stdout: out.String(), stderr: errb.String(), code: code}
}

// mustRun runs and fails the test unless the exit code is want.
func (w *world) mustRun(want int, stdin string, args ...string) outcome {
	w.t.Helper()
	o := w.run(stdin, args...)
	if o.code != want {
		w.t.Fatalf("ponder %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), o.code, want, o.stdout, o.stderr)
	}
	return o
}

// allUsed fails the test if a scripted reply was never used.
func (w *world) allUsed() {
	w.t.Helper()
	if u := w.srv.Unused(); len(u) > 0 {
		w.t.Errorf("scripted replies never used: %v", u)
	}
}

// lines decodes JSON lines.
func lines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, l := range strings.Split(strings.TrimSpace(s), "\n") {
		if l == "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not a JSON line: %q (%v)", l, err)
		}
		out = append(out, m)
	}
	return out
}

// lastResult returns the final result object of json or stream-json output.
func lastResult(t *testing.T, s string) map[string]any {
	t.Helper()
	ls := lines(t, s)
	for i := len(ls) - 1; i >= 0; i-- {
		if ls[i]["type"] == "result" {
			return ls[i]
		}
	}
	t.Fatalf("no result object in:\n%s", s)
	return nil
}

// events returns the names of {"type":"event"} lines, in order.
func events(t *testing.T, s string) []string {
	var out []string
	for _, l := range lines(t, s) {
		if l["type"] == "event" {
			out = append(out, fmt.Sprint(l["event"]))
		}
	}
	return out
}

// session drives ponder over stream-json input and output: it sends user
// lines and answers control requests as they come.
type session struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	mu     sync.Mutex
	seen   []map[string]any
	stderr bytes.Buffer
}

func (w *world) start(args ...string) *session {
	w.t.Helper()
	all := append([]string{"-p", "--input-format", "stream-json", "--output-format", "stream-json"}, args...)
	cmd := exec.Command(ponderBin, all...)
	cmd.Dir = w.dir
	cmd.Env = w.env()
	s := &session{t: w.t, cmd: cmd}
	cmd.Stderr = &s.stderr
	var err error
	if s.stdin, err = cmd.StdinPipe(); err != nil {
		w.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		w.t.Fatal(err)
	}
	s.out = bufio.NewReader(stdout)
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return s
}

// send writes one JSON line to ponder.
func (s *session) send(v any) {
	s.t.Helper()
	data, _ := json.Marshal(v)
	if _, err := s.stdin.Write(append(data, '\n')); err != nil {
		s.t.Fatalf("writing to ponder: %v", err)
	}
}

// say sends a user message.
func (s *session) say(text string) {
	s.send(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": text}})
}

// next reads lines until one satisfies match and returns it. Reading ends
// with a failure when ponder exits first.
func (s *session) next(what string, match func(map[string]any) bool) map[string]any {
	s.t.Helper()
	for {
		line, err := s.out.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var m map[string]any
			if jerr := json.Unmarshal(line, &m); jerr != nil {
				s.t.Fatalf("not a JSON line: %q", line)
			}
			s.mu.Lock()
			s.seen = append(s.seen, m)
			s.mu.Unlock()
			if match(m) {
				return m
			}
		}
		if err != nil {
			s.t.Fatalf("ponder ended before %s; stderr:\n%s\nlines:\n%v", what, s.stderr.String(), s.seen)
		}
	}
}

// control waits for the next control_request of the given subtype.
func (s *session) control(subtype string) map[string]any {
	s.t.Helper()
	return s.next("a "+subtype+" control request", func(m map[string]any) bool {
		if m["type"] != "control_request" {
			return false
		}
		req, _ := m["request"].(map[string]any)
		return req["subtype"] == subtype
	})
}

// answer replies to a control request.
func (s *session) answer(req map[string]any, response map[string]any) {
	s.send(map[string]any{"type": "control_response", "request_id": req["request_id"], "response": response})
}

// result waits for the next result object.
func (s *session) result() map[string]any {
	s.t.Helper()
	return s.next("a result", func(m map[string]any) bool { return m["type"] == "result" })
}

// close ends the input and waits for ponder to exit; it returns the exit
// code.
func (s *session) close() int {
	s.t.Helper()
	s.stdin.Close()
	io.Copy(io.Discard, s.out)
	err := s.cmd.Wait()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return 0
}

// eventNames lists the events seen so far.
func (s *session) eventNames() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, m := range s.seen {
		if m["type"] == "event" {
			out = append(out, fmt.Sprint(m["event"]))
		}
	}
	return out
}

// toolResults returns the tool results of the last user message of a
// logged request.
func toolResults(r fakemodel.Request) []fakemodel.ToolResult {
	return r.LastUser().ToolResults
}

// forAPIs runs f once per wire API as a subtest.
func forAPIs(t *testing.T, f func(t *testing.T, api string)) {
	for _, api := range apis {
		t.Run(api, func(t *testing.T) {
			t.Parallel()
			f(t, api)
		})
	}
}

// failed reports whether a tool result is an error. OpenAI-style APIs have
// no error flag, so ponder marks the content instead.
func failed(r fakemodel.ToolResult) bool {
	return r.IsError || strings.HasPrefix(r.Content, "Error: ")
}
