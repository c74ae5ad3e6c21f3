// An editor made of the official ACP TypeScript SDK: it starts `ponder acp`
// as editors do, runs one scenario, and prints what it saw as one JSON
// object for the Go test to check.
//
// Environment: PONDER_BIN (the binary), ACP_SDK_ENTRY (the SDK's module
// file), SCENARIO (plan, ask, cancel or load), ANSWER (the option picked for
// every permission request), SESSION_ID (for load), PONDER_ARGS (more
// arguments, space-separated), PROJECT (the project directory), PROMPT
// (for ask), BUFFERS (the editor's buffers, offered through fs requests).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const acp = await import(pathToFileURL(process.env.ACP_SDK_ENTRY).href);
const project = process.env.PROJECT;
const extra = (process.env.PONDER_ARGS || "").split(" ").filter(Boolean);
const child = spawn(process.env.PONDER_BIN, ["acp", ...extra], { cwd: project, env: process.env, stdio: ["pipe", "pipe", "inherit"] });
const exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));

const updates = [];
const permissions = [];
// The editor's buffers (BUFFERS: a JSON object of path to text), when it
// offers them; fs requests are recorded.
const buffers = process.env.BUFFERS ? JSON.parse(process.env.BUFFERS) : null;
const fsRequests = [];
let waiters = [];
const notify = () => {
  const still = [];
  for (const w of waiters) (w.cond() ? w.resolve() : still.push(w));
  waiters = still;
};
const until = (cond, what) =>
  new Promise((resolve, reject) => {
    if (cond()) return resolve();
    const timer = setTimeout(() => reject(new Error("timed out waiting for " + what)), 30000);
    waiters.push({ cond, resolve: () => (clearTimeout(timer), resolve()) });
  });

const app = acp
  .client({ name: "ponder-e2e" })
  .onRequest(acp.methods.client.session.requestPermission, async (ctx) => {
    permissions.push(ctx.params);
    notify();
    const answer = process.env.ANSWER;
    if (!answer) return { outcome: { outcome: "cancelled" } };
    return { outcome: { outcome: "selected", optionId: answer } };
  })
  .onRequest(acp.methods.client.fs.readTextFile, async (ctx) => {
    fsRequests.push({ method: "read", ...ctx.params });
    if (!(ctx.params.path in buffers)) throw new Error("no buffer for " + ctx.params.path);
    return { content: buffers[ctx.params.path] };
  })
  .onRequest(acp.methods.client.fs.writeTextFile, async (ctx) => {
    fsRequests.push({ method: "write", ...ctx.params });
    buffers[ctx.params.path] = ctx.params.content; // kept unsaved, as a buffer
    return {};
  })
  .onNotification(acp.methods.client.session.update, (ctx) => {
    updates.push(ctx.params);
    notify();
  });

const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
const report = { updates, permissions, fsRequests, errors: [] };
try {
  const spawned = Date.now();
  await app.connectWith(stream, async (cx) => {
    report.initialize = await cx.request(acp.methods.agent.initialize, {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: !!buffers, writeTextFile: !!buffers } },
    });
    report.initializeMs = Date.now() - spawned;
    const scenario = process.env.SCENARIO;
    if (scenario === "load") {
      report.load = await cx.request(acp.methods.agent.session.load, { sessionId: process.env.SESSION_ID, cwd: project, mcpServers: [] });
      report.sessionId = process.env.SESSION_ID;
      return;
    }
    const asked = Date.now();
    const session = await cx.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
    report.newSessionMs = Date.now() - asked;
    report.session = session;
    report.sessionId = session.sessionId;
    if (scenario === "plan") {
      await cx.request(acp.methods.agent.session.setMode, { sessionId: session.sessionId, modeId: "plan" });
      const resp = await cx.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text: "add a greeting" }],
      });
      report.stopReason = resp.stopReason;
    } else if (scenario === "ask") {
      const resp = await cx.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text: process.env.PROMPT || "make a file" }],
      });
      report.stopReason = resp.stopReason;
    } else if (scenario === "cancel") {
      const started = Date.now();
      const pending = cx.request(acp.methods.agent.session.prompt, {
        sessionId: session.sessionId,
        prompt: [{ type: "text", text: "take your time" }],
      });
      await until(
        () => updates.some((u) => u.update.sessionUpdate === "tool_call_update" && u.update.status === "completed"),
        "the first tool call to finish",
      );
      const cancelledAt = Date.now();
      await cx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
      const resp = await pending;
      report.stopReason = resp.stopReason;
      report.cancelMs = Date.now() - cancelledAt;
      report.totalMs = Date.now() - started;
    } else {
      throw new Error("unknown scenario " + scenario);
    }
  });
} catch (err) {
  report.errors.push(String(err && err.stack ? err.stack : err));
}
child.stdin.end();
report.exit = await exited;
process.stdout.write(JSON.stringify(report) + "\n");
