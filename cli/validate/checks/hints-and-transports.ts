import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
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
  }
  return out;
}

/** A server with every transport disabled could not be reached at all. */
export function checkTransports(m: LoadedManifest): Diagnostic[] {
  const t = isRecord(m.data) ? m.data.transports : undefined;
  if (!isRecord(t) || t.stdio !== false || t.http !== false) return [];
  return [
    diagAt(m, ['transports'], Codes.NO_TRANSPORT, 'every transport is disabled: clients could not reach the server', {
      key: true,
      hint: 'enable stdio or http (remove `false`)',
    }),
  ];
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
    diagAt(m, ['server', 'name'], Codes.BAD_STRING, `server name ${JSON.stringify(s.name)} is not an npm package name, and \`server.package\` is not set`, {
      hint: `clients see the name as written; add \`package: ${suggested}\` for the generated project's package.json (lowercase letters, digits, \`-\`, \`.\`, \`_\`, \`~\`; optionally @scope/name)`,
    }),
  ];
}
