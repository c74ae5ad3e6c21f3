package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ponder-agent/ponder/internal/app"
)

// One mapping of outcomes to exit statuses: usage problems are 2,
// everything else that failed 1, whatever front end it came from.
func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{nil, 0},
		{exitError{code: 1}, 1},
		{&app.UsageError{Msg: "bad flag"}, 2},
		{fmt.Errorf("resume: %w", app.ErrPlanPending), 2},
		{fmt.Errorf("terminal interface: %w", io.ErrClosedPipe), 1},
		{errors.New("disk full"), 1},
	} {
		if got := exitCode(tc.err); got != tc.want {
			t.Errorf("exitCode(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}

// Mistakes on the command line are usage errors (2), caught before any
// session starts, with a message naming the mistake.
func TestCommandLineMistakesAreUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		say  string
	}{
		{[]string{"--no-such-flag"}, "unknown flag"},
		{[]string{"one", "two"}, "accepts at most 1 arg"},
		{[]string{"-p", "x", "--permission-mode", "yolo"}, "unknown permission mode"},
		{[]string{"-p", "x", "--plan-approval", "maybe"}, "unknown --plan-approval"},
		{[]string{"-p", "--resume", "x", "--approve-plan", "reject"}, "unknown --approve-plan"},
		{[]string{"-p", "x", "--output-format", "xml"}, "unknown --output-format"},
		{[]string{"plans", "list", "extra"}, "unknown command"},
		{[]string{"version", "extra"}, "unknown command"},
	} {
		var out, errOut bytes.Buffer
		code := Run(context.Background(), tc.args, IO{In: strings.NewReader(""), Out: &out, Err: &errOut})
		if code != 2 || !strings.Contains(errOut.String(), tc.say) {
			t.Errorf("ponder %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut.String(), tc.say)
		}
	}
}
