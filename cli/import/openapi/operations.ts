/**
 * One manifest tool per OpenAPI operation: its name, input (path, query and header parameters and
 * the JSON body), output (the success response's JSON object schema), description, annotations
 * from the method, and the `http:` block the runtime calls the API with.
 */
import { isObject, type Schema, SchemaConverter, sharedRefs } from './schemas.js';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
type Method = (typeof METHODS)[number];

/** The lint limits a description is kept within (cli/lint/rules/descriptions.ts). */
const MAX_DESCRIPTION = 1024;
const MAX_NAME = 64;

export interface Selection {
  tags?: string[];
  paths?: string[];
  operations?: string[];
  renames?: Rename[];
}

/** `from=to` renames one tool; `prefix:` / `strip:` rules apply to every name. */
export type Rename = { from: string; to: string } | { prefix: string } | { strip: string };

export interface ImportedTool {
  name: string;
  operation: string;
  entry: Schema;
  /** The shared schemas the entry refers to, directly or through others. */
  schemas: Set<string>;
  /** Whether a --rename rule gave the name: a re-import renames the entry it imported before. */
  renamed: boolean;
}

export interface Mapped {
  tools: ImportedTool[];
  schemas: Map<string, Schema>;
  /** Operations left out, and why (cookie parameters, a body that is not JSON…). */
  notes: string[];
}

export function mapOperations(
  doc: Record<string, unknown>,
  version: '3.0' | '3.1',
  select: Selection,
  api: string,
): Mapped {
  const schemas = new SchemaConverter(doc, version);
  const tools: ImportedTool[] = [];
  const notes: string[] = [];
  const used = new Set<string>();
  const paths = isObject(doc.paths) ? doc.paths : {};
  for (const [p, rawItem] of Object.entries(paths)) {
    const item = schemas.resolve(rawItem);
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const operation = typeof op.operationId === 'string' ? op.operationId : `${method} ${p}`;
      if (!selected(select, op, p, operation)) continue;
      if (op.deprecated === true && !select.operations?.includes(operation)) {
        notes.push(`${operation}: deprecated, left out (name it with --operation to import it)`);
        continue;
      }
      const named = toolName(operation, method, p, select.renames ?? []);
      const name = uniqueName(named, used);
      const renamed = named !== toolName(operation, method, p, []);
      const params = [...list(item.parameters), ...list(op.parameters)]
        .map((x) => schemas.resolve(x))
        .filter((x): x is Schema => x !== undefined);
      const tool = mapOperation({ schemas, method, path: p, op, params, api, notes, operation });
      if (!tool) continue;
      tools.push({ name, operation, entry: tool, schemas: new Set(), renamed });
    }
  }
  for (const t of tools) t.schemas = schemas.closure(sharedRefs(t.entry));
  return { tools, schemas: schemas.shared, notes };
}

