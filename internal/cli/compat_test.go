package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// sdkArgs are the flags the Claude Agent SDK (TypeScript 0.3.x and
// Python) passes its executable, in the forms it writes them.
var sdkArgs = []string{
	"--output-format", "stream-json", "--verbose", "--input-format", "stream-json",
	"--thinking=adaptive", "--max-thinking-tokens=8000", "--thinking-display=summarized", "--effort=high",
	"--max-turns=3", "--max-budget-usd=1.5", "--task-budget=100", "--model=claude-x", "--agent=reviewer",
	"--betas=context-1m", "--json-schema={\"type\":\"object\"}", "--debug-file=/dev/null", "--debug",
	"--permission-prompts=all", "--continue", "--channels=a", "--channels=b",
	"--allowedTools=Read,Bash(git diff:*)", "--disallowedTools=WebFetch", "--tools=Read,Write",
	"--mcp-config", `{"mcpServers":{}}`, "--setting-sources=user,project", "--strict-mcp-config",
	"--permission-mode=plan", "--allow-dangerously-skip-permissions", "--fallback-model=claude-y",
	"--include-hook-events", "--include-partial-messages", "--session-mirror", "--project-config-root=/tmp",
	"--add-dir=/tmp/a", "--add-dir=/tmp/b", "--await-initialize", "--plugin-dir=/tmp/p", "--plugin-dir-no-mcp=/tmp/q",
	"--fork-session", "--resume-session-at=abc", "--resume-drops-turn=1", "--session-id=6f1c7b2e-4b1a-4c5e-9d7a-2f3e4d5c6b7a",
	"--no-session-persistence", "--initialize-fields=settings", "--managed-settings-in-initialize",
	"--settings", `{"x":1}`, "--system-prompt", "", "--append-system-prompt", "be brief", "--agents", `{"a":{}}`,
	"--replay-user-messages", "--sandbox", `{"enabled":true}`,
}

// Every flag the SDK passes is accepted; those ponder does not act on are
// named in a note, and a value ponder cannot honour is a clear error.
func TestAgentSDKFlagsAreAccepted(t *testing.T) {
	args := append(append([]string(nil), sdkArgs...), "--permission-prompt-tool=mcp__approver")
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, IO{In: strings.NewReader(""), Out: &out, Err: &errOut})
	stderr := errOut.String()
	if code != 2 || strings.Contains(stderr, "unknown flag") || !strings.Contains(stderr, "--permission-prompt-tool \"mcp__approver\"") {
		t.Fatalf("exit %d, stderr:\n%s\nwant 2 for the one value ponder cannot honour, and no unknown flag", code, stderr)
	}
	for _, note := range []string{"--effort is accepted for compatibility and ignored"} {
		if !strings.Contains(stderr, note) {
			t.Errorf("no note %q in:\n%s", note, stderr)
		}
	}
	for _, carried := range []string{"--mcp-config is", "--strict-mcp-config is", "--max-turns is", "--model is", "--permission-mode is", "--system-prompt is", "--include-partial-messages is",
		"--add-dir is", "--settings is", "--debug is", "--debug-file is"} {
		if strings.Contains(stderr, carried) {
			t.Errorf("a flag ponder carries out is called ignored: %q", carried)
		}
	}
}

func TestAgentSDKOnlyModesPonderHas(t *testing.T) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), []string{"--output-format", "stream-json", "--input-format", "stream-json", "--permission-mode", "auto"},
		IO{In: strings.NewReader(""), Out: &out, Err: &errOut})
	if code != 2 || !strings.Contains(errOut.String(), "auto") {
		t.Errorf("--permission-mode auto: exit %d, %s", code, errOut.String())
	}
}

// A flag the command line defines elsewhere keeps that definition: the
// compatibility flags never clash with it.
func TestCompatFlagsGiveWay(t *testing.T) {
	f := pflag.NewFlagSet("x", pflag.ContinueOnError)
	real := f.String("mcp-config", "", "MCP servers")
	var c compatOptions
	addCompatFlags(f, &c)
	if err := f.Parse([]string{"--mcp-config", "servers.json", "--effort=high"}); err != nil {
		t.Fatal(err)
	}
	if *real != "servers.json" || c.ignoredLists["mcp-config"] != nil {
		t.Errorf("--mcp-config went to the compatibility flags")
	}
}

// Claude Code's dashed spellings of the tool rule flags are ponder's.
func TestDashedToolFlags(t *testing.T) {
	cmd := newRootCmd(IO{})
	if err := cmd.ParseFlags([]string{"--allowed-tools", "Read,Bash(go test:*)", "--disallowed-tools=WebFetch", "--allowedTools", "Grep"}); err != nil {
		t.Fatal(err)
	}
	allowed, _ := cmd.Flags().GetStringSlice("allowedTools")
	denied, _ := cmd.Flags().GetStringSlice("disallowedTools")
	if strings.Join(allowed, " ") != "Read Bash(go test:*) Grep" || strings.Join(denied, " ") != "WebFetch" {
		t.Errorf("allowed %q, denied %q", allowed, denied)
	}
}
