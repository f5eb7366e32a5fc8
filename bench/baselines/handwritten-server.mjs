// The hand-written baseline: the same tools as the benchmark manifest, on the same SDK, written
// the way the SDK's README shows (a createServer() factory that registers zod-typed tools; stdio via
// serveStdio, HTTP via createMcpHandler on node:http with the localhost guards).
// Usage: node handwritten-server.mjs [--http --port N]; BENCH_TOOLS=N sets the tool count.
import { createServer as createHttpServer } from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import * as z from 'zod/v4';

const TOOLS = Number(process.env.BENCH_TOOLS ?? '1');

function createServer() {
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      description: 'Echo the text back',
      inputSchema: z.object({ text: z.string().max(1000).describe('Text to echo') }),
    },
    async ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  for (let i = 1; i < TOOLS; i++) {
    server.registerTool(
      `filler_${i}`,
      {
        description: `Filler tool ${i}`,
        inputSchema: z.object({ q: z.string().max(100).describe('Query'), n: z.number().int().min(0).optional() }),
      },
      async ({ q }) => ({ content: [{ type: 'text', text: q }] }),
    );
  }
  server.registerResource('doc', 'bench://doc', { mimeType: 'text/plain' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'hello' }],
  }));
  return server;
}

const args = process.argv.slice(2);
if (args.includes('--http')) {
  const port = Number(args[args.indexOf('--port') + 1] ?? 0);
  const handler = toNodeHandler(createMcpHandler(createServer));
  const validateHost = localhostHostValidation();
  const validateOrigin = localhostOriginValidation();
  const server = createHttpServer((req, res) => {
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    void handler(req, res);
  });
  server.listen(port, '127.0.0.1', () => {
    console.error(`baseline: MCP over Streamable HTTP at http://127.0.0.1:${server.address().port}/mcp`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  serveStdio(createServer);
}
