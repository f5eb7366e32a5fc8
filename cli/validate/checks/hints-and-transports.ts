import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { HTTP_DEFAULTS } from '../../manifest/defaults.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';
import { recordEntries } from '../json-schema-walk.js';

/** MCP: destructiveHint is "meaningful only when readOnlyHint == false"; both true contradict each other. */
export function checkToolHints(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  for (const [name, tool] of recordEntries(m.data.tools)) {
    const a = isRecord(tool) ? tool.annotations : undefined;
    if (isRecord(a) && a.readOnlyHint === true && a.destructiveHint === true) {
      out.push(
        diagAt(
          m,
          ['tools', name, 'annotations', 'destructiveHint'],
          Codes.CONTRADICTORY_HINTS,
          `tool \`${name}\` is marked both \`readOnlyHint: true\` and \`destructiveHint: true\`: a read-only tool cannot be destructive`,
          {
            key: true,
            hint: 'remove one of the two hints',
          },
        ),
      );
    }
    out.push(...checkToolContent(m, name, tool));
  }
  return out;
}

/**
 * A tool with `output` sends its structured result as a JSON text block too (for clients that
 * read only `content`), so `content` kinds that leave out `text` do not describe its results.
 */
function checkToolContent(m: LoadedManifest, name: string, tool: unknown): Diagnostic[] {
  if (!isRecord(tool) || tool.output === undefined || !Array.isArray(tool.content)) return [];
  if (tool.content.includes('text')) return [];
  return [
    diagAt(
      m,
      ['tools', name, 'content'],
      Codes.CONTENT_WITHOUT_TEXT,
      `tool \`${name}\` has \`output\`, so its results carry their JSON as a text block, but \`content\` leaves out \`text\``,
      {
        key: true,
        severity: 'warning',
        hint: 'add `text` to `content`',
      },
    ),
  ];
}

/** A server with every transport disabled could not be reached at all. */
export function checkTransports(m: LoadedManifest): Diagnostic[] {
  const t = isRecord(m.data) ? m.data.transports : undefined;
  if (!isRecord(t)) return [];
  if (t.stdio !== false || t.http !== false) return checkHttpPaths(m, t.http);
  return [
    diagAt(m, ['transports'], Codes.NO_TRANSPORT, 'every transport is disabled: clients could not reach the server', {
      key: true,
      hint: 'enable stdio or http (remove `false`)',
    }),
  ];
}

/**
 * The HTTP server routes by path: the MCP endpoint, the two of the HTTP+SSE transport and
 * `/health` must differ, or one would shadow another. Defaults as the schema gives them.
 */
function checkHttpPaths(m: LoadedManifest, http: unknown): Diagnostic[] {
  if (http === false) return [];
  const h = isRecord(http) ? http : {};
  const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
  const taken = new Map<string, string>([['/health', 'the health check']]);
  const endpoints: { at: (string | number)[]; path: string; what: string }[] = [
    { at: ['transports', 'http', 'path'], path: text(h.path, HTTP_DEFAULTS.path), what: 'the MCP endpoint' },
  ];
  if (h.sse !== false) {
    const sse = isRecord(h.sse) ? h.sse : {};
    endpoints.push(
      {
        at: ['transports', 'http', 'sse', 'path'],
        path: text(sse.path, HTTP_DEFAULTS.sse.path),
        what: 'the HTTP+SSE stream',
      },
      {
        at: ['transports', 'http', 'sse', 'messagesPath'],
        path: text(sse.messagesPath, HTTP_DEFAULTS.sse.messagesPath),
        what: 'the HTTP+SSE message endpoint',
      },
    );
  }
  const out: Diagnostic[] = [];
  for (const e of endpoints) {
    const other = taken.get(e.path);
    if (other === undefined) {
      taken.set(e.path, e.what);
      continue;
    }
    // At the key that sets the path, or the nearest one the manifest has.
    let at = e.at;
    while (at.length > 1 && !has(m.data, at)) at = at.slice(0, -1);
    out.push(
      diagAt(
        m,
        at,
        Codes.HTTP_PATH_COLLISION,
        `${e.what} and ${other} are both at \`${e.path}\`: one would shadow the other`,
        {
          key: true,
          hint: 'give each HTTP endpoint a path of its own (or `sse: false` for no HTTP+SSE transport)',
        },
      ),
    );
  }
  return out;
}

function has(data: unknown, path: (string | number)[]): boolean {
  let node = data;
  for (const key of path) {
    if (!isRecord(node) || !Object.hasOwn(node, key)) return false;
    node = node[key];
  }
  return true;
}

const NPM_NAME = /^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/;

/**
 * serverInfo.name is free text (`Context7`), but the generated project needs an npm package name:
 * `package`, or the name itself when it is one.
 */
export function checkPackageName(m: LoadedManifest): Diagnostic[] {
  const s = isRecord(m.data) ? m.data.server : undefined;
  if (!isRecord(s) || s.package !== undefined || typeof s.name !== 'string' || s.name === '') return [];
  if (NPM_NAME.test(s.name) && s.name.length <= 214) return [];
  const suggested =
    s.name
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9-._~]+/g, '-')
      .replace(/^[-._]+|-+$/g, '')
      .slice(0, 214) || 'mcp-server';
  return [
    diagAt(
      m,
      ['server', 'name'],
      Codes.BAD_STRING,
      `server name ${JSON.stringify(s.name)} is not an npm package name, and \`server.package\` is not set`,
      {
        hint: `clients see the name as written; add \`package: ${suggested}\` for the generated project's package.json (lowercase letters, digits, \`-\`, \`.\`, \`_\`, \`~\`; optionally @scope/name)`,
      },
    ),
  ];
}
