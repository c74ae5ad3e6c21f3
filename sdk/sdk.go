// Package sdk runs ponder sessions inside a Go program: the same agent,
// tools, permission rules and enforced plan mode as the ponder command,
// without a terminal or a child process.
//
// Open a session with Options, then Send input and range over the typed
// events of the turn (package event). Questions (may this call run? is
// the plan approved? the model's multiple-choice questions) arrive as
// event.QuestionAsked; answer them with Session.Answer, or answer them
// all in one place with Options.Approve.
//
//	s, err := sdk.Open(sdk.Options{Dir: "/path/to/project", Mode: event.ModePlan})
//	if err != nil { … }
//	defer s.Close()
//	for ev, err := range s.Send(ctx, "add rate limiting to the API") {
//		if err != nil { … }
//		if q, ok := ev.(event.QuestionAsked); ok && q.Question.Kind == event.AskPlanExit {
//			s.Answer(q.Question.ID, sdk.ApprovePlan(event.OptionAcceptEdits))
//		}
//	}
//
// What the permission layer enforces does not depend on the answers: in
// plan mode nothing but the plan file changes, whatever a caller allows.
package sdk

import (
	"context"
	"errors"
	"iter"
	"net/http"
	"os"
	"sync"

	"github.com/ponder-agent/ponder/event"
	"github.com/ponder-agent/ponder/internal/app"
)

// Options configure a session. The zero value runs in the working
// directory with the settings, provider and model the environment and
// settings files name, asking every question through events.
type Options struct {
	// Dir is the project directory (default: the working directory).
	Dir string
	// ConfigDir holds settings, plans and transcripts (default:
	// $PONDER_CONFIG_DIR or ~/.ponder).
	ConfigDir string
	// Env overrides environment variables for this session: the
	// provider's (ANTHROPIC_BASE_URL, OPENAI_API_KEY …) and ponder's.
	Env map[string]string

	// Provider is "anthropic" or "openai" ("" picks from the
	// environment); Model is the main model.
	Provider string
	Model    string
	// Mode is the permission mode to start in: event.ModeDefault,
	// ModeAcceptEdits, ModePlan or ModeBypass ("": the settings' default).
	Mode string
	// AllowBypass permits bypassPermissions, as
	// --dangerously-skip-permissions does.
	AllowBypass bool
	// Trust lets the project's own settings widen permissions (as
	// --trust); untrusted, they only narrow.
	Trust bool
	// Allowed and Disallowed are permission rules, e.g.
	// "Bash(go test:*)".
	Allowed, Disallowed []string
	// MaxTurns stops a turn after this many model requests (0: no limit).
	MaxTurns int

	// Resume continues the session with this id, Continue the project's
	// latest; Fork continues a copy of it under a new id. SessionID names
	// a new session.
	Resume    string
	Continue  bool
	Fork      bool
	SessionID string

	// SystemPrompt replaces ponder's system prompt; AppendSystemPrompt is
	// added to it. Plan mode's rules are enforced whatever they say.
	SystemPrompt       string
	AppendSystemPrompt string

	// Approve, when set, answers every question the session asks, as an
	// approval policy; no QuestionAsked event is sent then. An error
	// counts as no answer: the call is refused, the plan stays in plan
	// mode.
	Approve func(ctx context.Context, q event.Question) (event.Answer, error)
	// Hooks run before and after tool calls, when input is sent and when
	// the model would end its turn. They advise; the permission rules
	// decide.
	Hooks []event.HookMatcher

	// HTTPClient is used for model requests.
	HTTPClient *http.Client
}

// ErrBusy says a turn is running already.
var ErrBusy = errors.New("sdk: a turn is running in this session")

// Session is one running session. Its methods are safe for concurrent
// use; one turn runs at a time.
type Session struct {
	a     *app.App
	queue *queue

	mu     sync.Mutex
	cancel context.CancelFunc
	busy   bool

	closeOnce sync.Once
	closeErr  error
}

// Open starts a session.
func Open(opts Options) (*Session, error) {
	s := &Session{queue: newQueue()}
	ao := app.Options{
		Dir:           opts.Dir,
		ConfigDir:     opts.ConfigDir,
		Provider:      opts.Provider,
		Model:         opts.Model,
		Mode:          opts.Mode,
		BypassAllowed: opts.AllowBypass,
		Trust:         opts.Trust,
		Allowed:       opts.Allowed,
		Disallowed:    opts.Disallowed,
		MaxTurns:      opts.MaxTurns,
		Resume:        opts.Resume,
		Continue:      opts.Continue,
		Fork:          opts.Fork,
		SessionID:     opts.SessionID,
		Interactive:   true,
		Hooks:         opts.Hooks,
		HTTPClient:    opts.HTTPClient,
		Sink:          s.queue.push,

		AppendSystemPrompt: opts.AppendSystemPrompt,
	}
	if opts.SystemPrompt != "" {
		sp := opts.SystemPrompt
		ao.SystemPrompt = &sp
	}
	if len(opts.Env) > 0 {
		env := opts.Env
		ao.Getenv = func(k string) string {
			if v, ok := env[k]; ok {
				return v
			}
			return os.Getenv(k)
		}
	}
	if opts.Approve != nil {
		ao.Asker = approver(opts.Approve)
	}
	a, err := app.New(ao)
	if err != nil {
		return nil, err
	}
	if err := a.Start(); err != nil {
		a.Close()
		return nil, err
	}
	s.a = a
	return s, nil
}

