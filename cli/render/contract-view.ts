/**
 * The view of test/generated/contract.test.ts: what a client must see, computed from the IR, as
 * data. The test itself is fixed code that walks this data over every transport and protocol era.
 */
import { findPlaceholders } from '../manifest/placeholders.js';
import type { IR, PromptIR } from '../normalize/ir.js';
import { advertisedSchema } from '../manifest/object-root.js';
import { entryScopes, inputKey, listedArgument, outputKey } from './views.js';
import { Code } from './literal.js';

type Obj = Record<string, unknown>;

/** Adds the optional metadata fields exactly as the SDK lists them (absent when not declared). */
function withMeta(
  base: Obj,
  e: { title: string | null; description: string | null; icons: unknown[]; meta: object | null },
): Obj {
  if (e.title !== null) base.title = e.title;
  if (e.description !== null) base.description = e.description;
  if (e.icons.length) base.icons = e.icons;
  if (e.meta !== null) base._meta = e.meta;
  return base;
}

function fill(text: string, values: Record<string, string>): string {
  let out = '';
  let last = 0;
  for (const p of findPlaceholders(text)) {
    out += text.slice(last, p.start) + (Object.hasOwn(values, p.name) ? values[p.name] : '');
    last = p.end;
  }
  return out + text.slice(last);
}

function renderedMessages(p: PromptIR, values: Record<string, string>): unknown[] {
  return p.messages!.map((m) => {
    const c = m.content;
    if (c.type === 'text') return { role: m.role, content: { type: 'text', text: fill(c.text, values) } };
    if (c.type !== 'resource') return { role: m.role, content: { type: c.type, data: c.data, mimeType: c.mimeType } };
    const resource: Obj = { uri: c.uri };
    if (c.mimeType !== null) resource.mimeType = c.mimeType;
    if (c.text !== null) resource.text = fill(c.text, values);
    else resource.blob = c.blob ?? '';
    return { role: m.role, content: { type: 'resource', resource } };
  });
}

