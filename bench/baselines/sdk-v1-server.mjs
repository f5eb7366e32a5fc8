// A peer: the same interface (one `echo` tool, one resource) on the TypeScript SDK v1
// (`@modelcontextprotocol/sdk` 1.32, what most TypeScript MCP servers run today), written as its
// README shows: McpServer with a zod-typed tool; stdio; Streamable HTTP with a transport per session
// on node:http. It speaks the 2025 revisions only.
// Usage: node sdk-v1-server.mjs [--http --port N]
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';

function createServer() {
  const server = new McpServer({ name: 'sdk-v1', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back',
      inputSchema: { text: z.string().max(1000).describe('Text to echo') },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  server.registerResource('doc', 'bench://doc', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }],
  }));
  return server;
}

const args = process.argv.slice(2);
if (args.includes('--http')) {
  const port = Number(args[args.indexOf('--port') + 1] ?? 0);
  const transports = new Map();
  const http = createHttpServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (!transport && req.method === 'POST' && isInitializeRequest(body)) {
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sid) => transports.set(sid, transport),
        });
        await createServer().connect(transport);
      }
      if (!transport)
        return void res
          .writeHead(400)
          .end('{"jsonrpc":"2.0","error":{"code":-32000,"message":"no session"},"id":null}');
      await transport.handleRequest(req, res, body);
    });
  });
  http.listen(port, '127.0.0.1', () => {
    console.error(`sdk-v1: MCP over Streamable HTTP at http://127.0.0.1:${http.address().port}/mcp`);
  });
  process.once('SIGTERM', () => http.close(() => process.exit(0)));
} else {
  await createServer().connect(new StdioServerTransport());
}
