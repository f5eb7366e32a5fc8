/**
 * What a manifest change does to the server's clients: the interface they see (tools, resources,
 * templates, prompts, transports) of two IRs compared, each change `breaking` or `compatible`,
 * as API diff tools classify them. Clients write inputs (tool input, template variables, prompt
 * arguments): a schema that accepts less breaks them. They read outputs (outputSchema): a schema
 * that allows more, or a field gone or made optional, breaks them.
 */
import type { HttpIR, IR, JsonSchema, PromptIR, ResourceIR, TemplateIR, ToolIR } from '../normalize/ir.js';
import { canonical, diffSchemas, type Effect, pointerToken } from './schema-diff.js';

export type EntryKind = 'tool' | 'resource' | 'template' | 'prompt' | 'transport';
export type Severity = 'breaking' | 'compatible';

/** One change clients can see (the `--format json` item, docs/cli.md#compare). */
export interface ApiChange {
  kind: EntryKind;
  /** The entry's name (`get_forecast`), or the transport (`stdio`, `http`). */
  entry: string;
  /** JSON Pointer inside the entry: `/inputSchema/properties/city/maxLength`, `` for the entry itself. */
  pointer: string;
  /** A stable code: `removed`, `required-property-added`, `type-changed`, `scopes-added`… */
  change: string;
  severity: Severity;
  /** Set when mcpgen cannot tell how the change affects clients: counted as breaking. */
  unclassified: boolean;
  /** What changed and why it is (not) breaking. */
  message: string;
}

/** Where a schema sits and who writes the values it describes. */
type Direction = 'input' | 'output';

const SECTIONS = { tool: 'tools', resource: 'resources', template: 'resourceTemplates', prompt: 'prompts' } as const;
export type EntryKindOfManifest = keyof typeof SECTIONS;
export function sectionOf(kind: EntryKindOfManifest): string {
  return SECTIONS[kind];
}

/** Every change from `base` to `head`, entries in manifest order of kinds, then by name. */
export function compareInterfaces(base: IR, head: IR): ApiChange[] {
  const out: ApiChange[] = [];
  entries(out, 'tool', base.tools, head.tools, compareTools, sameTool);
  entries(
    out,
    'resource',
    base.resources,
    head.resources,
    compareResources,
    (a, b) => a.uri === b.uri,
    (r) => r.uri,
  );
  entries(
    out,
    'template',
    base.templates,
    head.templates,
    compareTemplates,
    (a, b) => a.uriTemplate === b.uriTemplate,
    (t) => t.uriTemplate,
  );
  entries(out, 'prompt', base.prompts, head.prompts, comparePrompts, sameArgs);
  transports(out, base, head);
  return out;
}

function entries<T extends { name: string }>(
  out: ApiChange[],
  kind: EntryKindOfManifest,
  before: readonly T[],
  after: readonly T[],
  compare: (out: ApiChange[], a: T, b: T) => void,
  alike: (a: T, b: T) => boolean,
  /** How clients address it, when not by name: resources by URI, templates by the URIs they match. */
  address?: (e: T) => string,
): void {
  const names = new Map(after.map((e) => [e.name, e]));
  const old = new Map(before.map((e) => [e.name, e]));
  let removed = before.filter((e) => !names.has(e.name));
  let added = after.filter((e) => !old.has(e.name));
  for (const a of before) {
    const b = names.get(a.name);
    if (b) compare(out, a, b);
  }
  if (address) {
    // A new key at the same address: clients read it as before, only its listed name changed.
    const byAddress = new Map(added.map((e) => [address(e), e]));
    const moved = new Set<T>();
    for (const a of removed) {
      const b = byAddress.get(address(a));
      if (!b || moved.has(b)) continue;
      moved.add(a).add(b);
      out.push(
        change(
          kind,
          b.name,
          '',
          'renamed',
          'compatible',
          `${kind} ${a.name} renamed to ${b.name} at the same ${kind === 'resource' ? 'URI' : 'uriTemplate'} ${address(a)}: clients address it by that, not by its name`,
        ),
      );
      compare(out, { ...a, name: b.name }, b);
    }
    removed = removed.filter((e) => !moved.has(e));
    added = added.filter((e) => !moved.has(e));
  }
  const partner = renamePartners(removed, added, alike);
  for (const a of removed) {
    const to = partner.get(a.name);
    out.push(
      change(
        kind,
        a.name,
        '',
        'removed',
        'breaking',
        `${kind} ${a.name} removed: clients using it get an error${to ? ` (it looks renamed to ${to}: to clients a rename is a removal)` : ''}`,
      ),
    );
  }
  for (const b of added) {
    const from = [...partner].find(([, to]) => to === b.name)?.[0];
    out.push(
      change(
        kind,
        b.name,
        '',
        'added',
        'compatible',
        `${kind} ${b.name} added${from ? ` (looks like ${from} renamed)` : ''}: clients that do not know it are unaffected`,
      ),
    );
  }
}