function mapOperation(a: {
  schemas: SchemaConverter;
  method: Method;
  path: string;
  op: Schema;
  params: Schema[];
  api: string;
  notes: string[];
  operation: string;
}): Schema | undefined {
  const { schemas, method, op } = a;
  const properties: Schema = {};
  const required: string[] = [];
  const query: string[] = [];
  const headers: Record<string, string> = {};
  // Later parameters (the operation's) override the path item's of the same name and place.
  const byKey = new Map<string, Schema>();
  for (const p of a.params) byKey.set(`${p.in}:${p.name}`, p);
  // Path parameters first: they keep their names, which the path template spells.
  const order = ['path', 'query', 'header'];
  for (const p of [...byKey.values()].sort((x, y) => order.indexOf(String(x.in)) - order.indexOf(String(y.in)))) {
    const name = String(p.name);
    if (p.in === 'cookie') {
      a.notes.push(`${a.operation}: cookie parameter \`${name}\` left out (the runtime sends no cookies)`);
      continue;
    }
    if (p.in !== 'path' && p.in !== 'query' && p.in !== 'header') continue;
    if (p.in === 'header' && /^(accept|content-type|authorization)$/i.test(name)) continue;
    const prop =
      p.in === 'header' || Object.hasOwn(properties, name) ? freeProperty(name, properties, String(p.in)) : name;
    const schema = schemas.convert(paramSchema(p), 'input');
    if (typeof p.description === 'string' && p.description.trim() && !('$ref' in schema))
      schema.description = trimText(p.description);
    if (p.deprecated === true) schema.deprecated = true;
    properties[prop] = schema;
    if (p.required === true || p.in === 'path') required.push(prop);
    if (p.in === 'query') query.push(prop);
    if (p.in === 'header') headers[name] = prop;
  }

  let body: string | string[] | undefined;
  const requestBody = schemas.resolve(op.requestBody);
  if (requestBody) {
    const media = jsonMedia(requestBody.content);
    if (!media) {
      a.notes.push(
        `${a.operation}: request body is not JSON (${Object.keys(requestBody.content ?? {}).join(', ')}), left out`,
      );
      return undefined;
    }
    const raw = schemas.resolve(media.schema) ?? {};
    const flat = schemas.convert(raw, 'input');
    const props = isObject(flat.properties) ? flat.properties : undefined;
    // An object body's properties become the tool's own arguments, when none clashes with a parameter.
    if (
      props &&
      Object.keys(props).length &&
      !Object.keys(props).some((k) => Object.hasOwn(properties, k)) &&
      !flat.additionalProperties &&
      !flat.allOf &&
      !flat.oneOf &&
      !flat.anyOf
    ) {
      Object.assign(properties, props);
      for (const r of Array.isArray(flat.required) ? flat.required : []) required.push(String(r));
      body = Object.keys(props);
    } else {
      const prop = freeProperty('body', properties, 'request');
      properties[prop] = schemas.convert(media.schema, 'input');
      if (requestBody.required === true) required.push(prop);
      body = prop;
    }
  }

  const entry: Schema = {};
  const summary = typeof op.summary === 'string' ? op.summary.trim() : '';
  if (summary) entry.title = oneLine(summary).slice(0, 120);
  entry.description = description(summary, op.description, method, a.path);
  entry.input = { type: 'object', properties, ...(required.length ? { required: [...new Set(required)] } : {}) };
  const output = outputSchema(schemas, op.responses);
  if (output) entry.output = output;
  const annotations = annotationsOf(method);
  if (annotations) entry.annotations = annotations;
  entry.http = {
    // Named even when it is the only api: a second one added later would make the entry ambiguous.
    api: a.api,
    method: method.toUpperCase(),
    path: a.path,
    ...(query.length ? { query } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(body !== undefined ? { body } : {}),
  };
  return entry;
}

/** The JSON schema of the first success response (200, 201, then any 2xx), when it is an object. */
function outputSchema(schemas: SchemaConverter, responses: unknown): Schema | undefined {
  if (!isObject(responses)) return undefined;
  const codes = Object.keys(responses).filter((c) => /^2(\d\d|XX)$/i.test(c));
  codes.sort((x, y) => rank(x) - rank(y));
  const code = codes[0];
  if (code === undefined) return undefined;
  const response = schemas.resolve(responses[code]);
  const media = response && jsonMedia(response.content);
  if (!media) return undefined;
  const top = schemas.resolve(media.schema);
  if (!top || !isObjectSchema(top)) return undefined;
  // The root is written out (not a shared `$ref`): an output root must be an object schema itself.
  const out = schemas.convert(top, 'output');
  return isObjectSchema(out) ? { type: 'object', ...out } : undefined;
}

function rank(code: string): number {
  return code === '200' ? 0 : code === '201' ? 1 : 2;
}

function isObjectSchema(s: Schema): boolean {
  if (s.type === 'object') return true;
  return (
    s.type === undefined && (isObject(s.properties) || s.additionalProperties !== undefined) && !s.anyOf && !s.oneOf
  );
}

function jsonMedia(content: unknown): Schema | undefined {
  if (!isObject(content)) return undefined;
  const key = Object.keys(content).find((k) => /^application\/(.+\+)?json\b/i.test(k) || k === '*/*');
  const media = key === undefined ? undefined : content[key];
  return isObject(media) ? { schema: {}, ...media } : undefined;
}

/** A parameter's schema; 3.x `content` parameters carry it in their one media type. */
function paramSchema(p: Schema): unknown {
  if (p.schema !== undefined) return p.schema;
  const media = isObject(p.content) ? Object.values(p.content)[0] : undefined;
  return isObject(media) && media.schema !== undefined ? media.schema : { type: 'string' };
}

function annotationsOf(method: Method): Schema | undefined {
  if (method === 'get') return { readOnlyHint: true };
  if (method === 'delete') return { destructiveHint: true };
  if (method === 'put') return { idempotentHint: true };
  return undefined;
}

/** Summary and description as one text, within the lint's length; never shorter than it asks. */
function description(summary: string, text: unknown, method: Method, p: string): string {
  const body = typeof text === 'string' ? text.trim() : '';
  let d = [summary, body].filter(Boolean).join('\n\n');
  if (summary && body.startsWith(summary)) d = body;
  if (d.length < 10) d = `${d ? `${d}: ` : ''}${method.toUpperCase()} ${p}`;
  return trimText(d);
}

function trimText(d: string): string {
  const t = d.trim();
  if (t.length <= MAX_DESCRIPTION) return t;
  const cut = t.slice(0, MAX_DESCRIPTION - 1);
  const end = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('\n'));
  return end > MAX_DESCRIPTION / 2 ? cut.slice(0, end + 1).trim() : `${cut.trimEnd()}…`;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ');
}

