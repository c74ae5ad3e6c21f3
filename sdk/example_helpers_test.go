package sdk_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ponder-agent/ponder/internal/llm/fakemodel"
)

// The examples talk to ponder's scripted fake model over loopback HTTP
// instead of a real one, in a scratch project; everything else is real.

// fakeModel serves replies and returns the environment that points a
// session at them, and a function that stops the server.
func fakeModel(replies ...fakemodel.Reply) (map[string]string, func()) {
	srv := fakemodel.NewServer(fakemodel.Script{Replies: replies})
	env := map[string]string{"OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", "PONDER_MODEL": "", "PONDER_SANDBOX": ""}
	for _, kv := range srv.Env(fakemodel.APIAnthropic) {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env, srv.Close
}

// scratch makes a project directory and a config directory, and returns
// them with the function that removes both.
func scratch() (project, config string, cleanup func()) {
	base, err := os.MkdirTemp("", "ponder-sdk-example-")
	if err != nil {
		panic(err)
	}
	project, config = filepath.Join(base, "project"), filepath.Join(base, "config")
	if err := os.MkdirAll(project, 0o755); err != nil {
		panic(err)
	}
	return project, config, func() { os.RemoveAll(base) }
}

// planPathRE finds the plan file the plan-mode reminder names.
var planPathRE = regexp.MustCompile(`/\S+/plans/[a-z0-9_-]+\.md`)

// planPath is the plan file named in the request, for the fake model's
// Write of the plan.
func planPath(r *fakemodel.Request) string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if m := planPathRE.FindString(r.Messages[i].Text); m != "" {
			return m
		}
	}
	return "no-plan-file-named"
}