export function contractTestView(ir: IR) {
  const s = ir.server;
  const serverInfo: Obj = { name: s.name, version: s.version };
  if (s.title !== null) serverInfo.title = s.title;
  if (s.description !== null) serverInfo.description = s.description;
  if (s.websiteUrl !== null) serverInfo.websiteUrl = s.websiteUrl;
  if (s.icons.length) serverInfo.icons = s.icons;

  // A schema clients see as src/generated/schemas.ts declares it is referenced, not repeated: the
  // test stays small (and quick to type-check) however many tools there are. It is referenced
  // through `declaredSchemas`, which types each schema as a plain object (see the template).
  let referencesSchemas = false;
  const schema = (declared: Obj | null, key: string, io: 'input' | 'output'): unknown => {
    const advertised = advertisedSchema(declared!, io);
    if (advertised !== declared && declared!.type !== 'object') return advertised;
    referencesSchemas = true;
    return new Code(`declaredSchemas.${key}`);
  };
  const tools = ir.tools.map((t) => {
    const o = withMeta({ name: t.name }, t);
    o.inputSchema =
      t.inputSchema && t.inputType
        ? schema(t.inputSchema, inputKey(t), 'input')
        : t.inputSchema
          ? advertisedSchema(t.inputSchema, 'input')
          : { type: 'object', properties: {}, additionalProperties: false };
    if (t.outputSchema)
      o.outputSchema = t.outputType
        ? schema(t.outputSchema, outputKey(t), 'output')
        : advertisedSchema(t.outputSchema, 'output');
    if (t.annotations !== null) o.annotations = t.annotations;
    if (t.execution.listed) o.execution = { taskSupport: t.execution.taskSupport };
    return o;
  });
  const resources = ir.resources.map((r) => {
    const o = withMeta({ name: r.name, uri: r.uri }, r);
    if (r.mimeType !== null) o.mimeType = r.mimeType;
    if (r.size !== null) o.size = r.size;
    if (r.annotations !== null) o.annotations = r.annotations;
    return o;
  });
  const resourceTemplates = ir.templates.map((t) => {
    const o = withMeta({ name: t.name, uriTemplate: t.uriTemplate }, t);
    if (t.mimeType !== null) o.mimeType = t.mimeType;
    if (t.annotations !== null) o.annotations = t.annotations;
    return o;
  });
  const prompts = ir.prompts.map((p) => {
    const o = withMeta({ name: p.name }, p);
    if (p.args.length)
      // The SDK client's PromptArgument has name, description and required only, and strips the
      // rest from what it parsed: the contract test lists through that client.
      o.arguments = p.args.map((a) => {
        const { name, description, required } = listedArgument(a);
        return {
          name,
          ...(description !== undefined ? { description } : {}),
          ...(required !== undefined ? { required } : {}),
        };
      });
    return o;
  });

  const staticResources = ir.resources
    .filter((r) => r.content.kind !== 'handler')
    .map((r) => {
      const c: Obj = { uri: r.uri };
      if (r.mimeType !== null) c.mimeType = r.mimeType;
      if (r.content.kind === 'text') c.text = r.content.text;
      if (r.content.kind === 'blob') c.blob = r.content.base64;
      if (r.view && Object.keys(r.view.ui).length) c._meta = { ui: r.view.ui };
      return { uri: r.uri, contents: [c] };
    });

  const declarativePrompts = ir.prompts
    .filter((p) => p.messages !== null)
    .map((p) => {
      const values = Object.fromEntries(p.args.map((a) => [a.name, `${a.name}-value`]));
      return { name: p.name, arguments: values, messages: renderedMessages(p, values) };
    });

  // Completion: the first static value's first character must complete to every value it starts.
  const completions: Obj[] = [];
  const staticCompletion = (ref: Obj, name: string, values: string[]) => {
    const prefix = values[0]?.slice(0, 1) ?? '';
    completions.push({
      ref,
      argument: { name, value: prefix },
      values: values.filter((v) => v.toLowerCase().startsWith(prefix.toLowerCase())),
    });
  };
  for (const p of ir.prompts)
    for (const a of p.args)
      if (a.completion?.kind === 'static')
        staticCompletion({ type: 'ref/prompt', name: p.name }, a.name, a.completion.values);
  for (const t of ir.templates)
    for (const v of t.vars)
      if (v.completion?.kind === 'static')
        staticCompletion({ type: 'ref/resource', uri: t.uriTemplate }, v.name, v.completion.values);

  // Every handler must be reachable: a result, or an error that is not -32602 (e.g. not implemented).
  const reachable: Obj[] = [];
  // Only tools that promise to be read-only are called (normalize gives them arguments): others
  // may change the world (send mail, delete data), and a contract test must be safe to run.
  for (const t of ir.tools)
    if (t.callArguments !== null) reachable.push({ kind: 'tool', name: t.name, arguments: t.callArguments });
  for (const r of ir.resources) if (r.content.kind === 'handler') reachable.push({ kind: 'resource', uri: r.uri });
  for (const t of ir.templates) if (t.sampleUri !== null) reachable.push({ kind: 'resource', uri: t.sampleUri });
  for (const p of ir.prompts) {
    if (p.callArguments !== null) reachable.push({ kind: 'prompt', name: p.name, arguments: p.callArguments });
    for (const a of p.args)
      if (a.completion?.kind === 'handler')
        reachable.push({
          kind: 'complete',
          ref: { type: 'ref/prompt', name: p.name },
          argument: { name: a.name, value: '' },
        });
  }
  for (const t of ir.templates)
    for (const v of t.vars)
      if (v.completion?.kind === 'handler')
        reachable.push({
          kind: 'complete',
          ref: { type: 'ref/resource', uri: t.uriTemplate },
          argument: { name: v.name, value: '' },
        });

  // Invalid input: a tool whose schema requires something, called with nothing.
  // A tool that is always a task answers this client (no tasks extension) with -32021 instead.
  const strict = ir.tools.find(
    (t) =>
      t.execution.taskSupport !== 'required' &&
      Array.isArray(t.inputSchema?.required) &&
      (t.inputSchema!.required as unknown[]).length > 0,
  );

  return {
    expected: {
      serverInfo,
      instructions: s.instructions,
      tools,
      resources,
      resourceTemplates,
      prompts,
      invalidInputTool: strict?.name ?? null,
    },
    staticResources,
    declarativePrompts,
    completions,
    reachable,
    referencesSchemas,
    localImports: ir.transports.http !== null || referencesSchemas,
    hasStdio: ir.transports.stdio,
    hasHttp: ir.transports.http !== null,
    clientImports: [
      ...(ir.transports.http?.sse != null ? ['SSEClientTransport'] : []),
      ...(ir.transports.http ? ['StreamableHTTPClientTransport'] : []),
    ],
    testingImports: [
      'type Completion',
      'type Connection',
      'connect',
      'contractSuites',
      'type DeclarativePrompt',
      'type Expected',
      ...(ir.transports.http ? ['httpEndpointSuite'] : []),
      'type Reachable',
      'type StaticResource',
    ],
    sse: ir.transports.http?.sse != null,
    bearer: ir.transports.http?.bearer != null,
    oauth: ir.transports.http?.oauth
      ? { scopes: [...new Set([...ir.transports.http.oauth.scopes, ...entryScopes(ir)])] }
      : null,
    oauthOnly: ir.transports.http?.oauth != null && ir.transports.http.bearer === null,
    auth: ir.transports.http?.bearer != null || ir.transports.http?.oauth != null,
    tokensEnv: ir.transports.http?.bearer?.tokensEnv ?? null,
    apiEnv: apiEnvironment(ir),
  };
}

/** Stand-ins for the environment `apis` read at start (a closed local port, a dummy credential), or null. */
function apiEnvironment(ir: IR): Record<string, string> | null {
  const env: Record<string, string> = {};
  for (const a of ir.apis) {
    if (a.baseUrl.default === null) env[a.baseUrl.env] = 'http://127.0.0.1:9';
    const auth = a.auth;
    if (auth?.type === 'basic') env[auth.usernameEnv] = env[auth.passwordEnv] = 'mcpgen-contract-test';
    else if (auth) env[auth.env] = 'mcpgen-contract-test';
  }
  return Object.keys(env).length ? env : null;
}
