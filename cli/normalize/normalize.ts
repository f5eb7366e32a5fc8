/**
 * normalize: validated manifest → IR. Resolves every default, derives names, inlines shared
 * `$ref`s for the wire and reads `file:` content. Every rule about derived names (collisions) is
 * checked by validate (cli/validate/checks/name-collisions.ts), so a valid manifest normalizes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import type { LoadedManifest } from '../load/load.js';
import type * as M from '../manifest/types.js';
import type {
  ApiIR,
  CompletionIR,
  EntryIR,
  HttpIR,
  IconIR,
  IR,
  Json,
  LimitSpecIR,
  JsonSchema,
  OAuthIR,
  PromptContentIR,
  PromptIR,
  ResourceContent,
  ResourceIR,
  TemplateIR,
  ToolHttpIR,
  ToolIR,
  ToolViewIR,
} from './ir.js';
import { fileBase, identifier, typeName } from './names.js';
import { inlineSharedRefs, movePointers, recursiveSharedNames } from './refs.js';
import { parseUriTemplate } from '../manifest/uri-template.js';
import { pathShape } from './template-paths.js';
import { isTextMime } from './mime.js';
import { findViewResource, isView, VIEW_MIME_TYPE, viewOutput } from '../manifest/views.js';
import { Codes } from '../manifest/codes.js';
import { API_DEFAULTS, HTTP_DEFAULTS, TASK_DEFAULTS } from '../manifest/defaults.js';
import { promptArgsSchema, sampleOf, sampleUri, validInput, validSample } from './samples.js';

export interface NormalizeOptions {
  /** The manifest's path relative to the output project root (for headers and watch). */
  manifestPath: string;
  /** mcpgen's version, or null to leave it out of headers. */
  generatorVersion: string | null;
  /** Called with the absolute path of each referenced file just before it is read (the stamp stats it). */
  beforeRead?: (abs: string) => void;
}

