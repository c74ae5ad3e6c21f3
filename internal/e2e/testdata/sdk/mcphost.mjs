// A program embedding the Claude Agent SDK that serves an MCP server of its
// own (createSdkMcpServer), driving ponder through
// pathToClaudeCodeExecutable. The Go test passes:
//   PONDER_BIN, PROJECT_DIR, SDK_MODULE, ZOD_MODULE  as for driver.mjs
//   CALL_LOG         the file each call of the server's tool appends to
//   PROMPT           the one user message
//   PERMISSION_MODE  the mode to start in (default: "default")
//   DISALLOWED       a tool name to pass as disallowedTools, if any
//   ON_WAIT          "interrupt": the tool wait interrupts the turn
//   ADD_POLICY       a permission_policy the host declares for add, if any
//   NO_BUILTINS      "1": the host turns every built-in tool off (tools: [])
// It prints JSON lines: {"kind":"message"|"can_use_tool"|"call"|"error"|"done",…}
// like driver.mjs; the status of the MCP servers is the "call" named
// mcpServerStatus, asked once the turn's result arrived.
import { appendFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const { query, createSdkMcpServer, tool } = await import(pathToFileURL(process.env.SDK_MODULE).href);
const { z } = await import(pathToFileURL(process.env.ZOD_MODULE).href);

const out = (v) => process.stdout.write(JSON.stringify(v) + "\n");

// The host's own tool: it adds, and records every call that reached it.
// It claims to be read-only; ponder shows the claim and trusts it not.
const calc = createSdkMcpServer({
  name: "calc",
  version: "1.0.0",
  tools: [
    tool(
      "add",
      "Adds two numbers",
      { a: z.number(), b: z.number() },
      async ({ a, b }) => {
        appendFileSync(process.env.CALL_LOG, JSON.stringify({ tool: "add", a, b }) + "\n");
        return { content: [{ type: "text", text: `the sum is ${a + b}` }] };
      },
      { annotations: { readOnlyHint: true } },
    ),
    // A tool that never answers.
    tool("wait", "Waits for ever", {}, async () => {
      appendFileSync(process.env.CALL_LOG, JSON.stringify({ tool: "wait" }) + "\n");
      if (process.env.ON_WAIT === "interrupt") {
        out({ kind: "call", name: "interrupt", value: (await q.interrupt()) ?? null });
      }
      return new Promise(() => {});
    }),
  ],
});
let q;

// The prompt stream stays open until the result, so the status can be
// asked of a live session.
let end;
const ended = new Promise((resolve) => (end = resolve));
async function* prompt() {
  yield { type: "user", message: { role: "user", content: process.env.PROMPT }, parent_tool_use_id: null, session_id: "" };
  await ended;
}

const options = {
  pathToClaudeCodeExecutable: process.env.PONDER_BIN,
  cwd: process.env.PROJECT_DIR,
  env: { ...process.env },
  stderr: (s) => process.stderr.write(s),
  mcpServers: {
    calc: process.env.ADD_POLICY ? { ...calc, tools: [{ name: "add", permission_policy: process.env.ADD_POLICY }] } : calc,
  },
  permissionMode: process.env.PERMISSION_MODE || "default",
  canUseTool: async (name, input, opts) => {
    out({ kind: "can_use_tool", tool: name, input, tool_use_id: opts.toolUseID });
    return { behavior: "allow", updatedInput: input };
  },
};
if (process.env.DISALLOWED) options.disallowedTools = [process.env.DISALLOWED];
if (process.env.NO_BUILTINS === "1") options.tools = [];

try {
  q = query({ prompt: prompt(), options });
  for await (const m of q) {
    out({ kind: "message", message: m });
    if (m.type === "result") {
      out({ kind: "call", name: "mcpServerStatus", value: await q.mcpServerStatus() });
      end();
    }
  }
} catch (e) {
  out({ kind: "error", error: String(e && e.stack ? e.stack : e) });
}
out({ kind: "done" });
