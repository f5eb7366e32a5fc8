import path from 'node:path';
import { Client, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtProject, run, startHttpServer } from './helpers/project.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const HTML = '<!doctype html><html><body><div id="chart"></div><button>Refresh</button></body></html>\n';

const MANIFEST = `version: 1
server: { name: viewed, version: 0.1.0 }
tools:
  get_forecast:
    description: Forecast for a city, as a chart where the client renders views
    input: { type: object, properties: { city: { type: string, description: The city to forecast } }, required: [city] }
    output: { type: object, properties: { summary: { type: string } }, required: [summary] }
    annotations: { readOnlyHint: true }
    ui: { resource: forecast_view }
  refresh_forecast:
    description: Reloads the chart's data; only the view calls it
    annotations: { readOnlyHint: true }
    ui: { resource: ui://viewed/forecast, visibility: [app] }
  ping:
    description: A tool without a view
    annotations: { readOnlyHint: true }
resources:
  forecast_view:
    uri: ui://viewed/forecast
    description: The forecast chart
    file: ./ui/forecast.html
    ui:
      csp: { connectDomains: [https://api.weather.example], resourceDomains: [https://cdn.jsdelivr.net] }
      permissions: [clipboardWrite]
      prefersBorder: true
`;
const HANDLERS: Record<string, string> = {
  'src/handlers/tools/get_forecast.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['get_forecast'] = async ({ city }) => ({ summary: \`Sunny in \${city}\` });
`,
  'src/handlers/tools/refresh_forecast.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['refresh_forecast'] = async () => 'refreshed';
`,
  'src/handlers/tools/ping.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['ping'] = async () => 'pong';
`,
};

const VIEW_META = {
  ui: {
    csp: { connectDomains: ['https://api.weather.example'], resourceDomains: ['https://cdn.jsdelivr.net'] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
  },
};

let dir: string;
let http: Awaited<ReturnType<typeof startHttpServer>>;
const clients: Client[] = [];

beforeAll(async () => {
  dir = await builtProject('views', MANIFEST, HANDLERS, { 'ui/forecast.html': HTML });
  http = await startHttpServer(dir);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await http?.stop();
});

async function connect(transport: Transport, modern: boolean, views: boolean): Promise<Client> {
  const client = new Client(
    { name: 'views-e2e', version: '0.0.0' },
    {
      ...(views ? { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } } : {}),
      ...(modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {}),
    },
  );
  await client.connect(transport);
  clients.push(client);
  expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
  return client;
}

const transports: [string, () => Transport][] = [
  ['stdio', () => new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/src/main.js')] })],
  ['HTTP', () => new StreamableHTTPClientTransport(http.url)],
];

describe.each(transports)('over %s', (_name, transport) => {
  describe.each([false, true])('2026-07-28 client: %s', (modern) => {
    it('declares the extension, and serves the view as text/html;profile=mcp-app with its policy', async () => {
      const client = await connect(transport(), modern, false);
      expect(client.getServerCapabilities()?.extensions?.[UI]).toEqual({});
      const { resources } = await client.listResources();
      expect(resources).toEqual([
        {
          name: 'forecast_view',
          uri: 'ui://viewed/forecast',
          description: 'The forecast chart',
          mimeType: MIME,
          _meta: VIEW_META,
        },
      ]);
      const { contents } = await client.readResource({ uri: 'ui://viewed/forecast' });
      expect(contents).toEqual([{ uri: 'ui://viewed/forecast', mimeType: MIME, text: HTML, _meta: VIEW_META }]);
    });

    it('links the views for a client that declares the extension; the view-only tool is listed and callable', async () => {
      const client = await connect(transport(), modern, true);
      const { tools } = await client.listTools();
      const meta = Object.fromEntries(tools.map((t) => [t.name, t._meta]));
      expect(meta).toEqual({
        get_forecast: { ui: { resourceUri: 'ui://viewed/forecast' } },
        refresh_forecast: { ui: { resourceUri: 'ui://viewed/forecast', visibility: ['app'] } },
        ping: undefined,
      });
      expect(await client.callTool({ name: 'refresh_forecast', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'refreshed' }],
      });
    });

    it('shows a client without the extension no views and no view-only tool, and refuses that tool', async () => {
      const client = await connect(transport(), modern, false);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['get_forecast', 'ping']);
      for (const tool of tools) expect(tool._meta).toBeUndefined();
      await expect(client.callTool({ name: 'refresh_forecast', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Tool refresh_forecast not found'),
      });
    });

    it('answers the tool with a view with a complete text result, with or without the extension', async () => {
      for (const views of [false, true]) {
        const client = await connect(transport(), modern, views);
        const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris' } });
        expect(result.structuredContent).toEqual({ summary: 'Sunny in Paris' });
        expect(result.content).toEqual([{ type: 'text', text: JSON.stringify({ summary: 'Sunny in Paris' }) }]);
      }
    });
  });
});

it('passes its generated contract tests (node --test)', async () => {
  const r = await run(process.execPath, ['--test'], path.join(dir, 'dist'));
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toMatch(/answers tools with a view with text too/);
}, 120_000);