// approver adapts an approval policy to the session's asker.
type approver func(ctx context.Context, q event.Question) (event.Answer, error)

func (f approver) Ask(ctx context.Context, q event.Question) (event.Answer, error) { return f(ctx, q) }

// ID is the session id, for Options.Resume.
func (s *Session) ID() string { return s.a.ID() }

// Mode is the permission mode in force.
func (s *Session) Mode() string { return s.a.Mode() }

// SetMode changes the permission mode, through the same transition as
// every other path (entering plan mode remembers the mode to return to;
// bypassPermissions needs AllowBypass). It takes effect at the next model
// request.
func (s *Session) SetMode(mode string) error { return s.a.SetMode(mode, "sdk") }

// PlanFile is the plan file, or "" before plan mode named one.
func (s *Session) PlanFile() string { return s.a.PlanFile() }

// Plan returns the plan, and whether there is one.
func (s *Session) Plan() (string, bool) { return s.a.PlanText() }

// Answer answers a question by its id (event.Question.ID); it reports
// false when the question no longer waits.
func (s *Session) Answer(id string, ans event.Answer) bool { return s.a.Answer(id, ans) }

// Dismiss closes a question without an answer, which counts as no.
func (s *Session) Dismiss(id string) bool { return s.a.Dismiss(id) }

// Interrupt stops the running turn, if any: its commands are stopped, its
// open questions withdrawn, and Send's events end with the turn.
func (s *Session) Interrupt() {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Close ends the session: a running turn is stopped, SessionEnd hooks
// run and the transcript is closed. Closing again does nothing.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.Interrupt()
		s.closeErr = s.a.Close()
	})
	return s.closeErr
}

// Send gives the model input and returns the events of the turn as they
// happen, in order, ending with the turn's event.TurnFinished (whose
// StopReason says how it ended: "end_turn", "max_turns", "interrupted",
// "plan_pending"). The first turn also yields what the session said when
// it started (event.SessionStarted first). A failure of the turn is
// yielded as an error last. Breaking out of the loop interrupts the turn.
func (s *Session) Send(ctx context.Context, input string) iter.Seq2[event.Event, error] {
	return s.turn(ctx, func(ctx context.Context) error {
		_, err := s.a.Send(ctx, input)
		return err
	})
}

// AnswerPending answers a plan approval that a headless run of the same
// session left waiting (ponder -p in plan mode), and continues the turn.
func (s *Session) AnswerPending(ctx context.Context, ans event.Answer) iter.Seq2[event.Event, error] {
	return s.turn(ctx, func(ctx context.Context) error {
		_, err := s.a.AnswerPending(ctx, ans)
		return err
	})
}

// HasPendingPlan says a plan from an earlier headless run waits for an
// answer (see AnswerPending).
func (s *Session) HasPendingPlan() bool { return s.a.HasPendingPlan() }

// turn runs one turn and yields its events.
func (s *Session) turn(ctx context.Context, run func(context.Context) error) iter.Seq2[event.Event, error] {
	return func(yield func(event.Event, error) bool) {
		s.mu.Lock()
		if s.busy {
			s.mu.Unlock()
			yield(nil, ErrBusy)
			return
		}
		tctx, cancel := context.WithCancel(ctx)
		s.busy, s.cancel = true, cancel
		s.mu.Unlock()
		defer func() {
			cancel()
			s.mu.Lock()
			s.busy, s.cancel = false, nil
			s.mu.Unlock()
		}()
		done := make(chan error, 1)
		go func() { done <- run(tctx) }()
		var err error
		running := true
		for running {
			select {
			case err = <-done:
				running = false
			case <-s.queue.ready:
			}
			// Events are queued by the session as they happen, on the
			// goroutine that makes them; once the turn returned, every
			// event of it is queued.
			for _, e := range s.queue.take() {
				if !yield(e, nil) {
					cancel()
					<-doneOrNil(done, running)
					s.queue.take()
					return
				}
			}
		}
		if err != nil {
			yield(nil, err)
		}
	}
}

// doneOrNil waits for a turn still running to return.
func doneOrNil(done chan error, running bool) <-chan error {
	if !running {
		c := make(chan error, 1)
		c <- nil
		return c
	}
	return done
}