export function normalize(loaded: LoadedManifest, opts: NormalizeOptions): { ir?: IR; diagnostics: Diagnostic[] } {
  const m = loaded.data as M.Manifest;
  const shared = (m.schemas ?? {}) as Record<string, unknown>;
  const recursive = recursiveSharedNames(shared);
  // `options.refs: defs` keeps every shared schema under `$defs`; `inline` (default) only the recursive ones.
  const refsAsDefs = m.options?.refs === 'defs';
  const kept = refsAsDefs ? new Set(Object.keys(shared)) : recursive;
  const wire = (s: unknown): JsonSchema | null =>
    s === undefined || s === null ? null : inlineSharedRefs(s as JsonSchema, shared, kept);
  const at = (p: (string | number)[]) => {
    const r = loaded.locate(p, { key: true });
    return { line: r.line, column: r.column };
  };
  const referencedFiles: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const readFile = (rel: string, at: (string | number)[]): Buffer => {
    referencedFiles.push(rel);
    const abs = path.resolve(loaded.dir, rel);
    opts.beforeRead?.(abs);
    try {
      return readFileSync(abs);
    } catch (err) {
      // validate checked it; it changed since (deleted, permissions) or is not a regular file.
      const r = loaded.locate(at);
      const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      diagnostics.push({
        code: Codes.REF_FILE_UNREADABLE,
        severity: 'error',
        message: `cannot read ${rel}: ${reason}`,
        file: loaded.file,
        line: r.line,
        column: r.column,
      });
      return Buffer.alloc(0);
    }
  };

  const entry = (
    name: string,
    v: { title?: string; description?: string; icons?: M.Icon[]; meta?: Record<string, unknown>; scopes?: string[] },
    loc: (string | number)[],
  ): EntryIR => ({
    name,
    ident: identifier(name),
    typeBase: typeName(name),
    fileBase: fileBase(name),
    title: v.title ?? null,
    description: v.description ?? null,
    icons: icons(v.icons),
    meta: (v.meta as Record<string, Json> | undefined) ?? null,
    scopes: v.scopes ? [...v.scopes] : [],
    loc: at(loc),
  });

  const tools: ToolIR[] = sortedEntries(m.tools).map(([name, t]) => {
    const e = entry(name, t, ['tools', name]);
    return {
      ...e,
      kind: 'tool',
      inputSchema: wire(t.input),
      outputSchema: wire(t.output),
      inputRaw: (t.input as JsonSchema | undefined) ?? null,
      outputRaw: (t.output as JsonSchema | undefined) ?? null,
      inputType: t.input ? `${e.typeBase}Input` : null,
      outputType: t.output ? `${e.typeBase}Output` : null,
      annotations: (t.annotations as Record<string, Json> | undefined) ?? null,
      content: t.content ? [...t.content] : null,
      execution: {
        listed: t.execution?.taskSupport !== undefined,
        taskSupport: t.execution?.taskSupport ?? 'forbidden',
        ttlMs: t.execution?.ttlMs ?? TASK_DEFAULTS.ttlMs,
        pollIntervalMs: t.execution?.pollIntervalMs ?? TASK_DEFAULTS.pollIntervalMs,
        inputBeforeTask: t.execution?.inputBeforeTask ?? false,
      },
      options: toolOptions(t, m.limits),
      limits: limitSpec({ concurrency: t.concurrency, queueMs: m.limits?.queueMs, rateLimit: t.rateLimit }),
      handlerPath: !t.http || t.http.handler ? `tools/${e.fileBase}` : null,
      http: t.http ? toolHttp(t.http, m.apis) : null,
      // A call of an HTTP-backed tool reaches the API: the contract test does not make one.
      callArguments: t.annotations?.readOnlyHint === true && !t.http ? validInput(wire(t.input)) : null,
      stubInput: ((t.input ? sampleOf(wire(t.input), 0) : undefined) as Json | undefined) ?? {},
      ...toolView(e, t, m.resources),
    };
  });

  const resources: ResourceIR[] = sortedEntries(m.resources).map(([name, r]) => {
    const e = entry(name, r, ['resources', name]);
    const view = isView(r) ? { ui: viewMeta(r.ui) } : null;
    const mimeType = view ? VIEW_MIME_TYPE : (r.mimeType ?? null);
    let content: ResourceContent = { kind: 'handler' };
    if (typeof r.build === 'string') content = { kind: 'built', folder: r.build, output: viewOutput(r.uri) };
    else if (typeof r.text === 'string') content = { kind: 'text', text: r.text };
    else if (typeof r.file === 'string') {
      const bytes = readFile(r.file, ['resources', name, 'file']);
      const asText = r.encoding ? r.encoding === 'text' : isTextMime(mimeType, r.file);
      content = asText
        ? { kind: 'text', text: bytes.toString('utf8') }
        : { kind: 'blob', base64: bytes.toString('base64') };
    }
    return {
      ...e,
      kind: 'resource',
      uri: r.uri,
      mimeType,
      size: r.size ?? null,
      annotations: (r.annotations as Record<string, Json> | undefined) ?? null,
      content,
      handlerPath: content.kind === 'handler' ? `resources/${e.fileBase}` : null,
      sourceFile: typeof r.file === 'string' ? r.file : null,
      subscribe: r.subscribe === true,
      cache: r.cache ? { ...r.cache } : null,
      view,
      ...(view && Object.keys(view.ui).length ? { meta: { ...e.meta, ui: view.ui } } : {}),
    };
  });

  const templates: TemplateIR[] = sortedEntries(m.resourceTemplates).map(([name, t]) => {
    const e = entry(name, t, ['resourceTemplates', name]);
    const parsed = parseUriTemplate(t.uriTemplate).variables;
    const varNames = [...new Set(parsed.map((v) => v.name))];
    const params = (t.params ?? {}) as Record<string, unknown>;
    const vars = varNames.map((v) => ({
      name: v,
      schema: (wire(params[v] ?? { type: 'string' }) ?? { type: 'string' }) as JsonSchema,
      // Typed as a property of the params object: its own JSON Pointers are moved there.
      rawSchema: movePointers(params[v] ?? { type: 'string' }, ['properties', v]) as JsonSchema,
      completion: completion(t.complete?.[v]),
      list: parsed.some((p) => p.name === v && p.explode),
      ...pathShape(
        t.uriTemplate,
        parsed.filter((p) => p.name === v),
      ),
    }));
    const paramsSchema: JsonSchema = {
      type: 'object',
      // Each variable's schema is validated inside this object: its pointers must resolve from here.
      properties: Object.fromEntries(vars.map((v) => [v.name, movePointers(v.schema, ['properties', v.name])])),
      // A variable only in the query (`{?q}`, `{&page}`) may be left out, as RFC 6570 leaves out an undefined one.
      required: vars
        .filter((v) => parsed.some((p) => p.name === v.name && p.operator !== '?' && p.operator !== '&'))
        .map((v) => v.name),
      additionalProperties: false,
    };
    return {
      ...e,
      kind: 'template',
      uriTemplate: t.uriTemplate,
      mimeType: t.mimeType ?? null,
      annotations: (t.annotations as Record<string, Json> | undefined) ?? null,
      vars,
      paramsType: `${e.typeBase}Params`,
      paramsSchema,
      hasList: t.list === true,
      hasCompletionHandler: vars.some((v) => v.completion?.kind === 'handler'),
      handlerPath: `templates/${e.fileBase}`,
      allowPathTraversal: t.allowPathTraversal === true,
      sampleUri: sampleUri(t.uriTemplate, vars),
    };
  });

  const prompts: PromptIR[] = sortedEntries(m.prompts).map(([name, p]) => {
    const e = entry(name, p, ['prompts', name]);
    const args = Object.entries(p.arguments ?? {}).map(([argName, a]) => ({
      name: argName,
      title: a.title ?? null,
      description: a.description ?? null,
      required: a.required === true,
      requiredDeclared: a.required !== undefined,
      default: a.default ?? null,
      completion: completion(a.complete),
      extra: extraKeys(a),
    }));
    const messages = p.messages
      ? p.messages.map((msg, i) => ({
          role: msg.role,
          content: promptContent(msg, (rel, key) => readFile(rel, ['prompts', name, 'messages', i, ...key])),
          annotations: (msg.annotations as Record<string, Json> | undefined) ?? null,
        }))
      : null;
    const hasCompletionHandler = args.some((a) => a.completion?.kind === 'handler');
    const argsSchema = promptArgsSchema(args);
    return {
      ...e,
      kind: 'prompt',
      args,
      argsType: args.length ? `${e.typeBase}Args` : null,
      messages,
      hasCompletionHandler,
      handlerPath: messages === null || hasCompletionHandler ? `prompts/${e.fileBase}` : null,
      argsSchema,
      callArguments: messages === null ? ((validSample(argsSchema) as Json | undefined) ?? null) : null,
    };
  });

  const s = m.server;
  const http = m.transports?.http;
  // The HTTP settings as written, when HTTP is not turned off.
  const h = http || undefined;
  const ir: IR = {
    manifestPath: opts.manifestPath,
    generatorVersion: m.options?.headerVersion === false ? null : opts.generatorVersion,
    server: {
      name: s.name,
      packageName: s.package ?? s.name,
      version: s.version,
      title: s.title ?? null,
      description: s.description ?? null,
      instructions: s.instructions ?? null,
      websiteUrl: s.websiteUrl ?? null,
      icons: icons(s.icons),
    },
    transports: {
      stdio: m.transports ? m.transports.stdio !== undefined && m.transports.stdio !== false : true,
      http:
        m.transports && (http === undefined || http === false)
          ? null
          : {
              host: h?.host || HTTP_DEFAULTS.host,
              port: h?.port ?? HTTP_DEFAULTS.port,
              path: h?.path || HTTP_DEFAULTS.path,
              allowedHosts: h?.allowedHosts || [],
              allowedOrigins: h?.allowedOrigins || [],
              maxBodyBytes: h?.maxBodyBytes || HTTP_DEFAULTS.maxBodyBytes,
              bearer: h?.auth?.bearer
                ? {
                    tokensEnv: h.auth.bearer.tokensEnv ?? HTTP_DEFAULTS.tokensEnv,
                    requiredScopes: h.auth.bearer.requiredScopes ?? [],
                  }
                : null,
              oauth: h?.auth?.oauth ? oauth(h.auth.oauth) : null,
              sse: sse(h?.sse),
            },
    },
    ui:
      tools.some((t) => t.view !== null) || resources.some((r) => r.view !== null)
        ? { appOnly: tools.filter((t) => t.view?.visibility?.includes('model') === false).map((t) => t.name) }
        : null,
    limits: limitSpec(m.limits ?? {}),
    protocol: {
      logging: m.capabilities?.logging !== false,
      declareEmpty: {
        tools: m.capabilities?.tools === true,
        resources: m.capabilities?.resources === true,
        prompts: m.capabilities?.prompts === true,
      },
      cache: Object.fromEntries(Object.entries(m.cache ?? {}).map(([op, hint]) => [op, { ...hint }])),
      pageSize: m.pagination?.pageSize ?? 0,
    },
    apis: sortedEntries(m.apis).map(([name, a]) => api(name, a)),
    sharedSchemas: sortedEntries(shared as Record<string, unknown>).map(([name, schema]) => ({
      name,
      typeName: typeName(name),
      schema: schema as JsonSchema,
    })),
    tools,
    resources,
    templates,
    prompts,
    referencedFiles: [...new Set(referencedFiles)].sort(),
  };
  return diagnostics.length ? { diagnostics } : { ir, diagnostics };
}

