package fakemodel

import (
	"context"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
)

// testCtx is a context that ends with the test, or after a generous limit
// so that a broken test fails instead of hanging.
func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newServer(t *testing.T, replies ...Reply) *Server {
	t.Helper()
	srv := NewServer(Script{Replies: replies})
	t.Cleanup(srv.Close)
	return srv
}

func anthropicClient(srv *Server) anthropic.Client {
	return anthropic.NewClient(aoption.WithBaseURL(srv.URL()), aoption.WithAPIKey("x"), aoption.WithMaxRetries(0))
}

func openAIClient(srv *Server) openai.Client {
	return openai.NewClient(ooption.WithBaseURL(srv.URL()+"/v1"), ooption.WithAPIKey("x"), ooption.WithMaxRetries(0))
}

func anthropicParams(user string) anthropic.MessageNewParams {
	return anthropic.MessageNewParams{
		Model:     "claude-test",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(user))},
	}
}

func openAIParams(user string) openai.ChatCompletionNewParams {
	return openai.ChatCompletionNewParams{
		Model:         "gpt-test",
		Messages:      []openai.ChatCompletionMessageParamUnion{openai.UserMessage(user)},
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
}

// anthropicResult is what one streamed Anthropic call delivered.
type anthropicResult struct {
	events  []string         // event types in order
	texts   []string         // text deltas
	partial map[int64]string // input_json_delta pieces joined, per block index
	msg     anthropic.Message
	err     error // stream.Err()
	accErr  error // first Accumulate error
}

func streamAnthropic(t *testing.T, srv *Server, params anthropic.MessageNewParams) anthropicResult {
	t.Helper()
	c := anthropicClient(srv)
	stream := c.Messages.NewStreaming(testCtx(t), params)
	defer stream.Close()
	res := anthropicResult{partial: map[int64]string{}}
	for stream.Next() {
		ev := stream.Current()
		res.events = append(res.events, ev.Type)
		if ev.Type == "content_block_delta" {
			switch ev.Delta.Type {
			case "text_delta":
				res.texts = append(res.texts, ev.Delta.Text)
			case "input_json_delta":
				res.partial[ev.Index] += ev.Delta.PartialJSON
			}
		}
		if err := res.msg.Accumulate(ev); err != nil && res.accErr == nil {
			res.accErr = err
		}
	}
	res.err = stream.Err()
	return res
}

// openAIResult is what one streamed OpenAI call delivered.
type openAIResult struct {
	chunks  int
	texts   []string       // content deltas
	args    map[int]string // tool call argument pieces joined, per index
	finish  string
	usage   openai.CompletionUsage
	acc     openai.ChatCompletionAccumulator
	err     error
	addFail bool
}

func streamOpenAI(t *testing.T, srv *Server, params openai.ChatCompletionNewParams) *openAIResult {
	t.Helper()
	c := openAIClient(srv)
	stream := c.Chat.Completions.NewStreaming(testCtx(t), params)
	defer stream.Close()
	res := &openAIResult{args: map[int]string{}}
	for stream.Next() {
		chunk := stream.Current()
		res.chunks++
		if !res.acc.AddChunk(chunk) {
			res.addFail = true
		}
		if chunk.JSON.Usage.Valid() && chunk.Usage.TotalTokens > 0 {
			res.usage = chunk.Usage
		}
		for _, ch := range chunk.Choices {
			if ch.Delta.Content != "" {
				res.texts = append(res.texts, ch.Delta.Content)
			}
			for _, tc := range ch.Delta.ToolCalls {
				res.args[int(tc.Index)] += tc.Function.Arguments
			}
			if ch.FinishReason != "" {
				res.finish = ch.FinishReason
			}
		}
	}
	res.err = stream.Err()
	return res
}

// settled waits until the server has recorded how every request ended (a
// client can see the end of a response before the handler returns) and
// returns the log.
func settled(t *testing.T, srv *Server) []Request {
	t.Helper()
	err := srv.WaitFor(testCtx(t), func(rs []Request) bool {
		for _, r := range rs {
			if r.Outcome == OutcomePending {
				return false
			}
		}
		return true
	})
	if err != nil {
		t.Fatalf("requests never settled: %v", err)
	}
	return srv.Requests()
}
