/**
 * Views in a real browser: Debian's Chromium (installed when missing), headless, driven over the
 * DevTools protocol. The host page on 127.0.0.1 is a host as the extension defines one: a real MCP
 * client (@modelcontextprotocol/client, over Streamable HTTP to the generated server) and the
 * extension's own host side, `AppBridge` from @modelcontextprotocol/ext-apps, bundled for the page
 * with esbuild. It lists the tools, reads the tool's view, renders it in a sandboxed iframe, and
 * sends it the tool's input and result; the view's tools/call goes through the bridge to the client.
 *
 * Two views: the weather example's (one HTML file speaking the protocol itself) and one a user
 * adds with `mcpgen add view` (the starter: `App` from the extension, bundled by `mcpgen build`),
 * its button changed to call a tool only views may call. Screenshots stay in .tmp/views-browser.
 *
 * The DevTools client talks over --remote-debugging-pipe (NUL-separated JSON on file descriptors 3
 * and 4), so it needs no WebSocket package.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { buildServer, memoryIO, REPO, scratch, SCRATCH, startHttpServer } from './helpers/project.js';
import { ensurePackages } from './helpers/services.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const ARTIFACTS = path.join(REPO, '.tmp/views-browser');

/**
 * The host: `?server=<name>&tool=<tool>&args=<json>`. The client reaches the server through this
 * page's origin (`/<name>/mcp`, passed on by the test's HTTP server), as a host's backend would.
 */
const HOST_SCRIPT = `
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

const params = new URLSearchParams(location.search);
const server = params.get('server');
const toolName = params.get('tool');
const args = JSON.parse(params.get('args') ?? '{}');
const log = (window.hostLog = []);
try {
  const client = new Client(
    { name: 'test-host', version: '0.0.0' },
    { capabilities: { extensions: { '${UI}': { mimeTypes: ['${MIME}'] } } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('/' + server + '/mcp', location.href)));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === toolName);
  const uri = getToolUiResourceUri(tool);
  const { contents } = await client.readResource({ uri });
  const frame = document.getElementById('view');
  const bridge = new AppBridge(client, { name: 'test-host', version: '0.0.0' }, { serverTools: {}, openLinks: {} });
  bridge.oninitialized = async () => {
    log.push('initialized');
    await bridge.sendToolInput({ arguments: args });
    const result = await client.callTool({ name: toolName, arguments: args });
    log.push('result');
    await bridge.sendToolResult(result);
  };
  bridge.onsizechange = () => log.push('size-changed');
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = contents[0].text;
  log.push('loaded ' + contents[0].mimeType);
} catch (error) {
  log.push('error ' + error.message);
}
`;

const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>host</title></head>
<body style="margin:0;background:#fff">
<iframe id="view" sandbox="allow-scripts" style="width:480px;height:320px;border:1px solid #ccc"></iframe>
<script type="module" src="/host.js"></script>
</body></html>`;

const GREETER = `version: 1
server: { name: greeter, version: 0.1.0 }
transports: { stdio: false, http: {} }
schemas:
  Greeting:
    type: object
    properties: { greeting: { type: string, description: The greeting } }
    required: [greeting]
tools:
  greet:
    description: Greets someone by name
    input: { type: object, properties: { name: { type: string, description: Who to greet } }, required: [name] }
    output: { $ref: '#/schemas/Greeting' }
    annotations: { readOnlyHint: true }
`;

/** Appended once the view exists: a tool only the view calls. */
const LOUDLY = `  greet_loudly:
    description: The greeting, shouted; only the view calls it
    input: { type: object, properties: { name: { type: string, description: Who to greet } }, required: [name] }
    output: { $ref: '#/schemas/Greeting' }
    annotations: { readOnlyHint: true }
    ui: { resource: greet_view, visibility: [app] }
`;

const GREETER_HANDLERS: Record<string, string> = {
  'src/handlers/tools/greet.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['greet'] = async ({ name }) => ({ greeting: \`Hello, \${name}.\` });
`,
  'src/handlers/tools/greet_loudly.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

export const handler: ToolHandlers['greet_loudly'] = async ({ name }) => ({ greeting: \`HELLO, \${name.toUpperCase()}!\` });
`,
};

/** A minimal DevTools protocol client over Chromium's debugging pipe. */
class Cdp {
  private next = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly input: Writable,
    output: Readable,
  ) {
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\0'); end !== -1; end = this.buffer.indexOf('\0')) {
        const msg = JSON.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        const call = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
        if (!call) continue;
        this.pending.delete(msg.id);
        if (msg.error) call.reject(new Error(`${msg.error.message} (${msg.error.code})`));
        else call.resolve(msg.result);
      }
    });
  }

  // biome-ignore lint/suspicious/noExplicitAny: DevTools answers are untyped JSON; the expectations check them
  send(method: string, params: object = {}, sessionId?: string): Promise<any> {
    const id = this.next++;
    this.input.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      setTimeout(() => reject(new Error(`${method}: no answer in 20 s`)), 20_000).unref();
    });
  }
}

