// Drives ponder with the real Claude Agent SDK (@anthropic-ai/claude-agent-sdk)
// through pathToClaudeCodeExecutable, as any program embedding the SDK would.
// The Go test picks a scenario with SCENARIO and passes the paths:
//   PONDER_BIN   the ponder binary
//   PROJECT_DIR  the project the session works in
//   SDK_MODULE   the SDK's sdk.mjs
// Everything the host sees is printed as JSON lines on standard output:
//   {"kind":"message","message":…}      every SDK message
//   {"kind":"can_use_tool","tool":…,"input":…,"options":…}
//   {"kind":"hook","input":…}
//   {"kind":"call","name":…,"value":…}  what a Query method returned
//   {"kind":"error","error":…}          query() threw
//   {"kind":"done"}
import { pathToFileURL } from "node:url";

const { query } = await import(pathToFileURL(process.env.SDK_MODULE).href);

const out = (v) => process.stdout.write(JSON.stringify(v) + "\n");

// A prompt stream the scenario feeds one message at a time.
function inbox() {
  const waiting = [];
  const queued = [];
  let ended = false;
  return {
    push(text) {
      const msg = { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" };
      if (waiting.length) waiting.shift()({ value: msg, done: false });
      else queued.push(msg);
    },
    end() {
      ended = true;
      while (waiting.length) waiting.shift()({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return {
        next() {
          if (queued.length) return Promise.resolve({ value: queued.shift(), done: false });
          if (ended) return Promise.resolve({ value: undefined, done: true });
          return new Promise((resolve) => waiting.push(resolve));
        },
      };
    },
  };
}

const base = {
  pathToClaudeCodeExecutable: process.env.PONDER_BIN,
  cwd: process.env.PROJECT_DIR,
  env: { ...process.env },
  stderr: (s) => process.stderr.write(s),
};

// logUse records a permission question and answers it with decide.
function canUseTool(decide) {
  return async (tool, input, options) => {
    out({ kind: "can_use_tool", tool, input, tool_use_id: options.toolUseID, suggestions: options.suggestions ?? null, reason: options.decisionReason ?? null });
    return decide(tool, input, options);
  };
}

const scenarios = {
  // A plain turn: the answer comes back as assistant and result messages.
  text: () => ({ prompt: "say hello", options: {} }),

  // Plan mode: the plan is approved through canUseTool("ExitPlanMode"),
  // with the mode to continue in.
  "plan-approve": () => ({
    prompt: "add a greeting",
    options: {
      permissionMode: "plan",
      canUseTool: canUseTool(async (tool, input) => {
        if (tool === "ExitPlanMode") {
          return { behavior: "allow", updatedInput: input, updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }] };
        }
        return { behavior: "allow", updatedInput: input };
      }),
    },
  }),

  // Plan mode: the plan is sent back with feedback.
  "plan-reject": () => ({
    prompt: "add a greeting",
    options: {
      permissionMode: "plan",
      canUseTool: canUseTool(async (tool, input) => {
        if (tool === "ExitPlanMode") return { behavior: "deny", message: "use a token bucket instead" };
        return { behavior: "allow", updatedInput: input };
      }),
    },
  }),

  // Plan mode: the host approves a write anyway; plan mode still refuses it.
  "plan-host-allows-write": () => ({
    prompt: "write it now",
    options: { permissionMode: "plan", canUseTool: canUseTool(async (tool, input) => ({ behavior: "allow", updatedInput: input })) },
  }),

  // Default mode: the host allows a write.
  "write-allow": () => ({
    prompt: "create the file",
    options: { canUseTool: canUseTool(async (tool, input) => ({ behavior: "allow", updatedInput: input })) },
  }),

  // The SDK's settings option (SETTINGS, a JSON object) reaches ponder as
  // --settings; the host allows every call when HOST_ALLOWS is set and
  // refuses every one otherwise.
  settings: () => ({
    prompt: process.env.PROMPT,
    options: {
      settings: process.env.SETTINGS,
      canUseTool: canUseTool(async (tool, input) =>
        process.env.HOST_ALLOWS ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: "the host says no" }),
    },
  }),

  // Default mode: the host refuses a write.
  "write-deny": () => ({
    prompt: "create the file",
    options: { canUseTool: canUseTool(async () => ({ behavior: "deny", message: "not that file" })) },
  }),

  // The host allows a write but changes where it goes; the changed call
  // is judged again.
  "write-redirect": () => ({
    prompt: "create the file",
    options: {
      canUseTool: canUseTool(async (tool, input) => ({ behavior: "allow", updatedInput: { ...input, file_path: process.env.REDIRECT_TO } })),
    },
  }),

  // The model asks a question; the host answers it in updatedInput.
  "ask-question": () => ({
    prompt: "pick a colour",
    options: {
      canUseTool: canUseTool(async (tool, input) => {
        if (tool === "AskUserQuestion") {
          return { behavior: "allow", updatedInput: { ...input, answers: { [input.questions[0].question]: input.questions[0].options[1].label } } };
        }
        return { behavior: "deny", message: "unexpected" };
      }),
    },
  }),

  // A PreToolUse hook blocks Bash; every other call is allowed.
  "hook-blocks": () => ({
    prompt: "run it",
    options: {
      permissionMode: "acceptEdits",
      canUseTool: canUseTool(async (tool, input) => ({ behavior: "allow", updatedInput: input })),
      hooks: {
        PreToolUse: [{
          matcher: "Bash",
          hooks: [async (input) => {
            out({ kind: "hook", input });
            return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no shell today" } };
          }],
        }],
        UserPromptSubmit: [{
          hooks: [async (input) => {
            out({ kind: "hook", input });
            return { hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "the user prefers tabs" } };
          }],
        }],
      },
    },
  }),

  // The model asks to enter plan mode; the host agrees, then approves an
  // edited plan.
  "enter-and-edit": () => ({
    prompt: "plan a greeting",
    options: {
      canUseTool: canUseTool(async (tool, input) => {
        if (tool === "ExitPlanMode") {
          return { behavior: "allow", updatedInput: { ...input, plan: input.plan + "\n3. Also say goodbye.\n" } };
        }
        return { behavior: "allow", updatedInput: input };
      }),
    },
  }),

  // PostToolUse adds context to a result; a Stop hook keeps the turn
  // going once.
  "post-and-stop": () => ({
    prompt: "list files",
    options: {
      hooks: {
        PostToolUse: [{ hooks: [async (input) => {
          out({ kind: "hook", input });
          return { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "remember to check the tests" } };
        }] }],
        Stop: [{ hooks: [async (input) => {
          out({ kind: "hook", input });
          return input.stop_hook_active ? {} : { decision: "block", reason: "summarise what you found first" };
        }] }],
      },
    },
  }),

  // The model delegates to a subagent.
  delegate: () => ({ prompt: "delegate the search", options: {} }),

  // Stops after one model request.
  "max-turns": () => ({ prompt: "look around", options: { maxTurns: 1 } }),
};

