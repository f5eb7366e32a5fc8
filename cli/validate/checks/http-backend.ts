import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import type { Range } from '../../load/types.js';
import { diagAt, rawText } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

/** What the runtime reads as an environment variable name: portable across shells. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PLACEHOLDER = /\{([^{}]*)\}/g;
const AUTH_KEYS: Record<string, string[]> = {
  bearer: ['env'],
  apiKey: ['in', 'name', 'env'],
  basic: ['usernameEnv', 'passwordEnv'],
};

/** `apis` and the tools' `http:` backends (MCPG290–MCPG299): what the runtime could not call. */
export function checkHttpBackends(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const apis = recordEntries(m.data.apis);
  for (const [name, api] of apis) if (isRecord(api)) checkApi(m, name, api, out);
  const names = apis.map(([name]) => name);
  for (const [name, tool] of recordEntries(m.data.tools)) {
    if (!isRecord(tool) || !isRecord(tool.http)) continue;
    checkTool(m, name, tool.http, tool.input, names, out);
  }
  return out;
}

function checkApi(m: LoadedManifest, name: string, api: Record<string, unknown>, out: Diagnostic[]): void {
  const at = ['apis', name];
  const env = (path: (string | number)[], value: unknown) => {
    if (typeof value === 'string' && !ENV_NAME.test(value))
      out.push(
        diagAt(m, path, Codes.HTTP_BAD_ENV_NAME, `\`${value}\` is not an environment variable name`, {
          hint: 'use letters, digits and `_`, not starting with a digit (e.g. `PETSTORE_TOKEN`)',
        }),
      );
  };
  const baseUrl = api.baseUrl;
  if (isRecord(baseUrl)) {
    env([...at, 'baseUrl', 'env'], baseUrl.env);
    if (typeof baseUrl.default === 'string' && !isBaseUrl(baseUrl.default))
      out.push(
        diagAt(
          m,
          [...at, 'baseUrl', 'default'],
          Codes.HTTP_BAD_BASE_URL,
          `the base URL of API \`${name}\` must be an absolute http or https URL without query or fragment`,
          { hint: 'e.g. `https://api.example.com/v1`' },
        ),
      );
  }
  const auth = api.auth;
  if (!isRecord(auth) || typeof auth.type !== 'string' || !AUTH_KEYS[auth.type]) return;
  const wanted = AUTH_KEYS[auth.type]!;
  for (const key of wanted) {
    if (auth[key] === undefined)
      out.push(
        diagAt(m, [...at, 'auth'], Codes.HTTP_AUTH_KEYS, `\`${auth.type}\` auth of API \`${name}\` needs \`${key}\``, {
          hint: `\`${auth.type}\` takes ${wanted.map((k) => `\`${k}\``).join(', ')}`,
        }),
      );
  }
  for (const key of Object.keys(auth)) {
    if (key !== 'type' && !wanted.includes(key) && Object.values(AUTH_KEYS).some((keys) => keys.includes(key)))
      out.push(
        diagAt(
          m,
          [...at, 'auth', key],
          Codes.HTTP_AUTH_KEYS,
          `\`${key}\` does not apply to \`${auth.type}\` auth (API \`${name}\`)`,
          { key: true, hint: `\`${auth.type}\` takes ${wanted.map((k) => `\`${k}\``).join(', ')}` },
        ),
      );
  }
  for (const key of ['env', 'usernameEnv', 'passwordEnv']) env([...at, 'auth', key], auth[key]);
}

function checkTool(
  m: LoadedManifest,
  name: string,
  http: Record<string, unknown>,
  input: unknown,
  apis: string[],
  out: Diagnostic[],
): void {
  const at = ['tools', name, 'http'];
  if (typeof http.api === 'string' && !apis.includes(http.api))
    out.push(
      diagAt(
        m,
        [...at, 'api'],
        Codes.HTTP_UNKNOWN_API,
        `tool \`${name}\` calls API \`${http.api}\`, which \`apis\` does not declare`,
        {
          hint: apis.length ? `declared: ${apis.map((a) => `\`${a}\``).join(', ')}` : 'declare it under `apis`',
        },
      ),
    );
  else if (http.api === undefined && apis.length !== 1)
    out.push(
      diagAt(
        m,
        at,
        Codes.HTTP_UNKNOWN_API,
        apis.length
          ? `tool \`${name}\` does not say which API it calls, and \`apis\` declares ${apis.length}`
          : `tool \`${name}\` has an \`http:\` backend, and the manifest declares no \`apis\``,
        {
          key: true,
          hint: apis.length
            ? `add \`api:\` (one of ${apis.map((a) => `\`${a}\``).join(', ')})`
            : 'declare the API under `apis`',
        },
      ),
    );
  if (http.method === 'GET' && http.body !== undefined)
    out.push(
      diagAt(
        m,
        [...at, 'body'],
        Codes.HTTP_BODY_ON_GET,
        `tool \`${name}\` sends a body with GET, which servers ignore or refuse`,
        {
          key: true,
          hint: 'send the properties as `query`, or use POST',
        },
      ),
    );
  const known = inputProperties(input);
  const required = isRecord(input) && Array.isArray(input.required) ? (input.required as unknown[]) : [];
  // Where each property goes, to report one placed twice.
  const placed = new Map<string, string>();
  const place = (property: unknown, where: string, path: (string | number)[], range?: Range) => {
    if (typeof property !== 'string') return;
    if (known && !known.has(property))
      out.push(
        diagAt(
          m,
          path,
          Codes.HTTP_UNKNOWN_PROPERTY,
          `${where} of tool \`${name}\` names \`${property}\`, which is not an input property`,
          {
            range,
            hint: known.size
              ? `input properties: ${[...known].map((p) => `\`${p}\``).join(', ')}`
              : 'the tool declares no input properties',
          },
        ),
      );
    const before = placed.get(property);
    // A placeholder repeated in the path takes the same value: not placed twice.
    if (before !== undefined && !(before === where && where === 'the path'))
      out.push(
        diagAt(
          m,
          path,
          Codes.HTTP_PLACED_TWICE,
          `input property \`${property}\` of tool \`${name}\` goes both in ${before} and in ${where}`,
          {
            range,
            hint: 'place each property once',
          },
        ),
      );
    else placed.set(property, where);
  };
  if (typeof http.path === 'string') {
    const path = http.path;
    if (/[?#]/.test(path) || path.replace(PLACEHOLDER, '').includes('{') || path.replace(PLACEHOLDER, '').includes('}'))
      out.push(
        diagAt(
          m,
          [...at, 'path'],
          Codes.HTTP_BAD_PATH,
          `the path of tool \`${name}\` is not a path template: \`{name}\` placeholders, no \`?\` or \`#\``,
          {
            hint: 'put query parameters in `query`',
          },
        ),
      );
    for (const [placeholder, property] of path.matchAll(PLACEHOLDER)) {
      if (!property || !/^[^/?#]+$/.test(property)) continue;
      const range = inString(m, [...at, 'path'], placeholder);
      place(property, 'the path', [...at, 'path'], range);
      if (known?.has(property) && !required.includes(property))
        out.push(
          diagAt(
            m,
            [...at, 'path'],
            Codes.HTTP_OPTIONAL_PATH_PARAMETER,
            `path parameter \`${property}\` of tool \`${name}\` is optional: a call without it fails`,
            {
              severity: 'warning',
              range,
              hint: `add \`${property}\` to the input's \`required\``,
            },
          ),
        );
    }
  }
  if (Array.isArray(http.query)) http.query.forEach((p, i) => place(p, 'the query', [...at, 'query', i]));
  for (const [header, p] of recordEntries(http.headers)) place(p, `header ${header}`, [...at, 'headers', header]);
  if (typeof http.body === 'string') place(http.body, 'the body', [...at, 'body']);
  else if (Array.isArray(http.body)) http.body.forEach((p, i) => place(p, 'the body', [...at, 'body', i]));
}

/** Where `part` is inside the one-line string at `path` (a placeholder of a path), or undefined. */
function inString(m: LoadedManifest, path: (string | number)[], part: string): Range | undefined {
  const raw = rawText(m, path);
  const at = raw?.indexOf(part) ?? -1;
  if (at < 0) return undefined;
  const r = m.locate(path);
  return { line: r.line, column: r.column + at, endLine: r.line, endColumn: r.column + at + part.length };
}

/** The input's declared property names, or undefined when they cannot be told (a `$ref`, composition). */
function inputProperties(input: unknown): Set<string> | undefined {
  if (input === undefined) return new Set();
  if (!isRecord(input) || ['$ref', 'allOf', 'anyOf', 'oneOf', 'if'].some((k) => k in input)) return undefined;
  return new Set(Object.keys(isRecord(input.properties) ? input.properties : {}));
}

function isBaseUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.search && !url.hash && !text.includes('#');
  } catch {
    return false;
  }
}