/**
 * A tool's `ui` as tools/list shows it, `_meta.ui` (MCP Apps): the view's name resolved to its
 * URI; with its `meta` as the manifest has it beside.
 */
function toolView(
  e: EntryIR,
  t: M.Tool,
  resources: M.Manifest['resources'],
): { view: ToolViewIR | null; meta?: Record<string, Json> } {
  if (!t.ui) return { view: null };
  const found = t.ui.resource !== undefined ? findViewResource(resources, t.ui.resource) : undefined;
  const view: ToolViewIR = {
    resourceUri: found ? (found.resource.uri as string) : (t.ui.resource ?? null),
    visibility: t.ui.visibility ? [...t.ui.visibility] : null,
  };
  const ui: Record<string, Json> = {};
  if (view.resourceUri !== null) ui.resourceUri = view.resourceUri;
  if (view.visibility !== null) ui.visibility = view.visibility;
  return { view, meta: { ...e.meta, ui } };
}

/** A view's `_meta.ui` from its `ui`: what it sets, permissions as the extension's objects (`camera: {}`). */
function viewMeta(ui: M.ResourceUi | undefined): Record<string, Json> {
  const meta: Record<string, Json> = {};
  if (!ui) return meta;
  const csp = Object.fromEntries(Object.entries(ui.csp ?? {}).filter(([, v]) => v !== undefined));
  if (Object.keys(csp).length) meta.csp = csp as Record<string, Json>;
  if (ui.permissions) meta.permissions = Object.fromEntries(ui.permissions.map((p) => [p, {}]));
  if (ui.domain !== undefined) meta.domain = ui.domain;
  if (ui.prefersBorder !== undefined) meta.prefersBorder = ui.prefersBorder;
  return meta;
}