/**
 * A removed entry and an added one that look like one renamed: the only one of each of its kind
 * (the rule generate's rename hint uses, cli/rename/hint.ts), or the two with the same interface.
 */
function renamePartners<T extends { name: string }>(
  removed: readonly T[],
  added: readonly T[],
  alike: (a: T, b: T) => boolean,
): Map<string, string> {
  const pairs = new Map<string, string>();
  if (removed.length === 1 && added.length === 1) {
    pairs.set(removed[0]!.name, added[0]!.name);
    return pairs;
  }
  const taken = new Set<string>();
  for (const a of removed) {
    const b = added.find((x) => !taken.has(x.name) && alike(a, x));
    if (b) {
      taken.add(b.name);
      pairs.set(a.name, b.name);
    }
  }
  return pairs;
}

function sameTool(a: ToolIR, b: ToolIR): boolean {
  return JSON.stringify(a.inputSchema) === JSON.stringify(b.inputSchema) && a.inputSchema !== null;
}

function sameArgs(a: PromptIR, b: PromptIR): boolean {
  return a.args.length > 0 && JSON.stringify(a.args.map((x) => x.name)) === JSON.stringify(b.args.map((x) => x.name));
}

/**
 * What a tool without `input` advertises and validates with (the runtime's schema for it): an
 * empty object, any argument refused.
 */
const NO_INPUT: JsonSchema = { type: 'object', properties: {}, additionalProperties: false };

function compareTools(out: ApiChange[], a: ToolIR, b: ToolIR): void {
  schemas(
    out,
    'tool',
    a.name,
    '/inputSchema',
    a.inputSchema ?? NO_INPUT,
    b.inputSchema ?? NO_INPUT,
    'input',
    'property',
  );
  if (a.outputSchema && !b.outputSchema)
    out.push(
      change(
        'tool',
        a.name,
        '/outputSchema',
        'output-removed',
        'breaking',
        'outputSchema removed: clients reading structuredContent no longer get it',
      ),
    );
  else if (!a.outputSchema && b.outputSchema)
    out.push(
      change(
        'tool',
        a.name,
        '/outputSchema',
        'output-added',
        'compatible',
        'outputSchema added: results carry structuredContent clients may read',
      ),
    );
  else if (a.outputSchema && b.outputSchema)
    schemas(out, 'tool', a.name, '/outputSchema', a.outputSchema, b.outputSchema, 'output', 'property');
  scopes(out, 'tool', a, b);
  taskSupport(out, a, b);
}

function taskSupport(out: ApiChange[], a: ToolIR, b: ToolIR): void {
  const x = a.execution.taskSupport;
  const y = b.execution.taskSupport;
  if (x === y) return;
  // Clients calling without a task are refused when tasks become required; with one, when they are forbidden.
  const breaking = y === 'required' || y === 'forbidden';
  const why =
    y === 'required'
      ? 'clients calling it without a task are refused'
      : y === 'forbidden'
        ? 'clients calling it as a task are refused'
        : 'both plain calls and tasks are accepted';
  out.push(
    change(
      'tool',
      a.name,
      '/execution/taskSupport',
      'task-support-changed',
      breaking ? 'breaking' : 'compatible',
      `taskSupport ${x} → ${y}: ${why}`,
    ),
  );
}

function compareResources(out: ApiChange[], a: ResourceIR, b: ResourceIR): void {
  if (a.uri !== b.uri)
    out.push(
      change(
        'resource',
        a.name,
        '/uri',
        'uri-changed',
        'breaking',
        `uri ${a.uri} → ${b.uri}: clients reading the old URI get an error`,
      ),
    );
  mimeType(out, 'resource', a.name, a.mimeType, b.mimeType);
  scopes(out, 'resource', a, b);
}

function mimeType(out: ApiChange[], kind: EntryKind, name: string, x: string | null, y: string | null): void {
  if (x === y) return;
  // Clients parse the contents by their type: a new type is one they may not read.
  const breaking = x !== null;
  out.push(
    change(
      kind,
      name,
      '/mimeType',
      'mime-type-changed',
      breaking ? 'breaking' : 'compatible',
      `mimeType ${x ?? '(none)'} → ${y ?? '(none)'}: ${breaking ? 'clients reading the contents as before may fail' : 'a type where none was said'}`,
    ),
  );
}

