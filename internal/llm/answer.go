package llm

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Bounds of one streamed answer. A model server that streams more is cut
// off with an *AnswerTooLargeError, so that an endless or enormous answer
// can neither exhaust memory nor land whole in the transcript.
const (
	// MaxBlockBytes bounds the text of one block of an answer, or the
	// input of one tool call.
	MaxBlockBytes = 8 << 20
	// MaxAnswerBytes bounds all the blocks of an answer together.
	MaxAnswerBytes = 16 << 20
	// MaxAnswerBlocks bounds how many blocks (text, tool calls, others)
	// one answer may have.
	MaxAnswerBlocks = 4096
	// MaxStreamBytes bounds the events of one answer as they arrive,
	// whatever they carry (thinking, stop and usage events, deltas of
	// blocks ponder does not keep), so that no endless stream of them
	// holds ponder either.
	MaxStreamBytes = 128 << 20
)

// AnswerTooLargeError says a streamed answer passed one of its bounds; the
// stream was stopped there.
type AnswerTooLargeError struct {
	Provider string
	BaseURL  string
	// What passed the bound: "a text block", "the input of tool call X",
	// "the answer", "the answer's blocks", "the output tokens".
	What string
	// Limit is the bound, in Unit.
	Limit int
	Unit  string
}

func (e *AnswerTooLargeError) Error() string {
	limit := fmt.Sprintf("%d %s", e.Limit, e.Unit)
	if e.Unit == "bytes" && e.Limit >= 1<<20 && e.Limit%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB", e.Limit>>20)
	}
	return fmt.Sprintf("%s: the model's answer is too large: %s passed %s (base URL %s); ponder stopped reading it",
		e.Provider, e.What, limit, e.BaseURL)
}

// AnswerBudget keeps count of a streamed answer against its bounds. The
// zero value is not ready; use NewAnswerBudget.
type AnswerBudget struct {
	provider, baseURL string
	maxTokens         int
	total             int
	blocks            int
	stream            int
}

// NewAnswerBudget counts an answer from provider at baseURL to a request
// that allowed maxTokens output tokens (0: the server's own limit).
func NewAnswerBudget(provider, baseURL string, maxTokens int) *AnswerBudget {
	return &AnswerBudget{provider: provider, baseURL: baseURL, maxTokens: maxTokens}
}

func (b *AnswerBudget) tooLarge(what string, limit int, unit string) error {
	return &AnswerTooLargeError{Provider: b.provider, BaseURL: b.baseURL, What: what, Limit: limit, Unit: unit}
}

// Event counts an event of n bytes as it arrived.
func (b *AnswerBudget) Event(n int) error {
	b.stream += n
	if b.stream > MaxStreamBytes {
		return b.tooLarge("the stream of its events", MaxStreamBytes, "bytes")
	}
	return nil
}

// Block counts a new block of the answer.
func (b *AnswerBudget) Block() error {
	b.blocks++
	if b.blocks > MaxAnswerBlocks {
		return b.tooLarge("the number of its blocks", MaxAnswerBlocks, "blocks")
	}
	return nil
}

// Grow counts n more bytes of the block what, which now holds size bytes.
func (b *AnswerBudget) Grow(what string, size, n int) error {
	b.total += n
	switch {
	case size > MaxBlockBytes:
		return b.tooLarge(what, MaxBlockBytes, "bytes")
	case b.total > MaxAnswerBytes:
		return b.tooLarge("the whole answer", MaxAnswerBytes, "bytes")
	}
	return nil
}

// Tokens checks the output tokens the server reports against the request's
// max tokens: a server that claims to have written more than it was
// allowed is not to be followed further.
func (b *AnswerBudget) Tokens(n int) error {
	if b.maxTokens > 0 && n > b.maxTokens+b.maxTokens/8 {
		return b.tooLarge(fmt.Sprintf("the %d output tokens reported", n), b.maxTokens, "tokens (the request's max tokens)")
	}
	return nil
}

// ErrBadEvent marks a stream event that could not be read.
var ErrBadEvent = errors.New("undecodable event")

// BadEventError says the model server sent an event ponder cannot read: it
// is not a JSON object, or a field that carries the answer has the wrong
// type. Like a stream cut short, it is worth another attempt.
type BadEventError struct {
	Provider string
	BaseURL  string
	// Event is the event's type ("content_block_delta", "chunk").
	Event string
	// Why says what is wrong ("delta.text is an array, not a string").
	Why string
	// Data is the start of the event's data.
	Data string
}

// NewBadEventError builds a BadEventError, keeping at most 200 bytes of data.
func NewBadEventError(provider, baseURL, event, why, data string) *BadEventError {
	data = strings.TrimSpace(data)
	if len(data) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(data[cut]) {
			cut--
		}
		data = data[:cut] + "…"
	}
	return &BadEventError{Provider: provider, BaseURL: baseURL, Event: event, Why: why, Data: data}
}

func (e *BadEventError) Error() string {
	return fmt.Sprintf("%s: undecodable %s event from the model server (base URL %s): %s: %s",
		e.Provider, e.Event, e.BaseURL, e.Why, e.Data)
}

// Is makes the error match ErrBadEvent and ErrStreamBroken (so that it is
// retried like a stream cut short).
func (e *BadEventError) Is(target error) bool {
	return target == ErrBadEvent || target == ErrStreamBroken
}

// JSONKind names the kind of a JSON value from its text: "an object", "an
// array", "a string", "a number", "true or false", "null", or "not JSON".
func JSONKind(raw string) string {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "empty"
	}
	switch c := raw[0]; {
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == '-' || (c >= '0' && c <= '9'):
		return "a number"
	case c == 't' || c == 'f':
		return "true or false"
	case c == 'n':
		return "null"
	}
	return "not JSON"
}