const servers: Record<string, Awaited<ReturnType<typeof startHttpServer>>> = {};
let host: Server;
let hostScript: string;
let browser: ChildProcess | undefined;
let profile: string;
let cdp: Cdp;

/** The greeter: its view added by `mcpgen add view`, its button changed to call greet_loudly. */
async function greeterProject(): Promise<string> {
  const dir = scratch('views-browser-greeter');
  writeFileSync(path.join(dir, 'mcpgen.yaml'), GREETER);
  const add = memoryIO(dir);
  expect(await runCli(['add', 'view', 'greet'], add), add.err).toBe(0);
  const manifest = readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8');
  writeFileSync(path.join(dir, 'mcpgen.yaml'), manifest.replace('\nresources:\n', `\n${LOUDLY}resources:\n`));
  const main = path.join(dir, 'ui/greet/main.ts');
  writeFileSync(main, readFileSync(main, 'utf8').replace("name: 'greet'", "name: 'greet_loudly'"));
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  for (const [file, text] of Object.entries(GREETER_HANDLERS)) writeFileSync(path.join(dir, file), text);
  const built = memoryIO(dir);
  expect(await runCli(['build'], built), built.err).toBe(0);
  return dir;
}

beforeAll(async () => {
  const chromium = ensurePackages(['chromium']).chromium;
  const weather = scratch('views-browser', path.join(REPO, 'examples/weather'));
  const io = memoryIO(weather);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  const tsc = await buildServer(weather);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
  servers.weather = await startHttpServer(weather);
  servers.greeter = await startHttpServer(await greeterProject());

  // The host's script, bundled for the browser from the repository's packages.
  mkdirSync(SCRATCH, { recursive: true });
  const entry = path.join(SCRATCH, 'views-browser-host.js');
  writeFileSync(entry, HOST_SCRIPT);
  const bundled = await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', write: false });
  hostScript = bundled.outputFiles[0]!.text;

  host = createServer(async (req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/?') || url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(HOST_PAGE);
    if (url === '/host.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostScript);
    const name = /^\/(\w+)\/mcp$/.exec(url)?.[1];
    const target = name ? servers[name]?.url : undefined;
    if (!target) return res.writeHead(404).end();
    // Passed on as a host's backend would: to the server's own origin, without the page's Origin.
    const { origin: _origin, host: _host, ...headers } = req.headers;
    const upstream = request(target, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));

  profile = mkdtempSync(path.join(tmpdir(), 'mcpgen-chromium-'));
  browser = spawn(
    chromium,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--remote-debugging-pipe',
      // The view's frame in the page's process, so one session reaches both.
      '--disable-site-isolation-trials',
      '--disable-features=IsolateSandboxedIframes',
      `--user-data-dir=${profile}`,
      '--window-size=800,600',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
  );
  browser.stderr?.resume();
  cdp = new Cdp(browser.stdio[3] as Writable, browser.stdio[4] as Readable);
}, 300_000);

afterAll(async () => {
  const b = browser;
  if (b && b.exitCode === null) {
    // The profile can be removed only once Chromium has stopped writing to it.
    const exited = new Promise((resolve) => b.once('exit', resolve));
    b.kill();
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  host?.close();
  for (const server of Object.values(servers)) await server.stop();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A client of the server, declaring the extension, as the host's is. */
async function clientOf(name: string): Promise<Client> {
  const client = new Client(
    { name: 'views-browser', version: '0.0.0' },
    { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } },
  );
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  await client.connect(new StreamableHTTPClientTransport(servers[name]!.url));
  return client;
}

/** Opens the host page for one tool; the session and the view frame's execution context. */
async function openHost(server: string, tool: string, args: object) {
  const { port } = host.address() as AddressInfo;
  const query = new URLSearchParams({ server, tool, args: JSON.stringify(args) });
  const { targetId } = await cdp.send('Target.createTarget', { url: `http://127.0.0.1:${port}/?${query}` });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, sessionId);
  // An isolated world in the view's frame: the page cannot read a sandboxed frame's DOM, DevTools can.
  const contextId = async () => {
    const { frameTree } = await cdp.send('Page.getFrameTree', {}, sessionId);
    const frameId = frameTree.childFrames?.[0]?.frame.id;
    if (!frameId) throw new Error('no view frame yet');
    return (await cdp.send('Page.createIsolatedWorld', { frameId, worldName: 'test' }, sessionId)).executionContextId;
  };
  const hostLog = async (): Promise<string[]> =>
    (await cdp.send('Runtime.evaluate', { expression: 'window.hostLog', returnByValue: true }, sessionId)).result
      .value ?? [];
  const click = async (id: string) =>
    cdp.send(
      'Runtime.evaluate',
      { expression: `document.getElementById('${id}').click()`, contextId: await contextId() },
      sessionId,
    );
  const screenshot = async (file: string) => {
    mkdirSync(ARTIFACTS, { recursive: true });
    const shot = await cdp.send('Page.captureScreenshot', { format: 'png' }, sessionId);
    writeFileSync(path.join(ARTIFACTS, file), Buffer.from(shot.data, 'base64'));
  };
  return { sessionId, contextId, hostLog, click, screenshot };
}

/** Polls `expression` in the view's frame until it returns something truthy; returns that. */
async function inView<T>(session: string, contextId: () => Promise<number>, expression: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  let last: unknown;
  while (Date.now() < deadline) {
    // The frame may not exist yet or may be replaced while the view loads: both mean try again.
    const r = await contextId()
      .then((id) => cdp.send('Runtime.evaluate', { expression, contextId: id, returnByValue: true }, session))
      .catch((e: Error) => ({ result: { value: undefined }, error: e.message }));
    last = r.result?.value;
    if (last) return last as T;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out in the view waiting for ${expression} (last: ${JSON.stringify(last)})`);
}

it('renders the weather forecast the server returned, and asks the host for the other units', async () => {
  const page = await openHost('weather', 'get_forecast', { city: 'Paris', days: 3 });
  const client = await clientOf('weather');
  try {
    const expected = await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris', days: 3 } });
    const days = (
      expected.structuredContent as { days: { date: string; low: number; high: number; summary: string }[] }
    ).days;
    const rendered = await inView<{ title: string; rows: string[][] }>(
      page.sessionId,
      page.contextId,
      `document.querySelectorAll('#days li').length === 3 && {
        title: document.getElementById('title').textContent,
        rows: [...document.querySelectorAll('#days li')].map((li) =>
          [li.querySelector('time').dateTime, li.querySelector('.temps').textContent, li.querySelector('.summary').textContent]),
      }`,
    );
    expect(rendered.title).toBe('Paris: 3-day forecast');
    expect(rendered.rows).toEqual(days.map((d) => [d.date, `${d.low}°C – ${d.high}°C`, d.summary]));
    expect(await page.hostLog()).toEqual(expect.arrayContaining([`loaded ${MIME}`, 'initialized', 'result']));
    await page.screenshot('forecast.png');

    // The button calls get_forecast through the bridge, which passes it on to the client.
    await page.click('units');
    const imperial = await inView<string>(
      page.sessionId,
      page.contextId,
      `document.querySelector('#days li .temps')?.textContent.includes('°F') && document.querySelector('#days li .temps').textContent`,
    );
    const converted = await client.callTool({
      name: 'get_forecast',
      arguments: { city: 'Paris', days: 3, units: 'imperial' },
    });
    const first = (converted.structuredContent as { days: { low: number; high: number }[] }).days[0];
    expect(imperial).toBe(`${first?.low}°F – ${first?.high}°F`);
    await page.screenshot('forecast-imperial.png');
  } finally {
    await client.close();
  }
}, 120_000);

it('renders a view added with mcpgen add view (App, bundled by mcpgen build); its button calls a view-only tool', async () => {
  const page = await openHost('greeter', 'greet', { name: 'Ada' });
  const shown = await inView<string[][]>(
    page.sessionId,
    page.contextId,
    `document.querySelector('#result dl') && [...document.querySelectorAll('#result dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])`,
  );
  expect(shown).toEqual([['greeting', 'Hello, Ada.']]);
  expect(await page.hostLog()).toEqual(expect.arrayContaining([`loaded ${MIME}`, 'initialized', 'result']));
  await page.screenshot('greet.png');

  // greet_loudly is the view's alone: hidden from the model's list, callable through the host.
  const client = await clientOf('greeter');
  try {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'greet_loudly')?._meta).toEqual({
      ui: { resourceUri: 'ui://greeter/greet', visibility: ['app'] },
    });
  } finally {
    await client.close();
  }
  await page.click('again');
  const loud = await inView<string>(
    page.sessionId,
    page.contextId,
    `document.querySelector('#result dd')?.textContent.startsWith('HELLO') && document.querySelector('#result dd').textContent`,
  );
  expect(loud).toBe('HELLO, ADA!');
  expect(servers.greeter!.stderr()).not.toMatch(/handler failed/);
  await page.screenshot('greet-loudly.png');
}, 120_000);
