// Where a tool's arguments go in its HTTP request: path, query string, headers and JSON body, as
// its `http:` declaration says (normalized by mcpgen: every default resolved).

import type { HttpCall, HttpMethod, QueryValue } from './http-call.js';

/** A tool's `http:` declaration as server.ts passes it. */
export interface HttpBinding {
  /** The API's name in `apis`. */
  api: string;
  method: HttpMethod;
  /** `/pets/{petId}`: each `{name}` an input property, percent-encoded. */
  path: string;
  /** Input properties sent as query parameters. */
  query?: readonly string[];
  /** Header name → input property. */
  headers?: Readonly<Record<string, string>>;
  /** The property whose value is the body, or the properties forming the body object. */
  body?: string | readonly string[];
  /** Where properties named nowhere else go: the query string, or the JSON body object. */
  rest: 'query' | 'body';
  timeoutMs?: number;
}

/** A request relative to its API: path (encoded), query, headers, JSON body. */
export interface PreparedRequest {
  method: HttpMethod;
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  /** The JSON body, or undefined for none. */
  body: unknown;
}

/** A request that cannot be made from the arguments given (a missing or unsafe path value). */
export class HttpArgumentError extends Error {}

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** The request a tool's declaration makes from `input`. */
export function requestOf(binding: HttpBinding, input: Record<string, unknown>): PreparedRequest {
  const placed = new Set<string>();
  const path = binding.path.replace(PLACEHOLDER, (_, name: string) => {
    placed.add(name);
    return pathValue(name, input[name]);
  });
  checkSegments(binding.path, path);
  const query: [string, string][] = [];
  for (const name of binding.query ?? []) placed.add(name), addQuery(query, name, input[name]);
  const headers: Record<string, string> = {};
  for (const [header, name] of Object.entries(binding.headers ?? {})) {
    placed.add(name);
    const value = input[name];
    if (value !== undefined && value !== null) headers[header] = scalarText(value, ', ');
  }
  let body: unknown;
  if (typeof binding.body === 'string') {
    placed.add(binding.body);
    body = input[binding.body];
  } else if (binding.body) {
    for (const name of binding.body) placed.add(name);
    body = pick(input, binding.body);
  }
  const rest = Object.keys(input).filter((name) => !placed.has(name) && input[name] !== undefined);
  if (binding.rest === 'query') for (const name of rest) addQuery(query, name, input[name]);
  else if (rest.length) body = { ...(body as object | undefined), ...pick(input, rest) };
  return { method: binding.method, path, query, headers, body };
}

/** The request of a `ctx.http({ path, … })` call: its path as written. */
export function requestOfCall(call: HttpCall & { path: string }): PreparedRequest {
  const query: [string, string][] = [];
  for (const [name, value] of Object.entries(call.query ?? {})) addQuery(query, name, value);
  return { method: call.method ?? 'GET', path: call.path, query, headers: { ...call.headers }, body: call.body };
}

function pick(input: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) if (input[name] !== undefined) out[name] = input[name];
  return out;
}

/** A path value, percent-encoded: it can never add `/`, `?` or `#`. */
function pathValue(name: string, value: unknown): string {
  if (value === undefined || value === null || value === '')
    throw new HttpArgumentError(`path parameter ${name} is missing`);
  return encodeURIComponent(scalarText(value, ','));
}

/**
 * Values are encoded, but a whole segment of `.` or `..` (or `%2e`, which URLs read the same)
 * still moves up a folder: refused where the template did not write it.
 */
function checkSegments(template: string, path: string): void {
  const written = template.split('/');
  path.split('/').forEach((segment, i) => {
    if (/^(\.|%2e){1,2}$/i.test(segment) && written[i] !== segment)
      throw new HttpArgumentError(`a path parameter may not be "${decodeURIComponent(segment)}"`);
  });
}

function addQuery(query: [string, string][], name: string, value: QueryValue | unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) for (const item of value) query.push([name, scalarText(item, ',')]);
  else query.push([name, scalarText(value, ',')]);
}

/** Text of a value for a path, query or header: objects as JSON. */
function scalarText(value: unknown, join: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => scalarText(v, join)).join(join);
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
