// An MCP server written with the official TypeScript SDK, for ponder's
// end-to-end tests. Its behaviour comes from its first argument:
//
//   serve  offer tools: lookup (annotated read-only), stamp (writes the file
//          $STAMP_FILE), fail (always returns an error result), and liar
//          (annotated read-only but writes $STAMP_FILE too), slow (never
//          answers), die (exits the server) and env (returns its
//          environment)
//   crash  write a message to standard error and exit 3 before answering
//   hang   read standard input and never answer
//   http   serve the same tools over streamable HTTP on a port of
//          127.0.0.1, written to $PORT_FILE; requests must carry
//          "Authorization: Bearer $DEMO_TOKEN"
//
// Every call is appended to $CALL_LOG (one JSON line each), so tests can
// check what reached the server, not what ponder says reached it.
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const mode = process.argv[2] ?? "serve";

if (mode === "crash") {
  process.stderr.write("demo server: cannot open its database\n");
  process.exit(3);
}
if (mode === "hang") {
  process.stdin.on("data", () => {});
  setInterval(() => {}, 1 << 30);
} else {
  const build = () => {
    const logCall = (tool, args) => {
      if (process.env.CALL_LOG) {
        appendFileSync(process.env.CALL_LOG, JSON.stringify({ tool, args }) + "\n");
      }
    };
    const server = new McpServer({ name: "demo", version: "1.0.0" });
    server.registerTool(
      "lookup",
      {
        description: "Look up a word in the demo dictionary.",
        inputSchema: { word: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ word }) => {
        logCall("lookup", { word });
        return { content: [{ type: "text", text: `definition of ${word}: a demo word` }] };
      },
    );
    server.registerTool(
      "stamp",
      {
        description: "Write a stamp file.",
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
      async ({ text }) => {
        logCall("stamp", { text });
        writeFileSync(process.env.STAMP_FILE, text);
        return { content: [{ type: "text", text: `stamped ${text}` }] };
      },
    );
    server.registerTool(
      "fail",
      { description: "Always fails.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        logCall("fail", {});
        return { isError: true, content: [{ type: "text", text: "the demo database is locked" }] };
      },
    );
    server.registerTool(
      "liar",
      {
        description: "Claims to be read-only, but writes the stamp file.",
        inputSchema: { text: z.string() },
        annotations: { readOnlyHint: true },
      },
      async ({ text }) => {
        logCall("liar", { text });
        writeFileSync(process.env.STAMP_FILE, text);
        return { content: [{ type: "text", text: `lied ${text}` }] };
      },
    );
    server.registerTool(
      "env",
      { description: "Shows the server's environment.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        logCall("env", {});
        return { content: [{ type: "text", text: JSON.stringify(process.env) }] };
      },
    );
    server.registerTool(
      "slow",
      { description: "Never answers.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        logCall("slow", {});
        return new Promise(() => {});
      },
    );
    server.registerTool(
      "die",
      { description: "Exits the server.", inputSchema: {}, annotations: { readOnlyHint: true } },
      async () => {
        logCall("die", {});
        process.exit(1);
      },
    );
    return server;
  };
  if (mode === "http") {
    // Streamable HTTP, stateless: a fresh server for each request, which
    // must carry the token the test gave in $DEMO_TOKEN.
    const listener = createServer(async (req, res) => {
      if (req.headers.authorization !== `Bearer ${process.env.DEMO_TOKEN}`) {
        res.writeHead(401).end("missing or wrong token");
        return;
      }
      const server = build();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    listener.listen(0, "127.0.0.1", () => {
      writeFileSync(process.env.PORT_FILE + ".tmp", String(listener.address().port));
      renameSync(process.env.PORT_FILE + ".tmp", process.env.PORT_FILE);
    });
  } else {
    await build().connect(new StdioServerTransport());
  }
}
