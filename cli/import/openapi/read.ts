/**
 * Reading an OpenAPI document from a local file: YAML or JSON, checked against the OpenAPI
 * specification by @readme/openapi-parser, with every error pointing at file:line of what the user
 * wrote. mcpgen fetches nothing: external `$ref`s to other local files are bundled in, URLs refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../diagnostics.js';
import { yamlLib } from '../../load/yaml-lib.js';

/** A document as read: its data, the path it was given as, its OpenAPI version. */
export interface OpenApiDocument {
  data: Record<string, unknown>;
  /** The path as the user gave it (what marks record in `imported.from`). */
  display: string;
  abs: string;
  version: '3.0' | '3.1';
}

/** An OpenAPI document that cannot be imported: the message starts with file:line. */
export class OpenApiError extends UsageError {
  override name = 'OpenApiError';
}

export async function readOpenApi(file: string, cwd: string): Promise<OpenApiDocument> {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file))
    throw new UsageError(`${file}: mcpgen imports local files only; download it first (e.g. curl -o openapi.yaml …)`);
  const abs = path.resolve(cwd, file);
  let text: string;
  try {
    // A BOM is no part of the document (editors on Windows write one before JSON too).
    text = readFileSync(abs, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`${file}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code})`}`);
  }
  const data = parseText(text, file);
  const version = versionOf(data, file);
  const { validate, bundle } = await import('@readme/openapi-parser');
  // The parser's checks mutate what they are given (they dereference): both get a copy.
  // With refs into other files the parser reads the document by its path, so they resolve beside it.
  const external = hasExternalRefs(data);
  const result = await validate((external ? abs : structuredClone(data)) as never, {
    resolve: { external: true, file: true },
    validate: { errors: { colorize: false } },
  }).catch((err: Error) => ({ valid: false as const, errors: [{ message: err.message }] }));
  if (!result.valid) {
    const first = result.errors[0]?.message ?? 'invalid';
    throw new OpenApiError(
      `${file}:${lineOfError(first, data, text)}: ${headline(first)}${more(result.errors.length)}`,
    );
  }
  // Refs into other files become refs into this document, so the mapping reads one tree.
  const bundled = external
    ? ((await bundle(abs as never, { resolve: { external: true, file: true } })) as Record<string, unknown>)
    : data;
  return { data: bundled, display: file, abs, version };
}

function parseText(text: string, file: string): Record<string, unknown> {
  let data: unknown;
  if (/^\s*[{[]/.test(text)) {
    try {
      data = JSON.parse(text);
    } catch (err) {
      const at = /position (\d+)/.exec((err as Error).message);
      const line = at ? lineAt(text, Number(at[1])) : 1;
      throw new OpenApiError(
        `${file}:${line}: not valid JSON: ${(err as Error).message.replace(/ in JSON at.*$/, '')}`,
      );
    }
  } else {
    const Y = yamlLib();
    const doc = Y.parseDocument(text, { uniqueKeys: true });
    const error = doc.errors[0];
    if (error) {
      const line = error.linePos?.[0]?.line ?? 1;
      const what = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
      throw new OpenApiError(`${file}:${line}: not valid YAML: ${what}`);
    }
    data = doc.toJS({ maxAliasCount: 10_000 });
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw new OpenApiError(`${file}:1: not an OpenAPI document: expected a mapping with \`openapi: 3.x\``);
  return data as Record<string, unknown>;
}

function versionOf(data: Record<string, unknown>, file: string): '3.0' | '3.1' {
  if (typeof data.swagger === 'string')
    throw new OpenApiError(
      `${file}:1: Swagger ${data.swagger} is not supported: convert it to OpenAPI 3 first (npx swagger2openapi ${path.basename(file)} -o openapi.yaml)`,
    );
  const v = typeof data.openapi === 'string' ? data.openapi : '';
  if (v.startsWith('3.0')) return '3.0';
  if (v.startsWith('3.1') || v.startsWith('3.2')) return '3.1';
  throw new OpenApiError(
    `${file}:1: not an OpenAPI 3.0 or 3.1 document (\`openapi\` is ${JSON.stringify(data.openapi)})`,
  );
}

