// An MCP client written with the official TypeScript SDK that drives
// `ponder mcp serve`, for ponder's end-to-end tests. It lists the tools,
// then makes the calls $CALLS names (a JSON array of {name, arguments};
// an argument "$session" is replaced by the session_id of the last result)
// and prints one JSON object: the tools, each call's result, and the log
// and progress notifications that arrived during each call. $SERVE_ARGS
// (a JSON array) adds flags to ponder mcp serve.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const transport = new StdioClientTransport({
  command: process.env.PONDER_BIN,
  args: ["mcp", "serve", ...JSON.parse(process.env.SERVE_ARGS ?? "[]")],
  cwd: process.env.PROJECT_DIR,
  env: process.env,
  stderr: "inherit",
});
const client = new Client({ name: "ponder-e2e", version: "1.0.0" });
await client.connect(transport);
await client.setLoggingLevel("debug");

let logs = [];
client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
  logs.push(n.params.data?.event ?? String(n.params.data));
});

const out = { tools: (await client.listTools()).tools, calls: [] };
let session = "";
for (const call of JSON.parse(process.env.CALLS)) {
  const args = {};
  for (const [k, v] of Object.entries(call.arguments)) {
    args[k] = v === "$session" ? session : v;
  }
  logs = [];
  let progress = 0;
  const result = await client.callTool({ name: call.name, arguments: args }, undefined, {
    timeout: 120000,
    onprogress: () => {
      progress++;
    },
  });
  session = result.structuredContent?.session_id ?? session;
  out.calls.push({ name: call.name, result, logs, progress });
}
await client.close();
process.stdout.write(JSON.stringify(out) + "\n");