/** A tool's `http:` with its API resolved (validate checked it names one, or there is exactly one). */
function toolHttp(h: M.ToolHttp, apis: M.Manifest['apis']): ToolHttpIR {
  const bodyMethod = h.method === 'POST' || h.method === 'PUT' || h.method === 'PATCH';
  return {
    api: h.api ?? Object.keys(apis ?? {})[0]!,
    method: h.method,
    path: h.path,
    query: h.query ? [...h.query] : [],
    headers: { ...h.headers },
    body: h.body === undefined ? null : Array.isArray(h.body) ? [...h.body] : h.body,
    rest: bodyMethod && h.body === undefined ? 'body' : 'query',
    timeoutMs: h.timeoutMs ?? null,
    handler: h.handler === true,
  };
}

function api(name: string, a: M.Api): ApiIR {
  const auth = a.auth;
  return {
    name,
    baseUrl: { env: a.baseUrl.env, default: a.baseUrl.default ?? null },
    // validate checked each type has its keys.
    auth: !auth
      ? null
      : auth.type === 'bearer'
        ? { type: 'bearer', env: auth.env! }
        : auth.type === 'apiKey'
          ? { type: 'apiKey', in: auth.in!, name: auth.name!, env: auth.env! }
          : { type: 'basic', usernameEnv: auth.usernameEnv!, passwordEnv: auth.passwordEnv! },
    headers: { ...a.headers },
    timeoutMs: a.timeoutMs ?? API_DEFAULTS.timeoutMs,
  };
}

/** The runtime's `ToolOptions` the manifest sets for a tool (its `timeoutMs`, else the server's), or null. */
function toolOptions(t: M.Tool, limits: M.Limits | undefined): Record<string, Json> | null {
  const options: Record<string, Json> = {};
  const timeoutMs = t.timeoutMs ?? limits?.timeoutMs;
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  if (t.log === 'arguments') options.logArguments = true;
  return Object.keys(options).length ? options : null;
}

