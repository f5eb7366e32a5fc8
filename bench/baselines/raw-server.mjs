// The floor: the benchmark's interface (one `echo` tool, one resource) as bare JSON-RPC, with no SDK
// and no validation: newline-delimited over stdio, one `res.end(body)` per answer over node:http.
// What any MCP server must at least do: read, parse, dispatch, stringify, write.
// Usage: node raw-server.mjs [--http --port N]
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const INFO = { name: 'raw', version: '1.0.0' };
const TOOL = {
  name: 'echo',
  description: 'Echo the text back',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 1000, description: 'Text to echo' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true },
};

function answer(message) {
  const { id, method, params } = message;
  if (id === undefined) return undefined;
  switch (method) {
    case 'initialize':
      return {
        protocolVersion: params.protocolVersion,
        capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
        serverInfo: INFO,
      };
    case 'server/discover':
      return {
        supportedVersions: ['2026-07-28'],
        capabilities: { tools: {} },
        serverInfo: INFO,
        resultType: 'complete',
      };
    case 'tools/list':
      return { tools: [TOOL] };
    case 'tools/call':
      return { content: [{ type: 'text', text: String(params.arguments.text) }] };
    case 'resources/read':
      return { contents: [{ uri: 'bench://doc', mimeType: 'text/plain', text: 'hello' }] };
    default:
      return {};
  }
}

const reply = (message) => {
  const result = answer(message);
  if (result === undefined) return undefined;
  if (message.params?._meta) result._meta = { 'io.modelcontextprotocol/serverInfo': INFO };
  return JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
};

const args = process.argv.slice(2);
if (args.includes('--http')) {
  const port = Number(args[args.indexOf('--port') + 1] ?? 0);
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = reply(message);
      if (body === undefined) return void res.writeHead(202).end();
      const headers = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
      if (message.method === 'initialize') headers['Mcp-Session-Id'] = randomUUID();
      res.writeHead(200, headers).end(body);
    });
  });
  server.listen(port, '127.0.0.1', () => {
    console.error(`raw: MCP over HTTP at http://127.0.0.1:${server.address().port}/mcp`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else {
  let buffer = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (data) => {
    buffer += data;
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const body = reply(JSON.parse(line));
      if (body !== undefined) process.stdout.write(`${body}\n`);
    }
  });
}
