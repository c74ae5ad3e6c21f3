package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func run(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Run(context.Background(), args, IO{In: strings.NewReader(""), Out: &out, Err: &errOut, InIsTerminal: true})
	return code, out.String(), errOut.String()
}

func TestVersionFlagAndCommandAgree(t *testing.T) {
	code, out, _ := run("--version")
	code2, out2, _ := run("version")
	if code != 0 || code2 != 0 || out != out2 || !strings.HasPrefix(out, "ponder ") {
		t.Fatalf("--version %d %q, version %d %q", code, out, code2, out2)
	}
}

func TestHelpNamesTheEnvironment(t *testing.T) {
	_, out, _ := run("--help")
	for _, v := range []string{"PONDER_CONFIG_DIR", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "PONDER_MODEL", "--plan-feedback"} {
		if !strings.Contains(out, v) {
			t.Errorf("--help does not mention %s", v)
		}
	}
}

func TestResumeMistakesAreExplained(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"-p", "x", "--resume", ""}, "--resume needs a session id"},
		{[]string{"-p", "x", "--resume="}, "--resume needs a session id"},
		{[]string{"-p", "x", "-r"}, "picks a session from a list in the interface"},
		{[]string{"-r", "-p", "x"}, "picks a session from a list in the interface"},
		{[]string{"plnas", "list"}, `did you mean "plans"`},
		{[]string{"doctr"}, `did you mean "doctor"`},
		{[]string{"-p", "doctr", "extra"}, `did you mean "doctor"`},
		{[]string{"fix", "the", "bug"}, `put the prompt in quotes, ponder "fix the bug"`},
	} {
		code, _, errOut := run(tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.say) {
			t.Errorf("ponder %q: exit %d, stderr %q; want 2 and %q", tc.args, code, errOut, tc.say)
		}
	}
}

func TestExpandResume(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-r", "--resume=" + pickSession},
		{"-r abc", "-r abc"},
		{"-r -p", "--resume=" + pickSession + " -p"},
		{"--resume --fork-session", "--resume=" + pickSession + " --fork-session"},
		{"-p -- -r", "-p -- -r"},
	} {
		got := strings.Join(expandResume(strings.Fields(tc.in)), " ")
		if got != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestPipedInputFollowsThePrompt(t *testing.T) {
	for _, tc := range []struct{ prompt, in, want string }{
		{"summarise", "the text\n", "summarise\n\nthe text"},
		{"", "just input\n", "just input"},
		{"just a prompt", "", "just a prompt"},
	} {
		got, err := withPipedInput(tc.prompt, strings.NewReader(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("%q + %q = %q, %v", tc.prompt, tc.in, got, err)
		}
	}
}

// A one-word prompt of a headless run is a prompt, whatever it resembles.
func TestOneWordHeadlessPromptIsNotACommand(t *testing.T) {
	_, _, errOut := run("-p", "plant", "--permission-mode", "nonsense")
	if strings.Contains(errOut, "did you mean") || !strings.Contains(errOut, "permission mode") {
		t.Fatalf("stderr %q", errOut)
	}
}
