// A peer: the same interface (one `echo` tool, one resource) with FastMCP 4.20 (punkpeye/fastmcp,
// a TypeScript framework on the SDK v1), written as its README shows; stdio, or its HTTP stream
// transport with sessions. It speaks the 2025 revisions only. FastMCP takes a port number, so a
// free one is found first.
// Usage: node fastmcp-server.mjs [--http --port N]
import { createServer } from 'node:net';
import { FastMCP } from 'fastmcp';
import { z } from 'zod';

const server = new FastMCP({ name: 'fastmcp', version: '1.0.0' });
server.addTool({
  name: 'echo',
  description: 'Echo the text back',
  parameters: z.object({ text: z.string().max(1000).describe('Text to echo') }),
  annotations: { readOnlyHint: true },
  execute: async ({ text }) => text,
});
server.addResource({
  uri: 'bench://doc',
  name: 'doc',
  mimeType: 'text/plain',
  load: async () => ({ text: 'hello' }),
});

const args = process.argv.slice(2);
if (args.includes('--http')) {
  let port = Number(args[args.indexOf('--port') + 1] ?? 0);
  if (port === 0) {
    port = await new Promise((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address();
        probe.close(() => resolve(free));
      });
    });
  }
  await server.start({ transportType: 'httpStream', httpStream: { port, host: '127.0.0.1', endpoint: '/mcp' } });
  console.error(`fastmcp: MCP over HTTP at http://127.0.0.1:${port}/mcp`);
  process.once('SIGTERM', () => server.stop().then(() => process.exit(0)));
} else {
  await server.start({ transportType: 'stdio' });
}
