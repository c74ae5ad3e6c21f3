package openai

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"github.com/ponder-agent/ponder/internal/llm"
)

// chunk decodes one chunk's data as the SDK does.
func chunk(t testing.TB, data string) sdk.ChatCompletionChunk {
	t.Helper()
	var ch sdk.ChatCompletionChunk
	if err := json.Unmarshal([]byte(data), &ch); err != nil {
		t.Fatalf("decoding %s: %v", data, err)
	}
	return ch
}

func content(s string) string {
	b, _ := json.Marshal(s)
	return `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":` + string(b) + `}}]}`
}

const finish = `{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`

func feed(t testing.TB, a *accumulator, data ...string) error {
	t.Helper()
	for _, d := range data {
		if _, _, err := a.add(chunk(t, d)); err != nil {
			return err
		}
	}
	return nil
}

func TestTextIsAssembled(t *testing.T) {
	a := newAccumulator("http://model.test/v1", 0)
	if err := feed(t, a, content("hello, "), content("world"), finish); err != nil {
		t.Fatal(err)
	}
	if resp := a.response(); resp.Message.Content[0].Text != "hello, world" {
		t.Fatalf("content %+v", resp.Message.Content)
	}
}

func TestUndecodableChunks(t *testing.T) {
	cases := map[string]string{
		"content array": `{"id":"c","choices":[{"index":0,"delta":{"content":["a"]}}]}`,
		"delta array":   `{"id":"c","choices":[{"index":0,"delta":[1]}]}`,
		"choices obj":   `{"id":"c","choices":{"index":0}}`,
		"args number":   `{"id":"c","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":12}}]}}]}`,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			err := feed(t, newAccumulator("http://model.test/v1", 0), data)
			var bad *llm.BadEventError
			if !errors.As(err, &bad) || !llm.IsTransient(err) || !strings.Contains(err.Error(), "http://model.test/v1") {
				t.Fatalf("error %v, want a BadEventError that is retried and names the server", err)
			}
		})
	}
	// Null content is how servers say "none".
	if err := feed(t, newAccumulator("", 0), `{"id":"c","choices":[{"index":0,"delta":{"content":null,"role":"assistant"}}]}`); err != nil {
		t.Fatal(err)
	}
}

func TestEndlessTextIsCut(t *testing.T) {
	a := newAccumulator("http://model.test/v1", 0)
	ch := chunk(t, content(strings.Repeat("x", 64<<10)))
	var err error
	for n := 0; err == nil && n < 1000; n++ {
		_, _, err = a.add(ch)
	}
	var big *llm.AnswerTooLargeError
	if !errors.As(err, &big) || llm.IsTransient(err) {
		t.Fatalf("error %v, want an AnswerTooLargeError", err)
	}
	if a.text.Len() > llm.MaxBlockBytes+64<<10 {
		t.Errorf("held %d bytes", a.text.Len())
	}
}

func TestProgress(t *testing.T) {
	a := newAccumulator("", 0)
	for _, c := range []struct {
		data  string
		moved bool
	}{
		{`{"id":"c","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}`, true},
		{content(""), false},
		{`{"id":"c","choices":[{"index":0,"delta":{}}]}`, false},
		{`{"id":"c","choices":[{"index":0,"delta":{"reasoning_content":"hmm"}}]}`, true},
		{content("x"), true},
		{finish, true},
	} {
		if _, moved, err := a.add(chunk(t, c.data)); err != nil || moved != c.moved {
			t.Errorf("%s: moved %v (%v), want %v", c.data, moved, err, c.moved)
		}
	}
}

// BenchmarkAssemble folds answers of 40-byte deltas in: the time per byte
// stays the same whatever the answer's size.
func BenchmarkAssemble(b *testing.B) {
	ch, end := chunk(b, content(strings.Repeat("y", 40))), chunk(b, finish)
	for _, size := range []int{1 << 20, 4 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				a := newAccumulator("", 0)
				for range size / 40 {
					a.add(ch)
				}
				a.add(end)
				_ = a.response()
			}
		})
	}
}
