package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
)

// This file keeps the command line from surprising people: the version
// flag, the environment in --help, -r without an id, suggestions for
// mistyped commands, a piped file joined to the prompt.

// pickSession is what -r (or --resume) without an id stands for: pick
// one from a list.
const pickSession = "\x00pick"

// environmentHelp lists the variables ponder reads, for --help.
const environmentHelp = `
Environment:
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL   the Anthropic provider (base URL for proxies)
  OPENAI_API_KEY, OPENAI_BASE_URL         an OpenAI-compatible server (Ollama, vLLM, …)
  PONDER_MODEL                            the main model when --model is absent
  PONDER_CONFIG_DIR                       instead of ~/.ponder: settings, plans, sessions
  PONDER_PLAN_EXPLORE_AGENT_COUNT, PONDER_PLAN_AGENT_COUNT   agents per plan (1..10)
  PONDER_PLAN_INTERVIEW=1                 the interview planning workflow
  PONDER_IDLE_TIMEOUT                     seconds a model request may stay silent
  PONDER_SANDBOX                          landlock, bwrap or none (diagnosis only)
  VISUAL, EDITOR                          the editor for plans (ctrl+g, /plan open)
  NO_COLOR                                an interface without colours
`

// setFriendly adds the version flag, the environment help and the
// suggestions for mistyped subcommands to the root command.
func setFriendly(cmd *cobra.Command) {
	cmd.Version = Version
	cmd.SetVersionTemplate("ponder {{.Version}}\n")
	cmd.Long += "\n" + environmentHelp
	cmd.SuggestionsMinimumDistance = 2
	check := cmd.Args
	cmd.Args = func(c *cobra.Command, args []string) error {
		// Several words where one is allowed, the first of them close to
		// a command's name, are a mistyped command; so is one such word
		// for the interface. A one-word prompt of a headless run is a
		// prompt.
		headless, _ := c.Flags().GetBool("print")
		if len(args) > 0 && !strings.ContainsAny(args[0], " \t\n") && (len(args) > 1 || !headless && len(args[0]) >= 4) {
			if s := c.SuggestionsFor(args[0]); len(s) > 0 && !isCommand(c, args[0]) {
				return usage(fmt.Errorf("unknown command %q; did you mean %q? (to send it as a prompt, add a word: ponder \"%s please\")", args[0], s[0], args[0]))
			}
		}
		if len(args) > 1 {
			return usage(fmt.Errorf("accepts at most 1 arg, received %d: put the prompt in quotes, ponder \"%s\"", len(args), strings.Join(args, " ")))
		}
		return check(c, args)
	}
}

func isCommand(c *cobra.Command, name string) bool {
	for _, sub := range c.Commands() {
		if sub.Name() == name || sub.HasAlias(name) {
			return true
		}
	}
	return false
}

// expandResume turns -r or --resume without an id (the last argument, or
// one followed by another flag) into a request to pick a session.
func expandResume(args []string) []string {
	out := make([]string, 0, len(args))
	for i, a := range args {
		if a == "--" {
			return append(out, args[i:]...)
		}
		if (a == "-r" || a == "--resume") && (i == len(args)-1 || strings.HasPrefix(args[i+1], "-")) {
			out = append(out, "--resume="+pickSession)
			continue
		}
		out = append(out, a)
	}
	return out
}

// checkResume refuses an empty --resume, which would silently start a new
// session.
func checkResume(resume string, set bool) error {
	if set && strings.TrimSpace(resume) == "" {
		return errors.New(`--resume needs a session id (or a prefix of one); ponder -r alone picks one from a list, -c continues the latest`)
	}
	return nil
}

// withPipedInput joins a prompt and the text piped to ponder, as in
// "git diff | ponder -p 'review this'": the prompt first, then the input.
func withPipedInput(prompt string, in io.Reader) (string, error) {
	data, err := readAll(in)
	if err != nil {
		return "", fmt.Errorf("reading standard input: %w", err)
	}
	text := strings.TrimSpace(string(data))
	switch {
	case text == "":
		return prompt, nil
	case strings.TrimSpace(prompt) == "":
		return text, nil
	}
	return prompt + "\n\n" + text, nil
}