/** The first line of the parser's message (the rest is a code frame of its own JSON copy). */
function headline(message: string): string {
  return message
    .split('\n')[0]!
    .replace(/^[A-Z_]+ /, '')
    .trim();
}

function more(n: number): string {
  return n > 1 ? ` (and ${n - 1} more error${n > 2 ? 's' : ''})` : '';
}

/**
 * The line in the user's file of what the parser's message points at. The parser frames its errors
 * in `JSON.stringify(document, null, 2)`: the framed line number gives the JSON path there, which
 * gives the line in the file. A missing `$ref` is found by its text.
 */
function lineOfError(message: string, data: unknown, text: string): number {
  const missing = /Missing \$ref pointer "([^"]+)"/.exec(message);
  if (missing) {
    const at = text.indexOf(missing[1]!);
    return at >= 0 ? lineAt(text, at) : 1;
  }
  const duplicate = /operationId `([^`]+)` is duplicated/.exec(message);
  if (duplicate) {
    const at = secondOperation(data, duplicate[1]!);
    return at ? lineOfPath(text, at) : 1;
  }
  const framed = /^> +(\d+) \|/m.exec(message);
  if (!framed) return 1;
  const jsonPath = pathAtJsonLine(data, Number(framed[1]));
  return jsonPath ? lineOfPath(text, jsonPath) : 1;
}

/** The path of the second operation with the id: the duplicate, the first being the original. */
function secondOperation(data: unknown, id: string): string[] | undefined {
  const paths = (data as { paths?: unknown }).paths;
  if (paths === null || typeof paths !== 'object') return undefined;
  let seen = 0;
  for (const [p, item] of Object.entries(paths as Record<string, unknown>)) {
    if (item === null || typeof item !== 'object') continue;
    for (const [method, op] of Object.entries(item as Record<string, unknown>))
      if ((op as { operationId?: unknown } | null)?.operationId === id && ++seen === 2)
        return ['paths', p, method, 'operationId'];
  }
  return undefined;
}

/** The path of the value on line `line` (1-based) of `JSON.stringify(data, null, 2)`. */
function pathAtJsonLine(data: unknown, line: number): (string | number)[] | undefined {
  let current = 1;
  let found: (string | number)[] | undefined;
  const walk = (value: unknown, at: (string | number)[]): void => {
    if (found) return;
    if (current === line) found = at;
    if (value === null || typeof value !== 'object') return;
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v] as const) : Object.entries(value);
    if (entries.length === 0) return;
    for (const [k, v] of entries) {
      if (v === undefined) continue;
      current++;
      walk(v, [...at, k]);
      if (found) return;
    }
    current++; // the closing bracket
  };
  walk(data, []);
  return found;
}

/** The line of the key at `jsonPath` in the file (YAML or JSON; both parse as YAML). */
function lineOfPath(text: string, jsonPath: (string | number)[]): number {
  const Y = yamlLib();
  const lines = new Y.LineCounter();
  const doc = Y.parseDocument(text, { lineCounter: lines });
  for (let n = jsonPath.length; n > 0; n--) {
    const parent = doc.getIn(jsonPath.slice(0, n - 1), true) as
      | { items?: { key?: { range?: number[] } }[] }
      | undefined;
    const node = doc.getIn(jsonPath.slice(0, n), true) as { range?: number[] } | undefined;
    const last = jsonPath[n - 1];
    const pair = parent?.items?.find((p) => (p.key as { value?: unknown } | undefined)?.value === last);
    const offset = pair?.key?.range?.[0] ?? node?.range?.[0];
    if (offset !== undefined) return lines.linePos(offset).line;
  }
  return 1;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

function hasExternalRefs(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasExternalRefs);
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string' && !v.startsWith('#')) return true;
    if (hasExternalRefs(v)) return true;
  }
  return false;
}
