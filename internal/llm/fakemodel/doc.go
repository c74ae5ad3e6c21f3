// Package fakemodel is the scripted stand-in for a model that every ponder
// test talks to instead of a real API.
//
// A Script is an ordered list of Replies. Each incoming request is answered
// by the first reply that still has uses left and whose Match accepts the
// request; a request nothing accepts gets a 400 error that names it. A
// reply can stream text and tool calls, wait before answering or between
// chunks, fail with an HTTP status (with retry-after headers), or cut the
// connection in the middle of the stream; over HTTP it can also send only
// keep-alive pings, stream its text without end, in deltas of a chosen
// size, or with a text delta that is not a string.
//
// The same script can be served two ways:
//
//   - NewServer listens on 127.0.0.1 and speaks both wire APIs over real
//     HTTP: the Anthropic Messages API at /v1/messages and OpenAI Chat
//     Completions at /v1/chat/completions (streaming and not). End-to-end
//     tests run the real ponder binary with Server.Env in its environment.
//   - NewProvider answers in process as an llm.Provider, for unit tests of
//     the agent loop that need no HTTP.
//
// Both keep a log of the requests they received, decoded into a
// provider-neutral Request, and report the replies that were never used.
//
// Usage:
//
//	srv := fakemodel.NewServer(fakemodel.Script{Replies: []fakemodel.Reply{
//		{Name: "read", When: fakemodel.Match{LastUser: "summarise"},
//			ToolCalls: []fakemodel.ToolCall{{Name: "read_file", Input: map[string]any{"path": "README.md"}}}},
//		{Name: "answer", When: fakemodel.Match{ToolResult: "# ponder"},
//			Text: "It is a coding agent."},
//	}})
//	defer srv.Close()
//	cmd := exec.Command(ponderBinary, args...) // asking to summarise the README
//	cmd.Env = append(os.Environ(), srv.Env("anthropic")...)
//	// ... run cmd and check its output, then:
//	if unused := srv.Unused(); len(unused) > 0 {
//		t.Errorf("replies never used: %v", unused)
//	}
//
// Scripts can also live in JSON files (see LoadScript), where durations
// are written as "150ms" or "2s".
package fakemodel
