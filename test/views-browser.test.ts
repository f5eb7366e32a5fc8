/**
 * The weather example's view in a real browser: Debian's Chromium (installed when missing), headless,
 * driven over the DevTools protocol. A host page on 127.0.0.1 loads the view, as the server serves
 * it, in a sandboxed iframe and plays the host's part of the MCP Apps extension: it answers
 * `ui/initialize`, sends the tool's input and the result that a real MCP client got from the
 * generated server, and passes the view's `tools/call` on to that client. The test reads the DOM
 * the view rendered, clicks its units button, and keeps a screenshot in
 * .tmp/views-browser/forecast.png.
 *
 * The DevTools client talks over --remote-debugging-pipe (NUL-separated JSON on file descriptors 3
 * and 4), so it needs no WebSocket package.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../cli/main.js';
import { memoryIO, REPO, run, scratch, TSC } from './helpers/project.js';
import { ensurePackages } from './helpers/services.js';

const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';
const ARTIFACTS = path.join(REPO, '.tmp/views-browser');

/** The host page: the view in a sandboxed iframe, and the host's side of the extension. */
const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>host</title></head>
<body style="margin:0;background:#fff">
<iframe id="view" sandbox="allow-scripts" style="width:480px;height:320px;border:1px solid #ccc"></iframe>
<script>
window.hostLog = [];
const frame = document.getElementById('view');
const send = (message) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...message }, '*');
window.addEventListener('message', async (event) => {
  if (event.source !== frame.contentWindow) return;
  const msg = event.data;
  window.hostLog.push(msg.method ?? 'response');
  if (msg.method === 'ui/initialize') {
    send({ id: msg.id, result: {
      protocolVersion: '2026-01-26',
      hostInfo: { name: 'test-host', version: '0.0.0' },
      hostCapabilities: { serverTools: {} },
      hostContext: { theme: 'light' },
    } });
  } else if (msg.method === 'ui/notifications/initialized') {
    const call = await (await fetch('/call')).json();
    send({ method: 'ui/notifications/tool-input', params: { arguments: call.arguments } });
    send({ method: 'ui/notifications/tool-result', params: call.result });
  } else if (msg.method === 'tools/call') {
    const answer = await fetch('/tools/call', { method: 'POST', body: JSON.stringify(msg.params) });
    send({ id: msg.id, result: await answer.json() });
  }
});
fetch('/view').then((r) => r.text()).then((html) => { frame.srcdoc = html; });
</script>
</body></html>`;

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

let dir: string;
let client: Client;
let host: Server;
let browser: ChildProcess | undefined;
let profile: string;
let cdp: Cdp;

beforeAll(async () => {
  const chromium = ensurePackages(['chromium']).chromium;
  dir = scratch('views-browser', path.join(REPO, 'examples/weather'));
  const io = memoryIO(dir);
  expect(await runCli(['generate', '-q'], io), io.err).toBe(0);
  const tsc = await run(TSC, ['-p', 'tsconfig.json'], dir);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);

  client = new Client(
    { name: 'views-browser', version: '0.0.0' },
    { capabilities: { extensions: { [UI]: { mimeTypes: [MIME] } } } },
  );
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [path.join(dir, 'dist/src/main.js')] }),
  );

  host = createServer(async (req, res) => {
    try {
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(HOST_PAGE);
      if (req.url === '/view') {
        // The view as the host gets it: the tool's link, then resources/read of that URI.
        const { tools } = await client.listTools();
        const uri = tools.find((t) => t.name === 'get_forecast')?._meta?.ui as { resourceUri: string };
        const { contents } = await client.readResource({ uri: uri.resourceUri });
        expect(contents[0]?.mimeType).toBe(MIME);
        return res.writeHead(200, { 'content-type': 'text/plain' }).end((contents[0] as { text: string }).text);
      }
      if (req.url === '/call') {
        const args = { city: 'Paris', days: 3 };
        const result = await client.callTool({ name: 'get_forecast', arguments: args });
        return res.writeHead(200).end(JSON.stringify({ arguments: args, result }));
      }
      if (req.url === '/tools/call' && req.method === 'POST') {
        let body = '';
        for await (const chunk of req) body += chunk;
        const result = await client.callTool(JSON.parse(body));
        return res.writeHead(200).end(JSON.stringify(result));
      }
      res.writeHead(404).end();
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
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
  await client?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** Polls `expression` in the view's frame until it returns something truthy; returns that. */
async function inView<T>(session: string, contextId: () => Promise<number>, expression: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  let last: unknown;
  while (Date.now() < deadline) {
    const r = await cdp
      .send('Runtime.evaluate', { expression, contextId: await contextId(), returnByValue: true }, session)
      .catch((e: Error) => ({ result: { value: undefined }, error: e.message }));
    last = r.result?.value;
    if (last) return last as T;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out in the view waiting for ${expression} (last: ${JSON.stringify(last)})`);
}

