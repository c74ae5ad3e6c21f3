package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunServesScriptUntilCancelled(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	logFile := filepath.Join(dir, "log.jsonl")
	err := os.WriteFile(script, []byte(`{"replies":[{"name":"hi","text":"hello"},{"name":"spare"}]}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	outR, outW := io.Pipe()
	var stderr strings.Builder
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-script", script, "-log", logFile}, outW, &stderr)
		outW.Close()
	}()

	url, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url = strings.TrimSpace(url)
	resp, err := http.Post(url+"/v1/messages", "application/json",
		strings.NewReader(`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hey"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "hello") {
		t.Errorf("status %d body %s", resp.StatusCode, body)
	}

	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := stderr.String(); !strings.Contains(got, "1 requests") || !strings.Contains(got, "never used: spare") {
		t.Errorf("stderr %q", got)
	}
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	var line logLine
	if err := json.Unmarshal(data, &line); err != nil || line.Reply != "hi" || line.LastUser != "hey" || line.Outcome != "served" {
		t.Errorf("log %s (%v)", data, err)
	}
}

func TestRunNeedsScript(t *testing.T) {
	var stderr strings.Builder
	if err := run(t.Context(), nil, io.Discard, &stderr); err == nil {
		t.Error("ran without -script")
	}
	if err := run(t.Context(), []string{"-script", filepath.Join(t.TempDir(), "none.json")}, io.Discard, &stderr); err == nil {
		t.Error("ran with a missing script")
	}
}

// A script can make the server fall silent; shutting the server down ends
// the silence, and the log says the reply stalled.
func TestRunServesStallsFromScript(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "script.json")
	logFile := filepath.Join(dir, "log.jsonl")
	err := os.WriteFile(script, []byte(`{"replies":[{"name":"silent","stall_after_headers":true}]}`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-script", script, "-log", logFile}, outW, io.Discard)
		outW.Close()
	}()
	url, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(strings.TrimSpace(url)+"/v1/messages", "application/json",
		strings.NewReader(`{"model":"m","max_tokens":5,"stream":true,"messages":[{"role":"user","content":"hey"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	// The headers came; the body never does, until the server goes.
	cancel()
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(body) != 0 {
		t.Errorf("a stalled reply sent %q", body)
	}
	data, _ := os.ReadFile(logFile)
	if !strings.Contains(string(data), `"outcome":"stalled"`) {
		t.Errorf("log %s", data)
	}
}
