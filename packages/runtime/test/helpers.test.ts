/**
 * The helpers handlers import from @mcpgen/runtime, and the registration helpers generated code
 * calls, as plain functions: no server, no client.
 */
import { Buffer } from 'node:buffer';

import { inputRequired, isInputRequiredResult, McpServer, ResourceNotFoundError } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';

import type { HandlerContext } from '../src/handlers.js';
import { pathGuards, safeJoin } from '../src/paths.js';
import {
  addNotificationSink,
  content,
  isToolResult,
  lazy,
  NotImplementedError,
  notFound,
  notify,
  reachable,
  register,
  run,
  testContext,
  toolResult,
} from '../src/runtime.js';
import { compiledOnFirstUse } from '../src/schemas.js';

/** What `call` threw (fails when it returns). */
function thrown(call: () => unknown): { error: unknown; code: number; message: string; data: unknown } {
  try {
    call();
  } catch (error) {
    const e = error as { code: number; message: string; data: unknown };
    return { error, code: e.code, message: e.message, data: e.data };
  }
  throw new Error('did not throw');
}

describe('content', () => {
  it('builds text, link and embedded text blocks', () => {
    expect(content.text('hi')).toEqual({ type: 'text', text: 'hi' });
    expect(content.resourceLink('file:///a.txt', 'a.txt', { mimeType: 'text/plain', description: 'A' })).toEqual({
      type: 'resource_link',
      uri: 'file:///a.txt',
      name: 'a.txt',
      mimeType: 'text/plain',
      description: 'A',
    });
    expect(content.resource('note://1', 'body')).toEqual({
      type: 'resource',
      resource: { uri: 'note://1', text: 'body' },
    });
    expect(content.resource('note://1', 'body', 'text/markdown')).toEqual({
      type: 'resource',
      resource: { uri: 'note://1', text: 'body', mimeType: 'text/markdown' },
    });
  });

  it('encodes bytes as base64 and passes a string on as already encoded', () => {
    expect(content.image(new Uint8Array([0, 1, 2, 255]), 'image/png')).toEqual({
      type: 'image',
      data: 'AAEC/w==',
      mimeType: 'image/png',
    });
    expect(content.audio('UklGRg==', 'audio/wav')).toEqual({ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' });
    expect(content.blob('bin://x', new Uint8Array([104, 105]), 'application/octet-stream')).toEqual({
      type: 'resource',
      resource: { uri: 'bin://x', blob: 'aGk=', mimeType: 'application/octet-stream' },
    });
    expect(content.blob('bin://x', 'aGk=')).toEqual({ type: 'resource', resource: { uri: 'bin://x', blob: 'aGk=' } });
  });

  it('encodes only the bytes a view shows, not its whole buffer', () => {
    // A view into a larger buffer, and a pooled Buffer (its byteOffset is not 0).
    const view = new Uint8Array([9, 9, 1, 2, 3, 9]).subarray(2, 5);
    expect(content.image(view, 'image/png').data).toBe('AQID');
    const pooled = Buffer.from('hello');
    expect(content.audio(pooled, 'audio/wav').data).toBe('aGVsbG8=');
  });
});

describe('toolResult', () => {
  it('marks the object it is given, which is sent as it is', () => {
    const fields = { content: [content.text('x')], structuredContent: { n: 1 }, isError: true };
    const result = toolResult(fields);
    expect(result).toBe(fields);
    expect(isToolResult(result)).toBe(true);
  });

  it('is never mistaken for an output value of the same shape', () => {
    expect(isToolResult({ content: [content.text('x')] })).toBe(false);
    expect(isToolResult(null)).toBe(false);
    expect(isToolResult('text')).toBe(false);
    expect(isToolResult(undefined)).toBe(false);
  });
});

describe('notFound', () => {
  it('is the SDK resource-not-found error naming the URI', () => {
    const error = notFound('file:///missing');
    expect(error).toBeInstanceOf(ResourceNotFoundError);
    expect(error.code).toBe(-32602);
    expect(error.data).toEqual({ uri: 'file:///missing' });
    expect(error.message).toBe('Resource not found: file:///missing');
  });

  it('takes a URL and a message of its own', () => {
    const error = notFound(new URL('note://book/7'), 'no note 7');
    expect(error.data).toEqual({ uri: 'note://book/7' });
    expect(error.message).toBe('no note 7');
  });
});

it('NotImplementedError names the file to edit', () => {
  const error = new NotImplementedError('src/handlers/tools/x.ts');
  expect(error).toBeInstanceOf(Error);
  expect(error.name).toBe('NotImplementedError');
  expect(error.message).toBe('not implemented: edit src/handlers/tools/x.ts');
});

describe('lazy', () => {
  it('loads once, then returns the module itself, synchronously', async () => {
    let loads = 0;
    const module = { handler: () => 'ok' };
    const load = lazy(async () => {
      loads += 1;
      return module;
    });
    expect(loads).toBe(0);
    const first = load();
    expect(first).toBeInstanceOf(Promise);
    // A second call while loading shares the load.
    expect(load()).toBe(first);
    expect(await first).toBe(module);
    expect(load()).toBe(module);
    expect(load()).toBe(module);
    expect(loads).toBe(1);
  });
});

describe('reachable', () => {
  const everything = { tools: true, resources: true, prompts: true };
  const nothing = { tools: false, resources: false, prompts: false };
  const request = (headers: Record<string, string>) => new Request('http://127.0.0.1/mcp', { method: 'POST', headers });

  it('gives everything without a request or without Mcp-Method', () => {
    expect(reachable(undefined)).toEqual(everything);
    expect(reachable(request({}))).toEqual(everything);
  });

  it('narrows a call to the entry its Mcp-Name names', () => {
    expect(reachable(request({ 'Mcp-Method': 'tools/call', 'Mcp-Name': 'get_forecast' }))).toEqual({
      ...nothing,
      tools: 'get_forecast',
    });
    expect(reachable(request({ 'Mcp-Method': 'prompts/get', 'Mcp-Name': 'packing_list' }))).toEqual({
      ...nothing,
      prompts: 'packing_list',
    });
  });

  it('gives a whole kind when the name is missing or Base64-encoded', () => {
    expect(reachable(request({ 'Mcp-Method': 'tools/call' }))).toEqual({ ...nothing, tools: true });
    expect(reachable(request({ 'Mcp-Method': 'tools/call', 'Mcp-Name': '=?base64?w6k=?=' }))).toEqual({
      ...nothing,
      tools: true,
    });
  });

  it('maps lists, reads and completions to their kinds', () => {
    expect(reachable(request({ 'Mcp-Method': 'tools/list' }))).toEqual({ ...nothing, tools: true });
    expect(reachable(request({ 'Mcp-Method': 'prompts/list' }))).toEqual({ ...nothing, prompts: true });
    for (const method of ['resources/read', 'resources/list', 'resources/templates/list'])
      expect(reachable(request({ 'Mcp-Method': method, 'Mcp-Name': 'file:///x' })), method).toEqual({
        ...nothing,
        resources: true,
      });
    expect(reachable(request({ 'Mcp-Method': 'completion/complete' }))).toEqual({
      tools: false,
      resources: true,
      prompts: true,
    });
  });

  it('registers nothing for discovery, pings, listens, tasks and notifications; everything for an unknown method', () => {
    for (const method of [
      'server/discover',
      'ping',
      'subscriptions/listen',
      'tasks/get',
      'tasks/update',
      'tasks/cancel',
      'notifications/cancelled',
    ])
      expect(reachable(request({ 'Mcp-Method': method })), method).toEqual(nothing);
    expect(reachable(request({ 'Mcp-Method': 'vendor/custom' }))).toEqual(everything);
  });
});

describe('register', () => {
  const server = new McpServer({ name: 'register-test', version: '0.0.0' });
  const entries = () => {
    const called: string[] = [];
    const entry = (name: string) => (s: McpServer) => {
      expect(s).toBe(server);
      called.push(name);
    };
    return { called, entries: { a: entry('a'), b: entry('b') } };
  };

  it('registers every entry for true, one for its name, none for false', () => {
    const all = entries();
    register(server, all.entries, true);
    expect(all.called).toEqual(['a', 'b']);
    const one = entries();
    register(server, one.entries, 'b');
    expect(one.called).toEqual(['b']);
    const none = entries();
    register(server, none.entries, false);
    expect(none.called).toEqual([]);
  });

  it('ignores names that are not entries, inherited ones included', () => {
    const { called, entries: own } = entries();
    for (const name of ['missing', 'constructor', 'toString', '__proto__']) register(server, own, name);
    expect(called).toEqual([]);
  });
});

describe('testContext', () => {
  it('is a context whose side effects do nothing', async () => {
    const ctx = testContext();
    expect(ctx.signal.aborted).toBe(false);
    await expect(ctx.progress(1, 2, 'half')).resolves.toBeUndefined();
    await expect(ctx.log('info', 'x')).resolves.toBeUndefined();
    expect(ctx.closeStream()).toBeUndefined();
    ctx.notify.resourceUpdated('file:///x');
    expect(ctx.authInfo).toBeUndefined();
    expect(ctx.sessionId).toBeUndefined();
    expect(ctx.task).toBeUndefined();
    expect(ctx.clientCapabilities).toEqual({ elicitation: {}, sampling: {}, roots: {} });
    expect(ctx.inputResponse('k')).toEqual({ kind: 'missing' });
    expect(ctx.accepted('k')).toBeUndefined();
    expect(ctx.requestState()).toBeUndefined();
    expect(await ctx.signState({ step: 2 })).toBe('{"step":2}');
  });

  it('takes overrides, and says ctx.sdk is for tests through a client', () => {
    const signal = AbortSignal.abort();
    const ctx = testContext({ signal, sessionId: 's-1', requestState: <T>() => ({ step: 2 }) as T });
    expect(ctx.signal).toBe(signal);
    expect(ctx.sessionId).toBe('s-1');
    expect(ctx.requestState()).toEqual({ step: 2 });
    expect(() => ctx.sdk).toThrow(/ctx\.sdk is not available in unit tests/);
  });
});

describe('run and ctx.ask', () => {
  const schema = {
    type: 'object' as const,
    properties: { confirm: { type: 'boolean' as const } },
    required: ['confirm'],
  };
  // A handler as users write them: ask, then read the answer when it runs again.
  const deploy = async (input: { env: string }, ctx: HandlerContext) => {
    const answer = ctx.accepted<{ confirm: boolean }>('confirm');
    if (!answer)
      return ctx.ask({
        inputRequests: {
          confirm: inputRequired.elicit({ message: `Deploy to ${input.env}?`, requestedSchema: schema }),
        },
      });
    return answer.confirm ? `deployed to ${input.env}` : 'cancelled';
  };

  it('turns ctx.ask into the input_required result', async () => {
    const result = await run(() => deploy({ env: 'prod' }, testContext()));
    expect(isInputRequiredResult(result)).toBe(true);
    expect(result).toEqual({
      resultType: 'input_required',
      inputRequests: {
        confirm: {
          method: 'elicitation/create',
          params: { mode: 'form', message: 'Deploy to prod?', requestedSchema: schema },
        },
      },
    });
  });

  it('returns what the handler returns once answered', async () => {
    const ctx = testContext({ accepted: <T>() => ({ confirm: true }) as unknown as T });
    expect(await run(() => deploy({ env: 'prod' }, ctx))).toBe('deployed to prod');
  });

  it('catches an ask thrown synchronously, and carries requestState', async () => {
    const result = await run(() => testContext().ask({ requestState: 'opaque' }));
    expect(result).toEqual({ resultType: 'input_required', requestState: 'opaque' });
  });

  it('lets every other error through', async () => {
    const error = new Error('boom');
    await expect(
      run(() => {
        throw error;
      }),
    ).rejects.toBe(error);
    await expect(run(async () => Promise.reject(error))).rejects.toBe(error);
  });
});

describe('notify', () => {
  it('reaches every sink added, until it is removed; a sink may leave kinds out', () => {
    const seen: string[] = [];
    const removeFull = addNotificationSink({
      resourceUpdated: (uri) => seen.push(`updated ${uri}`),
      toolsChanged: () => seen.push('tools'),
      promptsChanged: () => seen.push('prompts'),
      resourcesChanged: () => seen.push('resources'),
    });
    const removePartial = addNotificationSink({ toolsChanged: () => seen.push('tools (partial)') });
    notify.resourceUpdated('file:///a');
    notify.toolsChanged();
    notify.promptsChanged();
    notify.resourcesChanged();
    expect(seen).toEqual(['updated file:///a', 'tools', 'tools (partial)', 'prompts', 'resources']);
    removeFull();
    removePartial();
    notify.toolsChanged();
    expect(seen).toHaveLength(5);
  });
});

describe('safeJoin', () => {
  const ROOT = '/srv/root';

  it('joins relative paths and segments under the root', () => {
    expect(safeJoin(ROOT, 'a/b/c.txt')).toBe('/srv/root/a/b/c.txt');
    expect(safeJoin(ROOT, ['a', 'b', 'c.txt'])).toBe('/srv/root/a/b/c.txt');
    expect(safeJoin(`${ROOT}/`, 'a/./b/../c')).toBe('/srv/root/a/c');
    expect(safeJoin(ROOT, '')).toBe('/srv/root');
    expect(safeJoin(ROOT, 'a..b')).toBe('/srv/root/a..b');
    expect(safeJoin(ROOT, 'a\\b')).toBe('/srv/root/a/b');
    expect(safeJoin('/', 'etc/passwd')).toBe('/etc/passwd');
  });

  it('throws the not-found error when the path leaves the root, naming the URI when given', () => {
    const outside = thrown(() => safeJoin(ROOT, '../etc/passwd', new URL('file:///x')));
    expect(outside.error).toBeInstanceOf(ResourceNotFoundError);
    expect(outside).toMatchObject({
      code: -32602,
      message: 'Resource not found: file:///x (the path leaves its root)',
      data: { uri: 'file:///x' },
    });
    expect(thrown(() => safeJoin(ROOT, 'a/../../etc')).message).toBe(
      'Resource not found: a/../../etc (the path leaves its root)',
    );
    expect(thrown(() => safeJoin(ROOT, 'a\\..\\..\\etc')).message).toContain('the path leaves its root');
    expect(thrown(() => safeJoin(ROOT, '/etc/passwd')).message).toContain('the path leaves its root');
    expect(thrown(() => safeJoin(ROOT, ['a', '..', '..', 'etc'], 'file:///a')).message).toBe(
      'Resource not found: file:///a (the path leaves its root)',
    );
    // Lexical: a sibling whose name starts with the root's is outside it.
    expect(thrown(() => safeJoin(ROOT, '../root-other/x')).message).toContain('the path leaves its root');
    expect(thrown(() => safeJoin(ROOT, 'a\0b')).message).toContain('the path holds a NUL byte');
  });
});

describe('pathGuards', () => {
  const guard = pathGuards({
    file: { path: { path: true, rooted: true } },
    repo: { path: { path: true, rooted: false } },
    docs: { name: { path: false, rooted: false } },
  });
  const refusal = (template: string, uri: string, variables: Record<string, string | string[]>) =>
    thrown(() => guard(template, new URL(uri), variables));

  it('hands allowed values on unchanged', () => {
    const variables = { path: 'docs/guide/intro.md' };
    expect(guard('file', new URL('file:///docs/guide/intro.md'), variables)).toBe(variables);
    expect(guard('file', new URL('file:///a..b/c%20d'), { path: 'a..b/c%20d' })).toEqual({ path: 'a..b/c%20d' });
    expect(guard('repo', new URL('repo:/abs'), { path: '/abs' })).toEqual({ path: '/abs' });
    expect(guard('docs', new URL('docs://library/read%20me'), { name: 'read%20me' })).toEqual({ name: 'read%20me' });
  });

  it('refuses traversal with the not-found error, naming the variable and the problem', () => {
    const uri = 'file:///a%2F..%2F..%2Fetc%2Fpasswd';
    const r = refusal('file', uri, { path: 'a%2F..%2F..%2Fetc%2Fpasswd' });
    expect(r.error).toBeInstanceOf(ResourceNotFoundError);
    expect(r.code).toBe(-32602);
    expect(r.data).toEqual({ uri });
    expect(r.message).toBe(
      `Resource not found: ${uri} (variable "path" has a ".." segment; path traversal is refused)`,
    );
  });

  it.each([
    ['file', 'path', 'a/%252e%252e/etc', 'has a ".." segment'],
    ['file', 'path', 'a%5C..%5Cetc', 'has a ".." segment'],
    ['file', 'path', '%2Fetc%2Fpasswd', 'starts with a separator where the template supplies the root'],
    ['file', 'path', 'C:%5CWindows', 'names a drive'],
    ['file', 'path', 'a%00.txt', 'holds a NUL byte'],
    ['docs', 'name', '..%2F..%2Fsecret', 'has a ".." segment'],
    ['docs', 'name', '..\\secret', 'has a ".." segment'],
  ])('%s: %s = %s %s', (template, variable, value, problem) => {
    const r = refusal(template, `${template}://x`, { [variable]: value });
    expect(r.message).toContain(`(variable "${variable}" ${problem}; path traversal is refused)`);
  });

  it('checks every value of an exploded variable', () => {
    expect(refusal('file', 'file:///a/..', { path: ['a', '..'] }).message).toContain('has a ".." segment');
    expect(guard('file', new URL('file:///a/b'), { path: ['a', 'b'] })).toEqual({ path: ['a', 'b'] });
  });

  it('leaves templates and variables it does not guard alone', () => {
    expect(guard('raw', new URL('raw:///x'), { path: '..%2F..%2Fetc' })).toEqual({ path: '..%2F..%2Fetc' });
    expect(guard('file', new URL('file:///x'), { other: '../x' })).toEqual({ other: '../x' });
    // Inherited names are not templates.
    expect(guard('constructor', new URL('x:///'), { path: '../x' })).toEqual({ path: '../x' });
  });
});

describe('compiledOnFirstUse', () => {
  const json = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };

  it('shows the schema as written and validates with it', async () => {
    const schema = compiledOnFirstUse<{ n: number }>(json);
    expect(schema['~standard'].jsonSchema.input({ target: 'draft-2020-12' })).toBe(json);
    expect(await schema['~standard'].validate({ n: 1 })).toEqual({ value: { n: 1 } });
    const invalid = await schema['~standard'].validate({ n: 'one' });
    expect(invalid.issues?.length).toBeGreaterThan(0);
  });
});

describe('pathGuards and a bare ".."', () => {
  it('refuses it in a variable whose operator does not keep "/" (a query or host variable)', async () => {
    const { UriTemplate } = await import('@modelcontextprotocol/server');
    const guard = pathGuards({
      search: { name: { path: false, rooted: false } },
      notes: { book: { path: false, rooted: false } },
    });
    const query = new URL('docs://library?name=..');
    const host = new URL('notes://../x');
    // The SDK hands the value through as it is: the guard is what stops it.
    expect(new UriTemplate('docs://library{?name}').match(query.href)).toEqual({ name: '..' });
    expect(new UriTemplate('notes://{book}/x').match(host.href)).toEqual({ book: '..' });
    expect(() => guard('search', query, { name: '..' })).toThrow(/has a "\.\." segment/);
    expect(() => guard('notes', host, { book: '..' })).toThrow(/has a "\.\." segment/);
    expect(guard('search', query, { name: '..x' })).toEqual({ name: '..x' });
  });
});

describe('startApp: the runtime range generated code names', () => {
  const app = (runtime?: string) => ({
    info: { name: 'ranged', version: '1.0.0' },
    createServer: () => new McpServer({ name: 'x', version: '1' }),
    subscribable: new Set<string>(),
    runtime,
  });

  it('accepts this runtime for its own range, and code that names none', async () => {
    const { startApp } = await import('../src/app.js');
    const { RUNTIME_VERSION } = await import('../src/version.js');
    expect(() => startApp(app(`^${RUNTIME_VERSION}`))).not.toThrow();
    expect(() => startApp(app())).not.toThrow();
  });

  it('refuses code generated for another minor (0.x) or a newer patch, saying what to do', async () => {
    const { startApp } = await import('../src/app.js');
    const { RUNTIME_VERSION } = await import('../src/version.js');
    const [major, minor, patch] = RUNTIME_VERSION.split('.').map(Number) as [number, number, number];
    for (const range of [`^${major}.${minor + 1}.0`, `^${major}.${minor}.${patch + 1}`, `^${major + 1}.0.0`]) {
      expect(() => startApp(app(range)), range).toThrow(
        `the generated code needs @mcpgen/runtime ${range}, and ${RUNTIME_VERSION} is installed: run npm install`,
      );
    }
  });
});
