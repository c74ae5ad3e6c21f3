package sessiontool

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/ponder-agent/ponder/internal/permission"
	"github.com/ponder-agent/ponder/internal/tool"
)

//go:embed ask.md
var askDescription string

// AskUserQuestion puts multiple-choice questions to the user.
type AskUserQuestion struct {
	tool.Meta
	Ask permission.Asker
}

// NewAskUserQuestion returns the tool; it runs alone, one set of
// questions at a time.
func NewAskUserQuestion(ask permission.Asker) AskUserQuestion {
	return AskUserQuestion{Meta: tool.NewMeta[askInput]("AskUserQuestion", permission.KindNone, askDescription, false), Ask: ask}
}

type askInput struct {
	Questions []struct {
		Question string `json:"question" desc:"The full question, ending with a question mark."`
		Header   string `json:"header" desc:"A very short label for the question (at most 12 characters), e.g. \"Auth method\"."`
		Options  []struct {
			Label       string `json:"label" desc:"The choice as the user sees it, 1 to 5 words."`
			Description string `json:"description" desc:"What this choice means or implies."`
		} `json:"options" desc:"2 to 4 choices. Do not add an \"Other\" choice: the user can always type an answer."`
		MultiSelect bool `json:"multiSelect" desc:"Let the user pick several choices."`
	} `json:"questions" desc:"1 to 4 questions."`
}

// Prepare checks the counts the user interface can show.
func (t AskUserQuestion) Prepare(env *tool.Env, input json.RawMessage) (tool.Call, error) {
	in, err := tool.Decode[askInput](input)
	if err != nil {
		return nil, err
	}
	if n := len(in.Questions); n < 1 || n > 4 {
		return nil, fmt.Errorf("ask 1 to 4 questions, not %d", n)
	}
	qs := make([]permission.UserQuestion, len(in.Questions))
	seen := map[string]bool{}
	for i, q := range in.Questions {
		if strings.TrimSpace(q.Question) == "" {
			return nil, fmt.Errorf("question %d is empty", i+1)
		}
		if seen[q.Question] {
			return nil, fmt.Errorf("question %d repeats an earlier question", i+1)
		}
		seen[q.Question] = true
		if n := len(q.Options); n < 2 || n > 4 {
			return nil, fmt.Errorf("question %d needs 2 to 4 options, not %d", i+1, n)
		}
		uq := permission.UserQuestion{Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
		for _, o := range q.Options {
			if strings.TrimSpace(o.Label) == "" {
				return nil, fmt.Errorf("question %d has an option without a label", i+1)
			}
			uq.Options = append(uq.Options, permission.UserOption{Label: o.Label, Description: o.Description})
		}
		qs[i] = uq
	}
	return call{run: func(ctx context.Context) tool.Result { return t.run(ctx, env, qs) }}, nil
}

func (t AskUserQuestion) run(ctx context.Context, env *tool.Env, qs []permission.UserQuestion) tool.Result {
	ans, err := t.Ask.Ask(ctx, permission.Question{Kind: permission.AskUser, AgentID: env.AgentID, ToolUseID: tool.CallID(ctx), Questions: qs})
	switch {
	case errors.Is(err, permission.ErrNoAnswerer):
		return tool.Errorf("Nobody can answer questions in this session. Go on with your best judgement and state the assumptions you make.")
	case err != nil:
		return tool.Errorf("The user closed the questions without answering. Stop and wait for the user's next message.")
	}
	var b strings.Builder
	b.WriteString("The user answered:")
	for _, q := range qs {
		a := strings.TrimSpace(ans.Answers[q.Question])
		if a == "" {
			a = "(no answer)"
		}
		fmt.Fprintf(&b, "\n- %q: %s", q.Question, a)
	}
	b.WriteString("\nTake these answers into account as you continue.")
	return tool.Result{Content: b.String(), Summary: fmt.Sprintf("%d answered", len(qs)), Answers: ans.Answers}
}
