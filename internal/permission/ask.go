package permission

import (
	"context"
	"errors"

	"github.com/ponder-agent/ponder/event"
)

// The question vocabulary is the public one of package event, so that
// front ends and the SDK answer questions without internal types.
type (
	// QuestionKind names what a question asks.
	QuestionKind = event.QuestionKind
	// Option is one answer a plan approval offers.
	Option = event.Option
	// UserQuestion is one question of an AskUserQuestion call.
	UserQuestion = event.UserQuestion
	// UserOption is one choice of a UserQuestion.
	UserOption = event.UserOption
	// Question is put to whoever is in charge of the session.
	Question = event.Question
	// Answer is the reply to a Question.
	Answer = event.Answer
)

// The kinds of question.
const (
	AskToolUse   = event.AskToolUse
	AskEnterPlan = event.AskEnterPlan
	AskPlanExit  = event.AskPlanExit
	AskUser      = event.AskUser
)

// Asker puts questions to whoever is in charge of the session and waits
// for the answer. Ask returns ErrNoAnswerer at once when nobody can
// answer, and ErrInterrupted (or the context's error) when the question
// was withdrawn before an answer came.
type Asker interface {
	Ask(ctx context.Context, q Question) (Answer, error)
}

// ErrNoAnswerer means that no person or program is there to answer (for
// example a headless run without a control channel).
var ErrNoAnswerer = errors.New("no one is available to answer")

// ErrInterrupted means that the question was dismissed or its answerer
// went away without answering.
var ErrInterrupted = errors.New("the question was dismissed without an answer")

// NoAnswerer is the Asker of a session nobody can answer.
type NoAnswerer struct{}

// Ask always fails with ErrNoAnswerer.
func (NoAnswerer) Ask(context.Context, Question) (Answer, error) { return Answer{}, ErrNoAnswerer }