// Scenarios that keep a conversation going and call Query methods.
const interactive = {
  // setPermissionMode('plan') between two turns: the second turn's write
  // is refused by plan mode.
  "set-mode": async () => {
    const box = inbox();
    const q = query({ prompt: box, options: { ...base, canUseTool: canUseTool(async (tool, input) => ({ behavior: "allow", updatedInput: input })) } });
    box.push("first");
    let results = 0;
    for await (const m of q) {
      out({ kind: "message", message: m });
      if (m.type === "result") {
        results++;
        if (results === 1) {
          out({ kind: "call", name: "setPermissionMode", value: (await q.setPermissionMode("plan")) ?? null });
          box.push("second");
        } else {
          box.end();
        }
      }
    }
  },

  // interrupt() while the answer streams.
  interrupt: async () => {
    const box = inbox();
    const q = query({ prompt: box, options: { ...base, includePartialMessages: true } });
    box.push("tell a long story");
    let asked = false;
    for await (const m of q) {
      out({ kind: "message", message: m });
      if (m.type === "stream_event" && !asked) {
        asked = true;
        out({ kind: "call", name: "interrupt", value: (await q.interrupt()) ?? null });
      }
      if (m.type === "result") box.end();
    }
  },

  // interrupt() while canUseTool is still deciding: the callback's signal
  // is aborted, and the call does not run.
  "cancel-question": async () => {
    const box = inbox();
    let asked;
    const askedOnce = new Promise((resolve) => (asked = resolve));
    const q = query({
      prompt: box,
      options: {
        ...base,
        canUseTool: async (tool, input, { signal }) => {
          out({ kind: "can_use_tool", tool, input });
          asked();
          await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
          out({ kind: "aborted", tool });
          return { behavior: "deny", message: "too late" };
        },
      },
    });
    box.push("create the file");
    askedOnce.then(async () => out({ kind: "call", name: "interrupt", value: (await q.interrupt()) ?? null }));
    for await (const m of q) {
      out({ kind: "message", message: m });
      if (m.type === "result") box.end();
    }
  },

  // A second query resumes the first one's session by its id.
  resume: async () => {
    let id;
    for await (const m of query({ prompt: "the number is 42", options: base })) {
      out({ kind: "message", message: m });
      if (m.type === "result") id = m.session_id;
    }
    for await (const m of query({ prompt: "which number was it?", options: { ...base, resume: id } })) {
      out({ kind: "message", message: m });
    }
  },

  // The other control requests the SDK sends.
  controls: async () => {
    const box = inbox();
    const q = query({ prompt: box, options: base });
    out({ kind: "call", name: "supportedCommands", value: await q.supportedCommands() });
    out({ kind: "call", name: "setModel", value: (await q.setModel("other-model")) ?? null });
    out({ kind: "call", name: "setMaxThinkingTokens", value: (await q.setMaxThinkingTokens(1000)) ?? null });
    out({ kind: "call", name: "mcpServerStatus", value: await q.mcpServerStatus() });
    out({ kind: "call", name: "getContextUsage", value: await q.getContextUsage() });
    box.push("hello");
    for await (const m of q) {
      out({ kind: "message", message: m });
      if (m.type === "result") box.end();
    }
  },
};

const name = process.env.SCENARIO;
try {
  if (interactive[name]) {
    await interactive[name]();
  } else if (scenarios[name]) {
    const s = scenarios[name]();
    for await (const m of query({ prompt: s.prompt, options: { ...base, ...s.options } })) {
      out({ kind: "message", message: m });
    }
  } else {
    throw new Error("unknown scenario " + name);
  }
} catch (e) {
  out({ kind: "error", error: String(e && e.stack ? e.stack : e) });
}
out({ kind: "done" });
