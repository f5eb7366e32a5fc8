import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, type JsonPath } from '../../manifest/json-path.js';
import { diagAt } from '../diagnostic.js';

const PROTO = '__proto__';
const HINT = 'rename it: no client can send or see a value under that name';

/**
 * MCPG210 at one node of an embedded schema: a property named `__proto__`. The MCP SDK reads every
 * message into plain objects, where that key sets the prototype instead of a property: tools/list
 * would show the schema without it, and arguments never carry it (a `required` one fails every call).
 */
export function protoPropertyNode(
  m: LoadedManifest,
  node: Record<string, unknown>,
  path: JsonPath,
  out: Diagnostic[],
): void {
  if (isRecord(node.properties) && Object.hasOwn(node.properties, PROTO)) {
    out.push(
      diagAt(
        m,
        [...path, 'properties', PROTO],
        Codes.KEY_DROPPED,
        `a property named \`${PROTO}\` never reaches a client: the MCP SDK drops the key from every message`,
        { key: true, hint: HINT },
      ),
    );
  }
}

/** MCPG210 for prompt arguments and template variables named `__proto__`, dropped the same way. */
export function checkProtoNames(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!isRecord(m.data)) return out;
  const named = (container: unknown, at: JsonPath, what: string) => {
    if (isRecord(container) && Object.hasOwn(container, PROTO))
      out.push(
        diagAt(
          m,
          [...at, PROTO],
          Codes.KEY_DROPPED,
          `${what} named \`${PROTO}\` never reaches the handler: the MCP SDK drops the key`,
          { key: true, hint: HINT },
        ),
      );
  };
  if (isRecord(m.data.prompts))
    for (const [name, p] of Object.entries(m.data.prompts))
      if (isRecord(p)) named(p.arguments, ['prompts', name, 'arguments'], 'a prompt argument');
  if (isRecord(m.data.resourceTemplates))
    for (const [name, t] of Object.entries(m.data.resourceTemplates))
      if (isRecord(t)) named(t.params, ['resourceTemplates', name, 'params'], 'a template variable');
  return out;
}