it('renders the forecast the server returned, and asks the host for the other units', async () => {
  const { port } = host.address() as AddressInfo;
  const { targetId } = await cdp.send('Target.createTarget', { url: `http://127.0.0.1:${port}/` });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, sessionId);
  // An isolated world in the view's frame: the page cannot read a sandboxed frame's DOM, DevTools can.
  const contextId = async () => {
    const { frameTree } = await cdp.send('Page.getFrameTree', {}, sessionId);
    const frameId = frameTree.childFrames?.[0]?.frame.id;
    if (!frameId) throw new Error('no view frame yet');
    return (await cdp.send('Page.createIsolatedWorld', { frameId, worldName: 'test' }, sessionId)).executionContextId;
  };

  const expected = await client.callTool({ name: 'get_forecast', arguments: { city: 'Paris', days: 3 } });
  const days = (expected.structuredContent as { days: { date: string; low: number; high: number; summary: string }[] })
    .days;
  const rendered = await inView<{ title: string; rows: string[][] }>(
    sessionId,
    contextId,
    `document.querySelectorAll('#days li').length === 3 && {
      title: document.getElementById('title').textContent,
      rows: [...document.querySelectorAll('#days li')].map((li) =>
        [li.querySelector('time').dateTime, li.querySelector('.temps').textContent, li.querySelector('.summary').textContent]),
    }`,
  );
  expect(rendered.title).toBe('Paris: 3-day forecast');
  expect(rendered.rows).toEqual(days.map((d) => [d.date, `${d.low}°C – ${d.high}°C`, d.summary]));

  const log = await cdp.send('Runtime.evaluate', { expression: 'window.hostLog', returnByValue: true }, sessionId);
  expect(log.result.value).toEqual(
    expect.arrayContaining(['ui/initialize', 'ui/notifications/initialized', 'ui/notifications/size-changed']),
  );
  expect(log.result.value[0]).toBe('ui/initialize');

  mkdirSync(ARTIFACTS, { recursive: true });
  const shot = await cdp.send('Page.captureScreenshot', { format: 'png' }, sessionId);
  writeFileSync(path.join(ARTIFACTS, 'forecast.png'), Buffer.from(shot.data, 'base64'));

  // The button calls get_forecast through the host (tools/call), which calls the server.
  await cdp.send(
    'Runtime.evaluate',
    { expression: "document.getElementById('units').click()", contextId: await contextId() },
    sessionId,
  );
  const imperial = await inView<string>(
    sessionId,
    contextId,
    `document.querySelector('#days li .temps')?.textContent.includes('°F') && document.querySelector('#days li .temps').textContent`,
  );
  const converted = await client.callTool({
    name: 'get_forecast',
    arguments: { city: 'Paris', days: 3, units: 'imperial' },
  });
  const first = (converted.structuredContent as { days: { low: number; high: number }[] }).days[0];
  expect(imperial).toBe(`${first?.low}°F – ${first?.high}°F`);
  const after = await cdp.send('Runtime.evaluate', { expression: 'window.hostLog', returnByValue: true }, sessionId);
  expect(after.result.value).toContain('tools/call');
  const shot2 = await cdp.send('Page.captureScreenshot', { format: 'png' }, sessionId);
  writeFileSync(path.join(ARTIFACTS, 'forecast-imperial.png'), Buffer.from(shot2.data, 'base64'));
}, 120_000);