function compareTemplates(out: ApiChange[], a: TemplateIR, b: TemplateIR): void {
  if (a.uriTemplate !== b.uriTemplate) {
    // Query expressions appended ({?q}) leave every URI clients build valid.
    const onlyQuery =
      b.uriTemplate.startsWith(a.uriTemplate) && /^(\{[?&][^}]*\})+$/.test(b.uriTemplate.slice(a.uriTemplate.length));
    out.push(
      change(
        'template',
        a.name,
        '/uriTemplate',
        onlyQuery ? 'uri-template-query-added' : 'uri-template-changed',
        onlyQuery ? 'compatible' : 'breaking',
        `uriTemplate ${a.uriTemplate} → ${b.uriTemplate}: ${onlyQuery ? 'URIs built from the old one still match' : 'URIs clients build from the old one may not match'}`,
      ),
    );
  }
  const vb = new Map(b.vars.map((v) => [v.name, v]));
  for (const v of a.vars) {
    const w = vb.get(v.name);
    if (w)
      schemas(out, 'template', a.name, `/variables/${pointerToken(v.name)}`, v.schema, w.schema, 'input', 'property');
  }
  mimeType(out, 'template', a.name, a.mimeType, b.mimeType);
  scopes(out, 'template', a, b);
}

function comparePrompts(out: ApiChange[], a: PromptIR, b: PromptIR): void {
  schemas(out, 'prompt', a.name, '/arguments', a.argsSchema, b.argsSchema, 'input', 'argument');
  scopes(out, 'prompt', a, b);
}

function scopes(
  out: ApiChange[],
  kind: EntryKind,
  a: { name: string; scopes: string[] },
  b: { scopes: string[] },
): void {
  const added = b.scopes.filter((s) => !a.scopes.includes(s));
  const removed = a.scopes.filter((s) => !b.scopes.includes(s));
  if (added.length)
    out.push(
      change(
        kind,
        a.name,
        '/scopes',
        'scopes-added',
        'breaking',
        `scopes ${added.join(', ')} now required: tokens without them are refused (403)`,
      ),
    );
  if (removed.length)
    out.push(
      change(
        kind,
        a.name,
        '/scopes',
        'scopes-removed',
        'compatible',
        `scopes ${removed.join(', ')} no longer required`,
      ),
    );
}

function transports(out: ApiChange[], base: IR, head: IR): void {
  const a = base.transports;
  const b = head.transports;
  if (a.stdio && !b.stdio)
    out.push(
      change(
        'transport',
        'stdio',
        '',
        'removed',
        'breaking',
        'stdio no longer offered: clients that start the server over stdio cannot connect',
      ),
    );
  if (!a.stdio && b.stdio) out.push(change('transport', 'stdio', '', 'added', 'compatible', 'stdio offered'));
  if (a.http && !b.http)
    out.push(
      change(
        'transport',
        'http',
        '',
        'removed',
        'breaking',
        'HTTP no longer offered: clients connecting over HTTP cannot connect',
      ),
    );
  if (!a.http && b.http) out.push(change('transport', 'http', '', 'added', 'compatible', 'HTTP offered'));
  if (!a.http || !b.http) return;
  if (a.http.path !== b.http.path)
    out.push(
      change(
        'transport',
        'http',
        '/path',
        'path-changed',
        'breaking',
        `HTTP path ${a.http.path} → ${b.http.path}: clients posting to the old URL get 404`,
      ),
    );
  legacySse(out, a.http.sse, b.http.sse);
  const authA = authOf(a.http);
  const authB = authOf(b.http);
  for (const kind of ['bearer', 'oauth'] as const) {
    if (!authA.kinds.has(kind) && authB.kinds.has(kind) && authA.kinds.size === 0)
      out.push(
        change(
          'transport',
          'http',
          `/auth/${kind}`,
          'auth-added',
          'breaking',
          `${kind} authentication added: clients connecting without a token are refused (401)`,
        ),
      );
    else if (!authA.kinds.has(kind) && authB.kinds.has(kind))
      out.push(
        change(
          'transport',
          'http',
          `/auth/${kind}`,
          'auth-added',
          'compatible',
          `${kind} authentication added beside the existing one: tokens either accepts pass`,
        ),
      );
    else if (authA.kinds.has(kind) && !authB.kinds.has(kind))
      out.push(
        change(
          'transport',
          'http',
          `/auth/${kind}`,
          'auth-removed',
          authB.kinds.size === 0 ? 'compatible' : 'breaking',
          authB.kinds.size === 0
            ? `${kind} authentication removed: the endpoint is open`
            : `${kind} authentication removed: clients holding its tokens are refused`,
        ),
      );
  }
  if (authA.kinds.size && authB.kinds.size) {
    const added = authB.scopes.filter((s) => !authA.scopes.includes(s));
    if (added.length)
      out.push(
        change(
          'transport',
          'http',
          '/auth/scopes',
          'scopes-added',
          'breaking',
          `scopes ${added.join(', ')} now required of every request: tokens without them are refused`,
        ),
      );
    const removed = authA.scopes.filter((s) => !authB.scopes.includes(s));
    if (removed.length)
      out.push(
        change(
          'transport',
          'http',
          '/auth/scopes',
          'scopes-removed',
          'compatible',
          `scopes ${removed.join(', ')} no longer required of every request`,
        ),
      );
  }
}

