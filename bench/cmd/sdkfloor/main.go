// Command sdkfloor makes the one streaming request of ponder's 1-turn
// benchmark with nothing but the model SDKs linked, so the report can
// show how much of a run is the SDKs' own cost.
package main

import (
	"context"
	"fmt"
	"os"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	// Linked like in ponder, though unused here: its initialisation is
	// part of the floor.
	_ "github.com/openai/openai-go/v3"
)

func main() {
	svc := sdk.NewMessageService(option.WithBaseURL(os.Getenv("ANTHROPIC_BASE_URL")), option.WithAPIKey("x"), option.WithMaxRetries(0))
	stream := svc.NewStreaming(context.Background(), sdk.MessageNewParams{
		Model: "m", MaxTokens: 100,
		Messages: []sdk.MessageParam{sdk.NewUserMessage(sdk.NewTextBlock("hi"))},
	})
	n := 0
	for stream.Next() {
		n++
	}
	if err := stream.Err(); err != nil || n == 0 {
		fmt.Fprintln(os.Stderr, "sdkfloor:", err)
		os.Exit(1)
	}
}