/** The tool's name: from the operationId (snake_case), or method and path; then the rename rules. */
export function toolName(operation: string, method: string, p: string, renames: Rename[]): string {
  let name = snake(operation.includes(' ') ? `${method} ${p.replace(/\{([^}]*)\}/g, 'by $1')}` : operation);
  for (const r of renames) {
    if ('strip' in r && name.startsWith(snake(r.strip))) name = name.slice(snake(r.strip).length).replace(/^_+/, '');
    else if ('prefix' in r) name = `${r.prefix}${name}`;
    else if ('from' in r && (r.from === operation || r.from === name)) return r.to;
  }
  return name.slice(0, MAX_NAME).replace(/_+$/, '') || 'operation';
}

/** `getPetById` → `get_pet_by_id`; `repos/get-content` → `repos_get_content`. */
export function snake(s: string): string {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

function uniqueName(name: string, used: Set<string>): string {
  let n = name;
  for (let i = 2; used.has(n); i++) n = `${name.slice(0, MAX_NAME - 3)}_${i}`;
  used.add(n);
  return n;
}

/** A property name for a header (`X-Request-Id` → `x_request_id`) or a clashing name (`query_id`). */
function freeProperty(name: string, properties: Schema, where: string): string {
  const base =
    name
      .replace(/[^A-Za-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase() || 'value';
  let n = Object.hasOwn(properties, base) ? `${where}_${base}` : base;
  for (let i = 2; Object.hasOwn(properties, n); i++) n = `${where}_${base}_${i}`;
  return n;
}

function list(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function selected(s: Selection, op: Schema, p: string, operation: string): boolean {
  if (s.operations?.length && !s.operations.includes(operation)) return false;
  if (s.tags?.length && !list(op.tags).some((t) => s.tags!.includes(String(t)))) return false;
  if (s.paths?.length && !s.paths.some((g) => pathMatches(g, p))) return false;
  return true;
}

/** A glob (`*` one segment, `**` any) or a prefix (`/pets` matches `/pets` and `/pets/{id}`). */
export function pathMatches(glob: string, p: string): boolean {
  if (!glob.includes('*')) return p === glob || p.startsWith(glob.endsWith('/') ? glob : `${glob}/`);
  const re = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${re}$`).test(p);
}