/** Concurrency and rate limits, or null when none is set (a queue wait alone limits nothing). */
function limitSpec(l: { concurrency?: number; queueMs?: number; rateLimit?: M.RateLimit }): LimitSpecIR | null {
  const spec: LimitSpecIR = {};
  if (l.concurrency !== undefined) spec.concurrency = l.concurrency;
  if (l.rateLimit?.perPrincipal) spec.perPrincipal = { ...l.rateLimit.perPrincipal };
  if (l.rateLimit?.global) spec.global = { ...l.rateLimit.global };
  if (!Object.keys(spec).length) return null;
  if (l.concurrency !== undefined && l.queueMs !== undefined) spec.queueMs = l.queueMs;
  return spec;
}

/** Entries sorted by wire name so output order never depends on manifest order edits. */
function sortedEntries<T>(map: Record<string, T> | undefined): [string, T][] {
  return Object.entries(map ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

function oauth(o: NonNullable<NonNullable<M.HttpTransport['auth']>['oauth']>): OAuthIR {
  return {
    issuer: o.issuer ?? null,
    resource: o.resource ?? null,
    audience: o.audience === undefined ? null : typeof o.audience === 'string' ? [o.audience] : [...o.audience],
    scopes: o.scopes ? [...o.scopes] : [],
    scopesSupported: o.scopesSupported ? [...o.scopesSupported] : null,
    jwksUri: o.jwksUri ?? null,
    algorithms: o.algorithms ? [...o.algorithms] : ALGORITHMS,
    clockToleranceSeconds: o.clockToleranceSeconds ?? 30,
    introspection: o.introspection
      ? {
          endpoint: o.introspection.endpoint ?? null,
          clientIdEnv: o.introspection.clientIdEnv ?? 'MCP_OAUTH_CLIENT_ID',
          clientSecretEnv: o.introspection.clientSecretEnv ?? 'MCP_OAUTH_CLIENT_SECRET',
        }
      : null,
    resourceName: o.resourceName ?? null,
    documentation: o.documentation ?? null,
  };
}

function sse(s: M.HttpTransport['sse']): HttpIR['sse'] {
  if (s === false) return null;
  const o = s === undefined || s === true ? {} : s;
  return { path: o.path ?? HTTP_DEFAULTS.sse.path, messagesPath: o.messagesPath ?? HTTP_DEFAULTS.sse.messagesPath };
}

function icons(list: M.Icon[] | undefined): IconIR[] {
  return (list ?? []).map((i) => ({ ...i }) as IconIR);
}

function completion(c: string[] | 'handler' | string | undefined): CompletionIR | null {
  if (c === undefined) return null;
  if (c === 'handler') return { kind: 'handler' };
  return Array.isArray(c) ? { kind: 'static', values: c } : null;
}

function promptContent(msg: M.PromptMessage, readFile: (rel: string, at: string[]) => Buffer): PromptContentIR {
  const media = (v: { data?: string; file?: string; mimeType: string }) =>
    v.data ?? (v.file ? readFile(v.file, [msg.image ? 'image' : 'audio', 'file']).toString('base64') : '');
  if (typeof msg.text === 'string') return { type: 'text', text: msg.text };
  if (msg.image) return { type: 'image', data: media(msg.image), mimeType: msg.image.mimeType };
  if (msg.audio) return { type: 'audio', data: media(msg.audio), mimeType: msg.audio.mimeType };
  const r = msg.resource!;
  let text = r.text ?? null;
  let blob = r.blob ?? null;
  if (r.file) {
    const bytes = readFile(r.file, ['resource', 'file']);
    if (isTextMime(r.mimeType ?? null, r.file)) text = bytes.toString('utf8');
    else blob = bytes.toString('base64');
  }
  return { type: 'resource', uri: r.uri, mimeType: r.mimeType ?? null, text, blob };
}

/** The keys of a prompt argument the manifest does not define: passed through to prompts/list. */
const PROMPT_ARGUMENT_KEYS = new Set(['name', 'title', 'description', 'required', 'default', 'complete']);
function extraKeys(a: object): Record<string, Json> | null {
  const extra = Object.entries(a).filter(([k]) => !PROMPT_ARGUMENT_KEYS.has(k));
  return extra.length ? (Object.fromEntries(extra) as Record<string, Json>) : null;
}