/** The 2024-11-05 HTTP+SSE endpoints: clients that speak only that transport connect through them. */
function legacySse(out: ApiChange[], a: HttpIR['sse'], b: HttpIR['sse']): void {
  if (a && !b)
    out.push(
      change(
        'transport',
        'http',
        '/sse',
        'sse-removed',
        'breaking',
        'the legacy HTTP+SSE endpoints are no longer served: clients that speak only that transport cannot connect',
      ),
    );
  else if (!a && b)
    out.push(change('transport', 'http', '/sse', 'sse-added', 'compatible', 'the legacy HTTP+SSE endpoints served'));
  if (!a || !b) return;
  for (const k of ['path', 'messagesPath'] as const) {
    if (a[k] !== b[k])
      out.push(
        change(
          'transport',
          'http',
          `/sse/${k}`,
          'path-changed',
          'breaking',
          `HTTP+SSE ${k} ${a[k]} → ${b[k]}: clients using the old URL get 404`,
        ),
      );
  }
}

function authOf(http: NonNullable<IR['transports']['http']>): { kinds: Set<'bearer' | 'oauth'>; scopes: string[] } {
  const kinds = new Set<'bearer' | 'oauth'>();
  if (http.bearer) kinds.add('bearer');
  if (http.oauth) kinds.add('oauth');
  return { kinds, scopes: [...(http.oauth?.scopes ?? http.bearer?.requiredScopes ?? [])] };
}

/** The schema changes of one entry's schema, each classified by who writes the values. */
function schemas(
  out: ApiChange[],
  kind: EntryKind,
  name: string,
  prefix: string,
  a: JsonSchema,
  b: JsonSchema,
  dir: Direction,
  noun: string,
): void {
  // Most entries of a change are untouched: one comparison of their text settles them.
  if (canonical(a) === canonical(b)) return;
  for (const f of diffSchemas(a, b, { noun })) {
    const verdict = classify(f.effect, dir, f.removedField === true, f.change);
    out.push({
      kind,
      entry: name,
      pointer: prefix + f.pointer,
      change: f.change,
      severity: verdict.severity,
      unclassified: f.effect === 'unclassified',
      message: `${dir === 'output' ? 'output: ' : ''}${f.message}: ${verdict.why}`,
    });
  }
}

function classify(
  effect: Effect,
  dir: Direction,
  removedField: boolean,
  code: string,
): { severity: Severity; why: string } {
  if (effect === 'unclassified')
    return {
      severity: 'breaking',
      why: 'mcpgen cannot tell how this affects clients, so it counts as breaking (unclassified)',
    };
  if (dir === 'output' && removedField) return { severity: 'breaking', why: 'clients reading it no longer get it' };
  if (dir === 'input') {
    if (effect === 'narrow' || effect === 'both')
      return { severity: 'breaking', why: 'calls valid before may be refused' };
    return {
      severity: 'compatible',
      why: effect === 'widen' ? 'every call valid before still is' : 'calls valid before still are',
    };
  }
  if (code.endsWith('-became-optional')) return { severity: 'breaking', why: 'clients reading it may not find it' };
  if (/^(required-)?(property|argument)-added$/.test(code))
    return { severity: 'compatible', why: 'clients that do not read it are unaffected' };
  if (effect === 'widen' || effect === 'both')
    return { severity: 'breaking', why: 'clients may read values they do not expect' };
  return { severity: 'compatible', why: 'clients read only values they already expect' };
}

function change(
  kind: EntryKind,
  entry: string,
  pointer: string,
  code: string,
  severity: Severity,
  message: string,
): ApiChange {
  return { kind, entry, pointer, change: code, severity, unclassified: false, message };
}
