import { Codes } from '../manifest/codes.js';
import { fragmentSegments, isRecord, valueAt, type JsonPath } from '../manifest/json-path.js';
import type { EmbeddedSchema } from './json-schema-walk.js';
import { didYouMean } from './suggest.js';

export type RefResolution =
  { ok: true; path: JsonPath; schema: unknown } | { ok: false; code: string; message: string; hint?: string };

/**
 * Resolve a `$ref` written inside the embedded schema `root`. Two forms exist, and nothing else:
 * `#/schemas/<Name>` (a shared schema of the manifest) and `#/$defs/…` / `#/definitions/…` (inside
 * the same embedded schema). Remote refs are refused, never fetched: generation must not depend on
 * the network, and a fetched schema could change under a committed server.
 */
export function resolveRef(ref: string, root: EmbeddedSchema, data: unknown): RefResolution {
  const shown = `\`${ref}\``;
  if (!ref.startsWith('#')) {
    return {
      ok: false,
      code: Codes.REF_NOT_ALLOWED,
      message: `\`$ref\` ${shown} points outside the manifest; mcpgen never fetches schemas`,
      hint: "copy the schema under `schemas:` and refer to it as '#/schemas/<Name>'",
    };
  }
  const segs = fragmentSegments(ref.slice(1));
  if (segs === undefined || segs.length === 0) {
    return {
      ok: false,
      code: Codes.REF_NOT_ALLOWED,
      message: `\`$ref\` ${shown} is not supported: use '#/schemas/<Name>' or a local '#/$defs/<name>'`,
      ...(segs?.length === 0
        ? {
            hint: "in a manifest '#' is the manifest itself; for a recursive schema, put it under `schemas:` and refer to '#/schemas/<Name>'",
          }
        : {}),
    };
  }
  const [head, name] = segs;
  if (head === 'schemas') {
    const shared = isRecord(data) && isRecord(data.schemas) ? data.schemas : {};
    if (segs.length !== 2) {
      return {
        ok: false,
        code: Codes.REF_NOT_ALLOWED,
        message: `\`$ref\` ${shown} points inside a shared schema; refer to a whole one: '#/schemas/${name ?? '<Name>'}'`,
      };
    }
    // Own keys only: `#/schemas/__proto__` names no schema, whatever an object inherits.
    if (!Object.hasOwn(shared, name!) || !isRecord(shared[name!])) {
      return {
        ok: false,
        code: Codes.REF_UNRESOLVED,
        message: `\`$ref\` ${shown}: there is no schema \`${name}\` under \`schemas\`${didYouMean(name!, Object.keys(shared))}`,
      };
    }
    return { ok: true, path: ['schemas', name!], schema: shared[name!] };
  }
  if (head === '$defs' || head === 'definitions') {
    const target = valueAt(root.schema, segs);
    if (isRecord(target) || typeof target === 'boolean')
      return { ok: true, path: [...root.path, ...segs], schema: target };
    const defs = valueAt(root.schema, [head]);
    const dym = segs.length === 2 && isRecord(defs) ? didYouMean(name!, Object.keys(defs)) : '';
    return {
      ok: false,
      code: Codes.REF_UNRESOLVED,
      message: `\`$ref\` ${shown}: no such definition in this schema${dym}`,
    };
  }
  return {
    ok: false,
    code: Codes.REF_NOT_ALLOWED,
    message: `\`$ref\` ${shown} is not supported: use '#/schemas/<Name>' or a local '#/$defs/<name>'`,
  };
}

/**
 * Follow `$ref`s at a schema's root to the schema that says what type it is (the first node with a
 * `type`, or without a `$ref`). Undefined when a ref does not resolve or the chain loops (both reported elsewhere).
 */
export function derefRoot(
  root: EmbeddedSchema,
  data: unknown,
): { path: JsonPath; schema: Record<string, unknown> } | undefined {
  let base = root;
  let node = root.schema;
  let path = root.path;
  for (let i = 0; i < 32; i++) {
    const ref = node.$ref;
    if (typeof ref !== 'string' || node.type !== undefined) return { path, schema: node };
    const r = resolveRef(ref, base, data);
    if (!r.ok || !isRecord(r.schema)) return undefined;
    // A shared schema is a root of its own: its `#/$defs` refs resolve inside it.
    if (r.path[0] === 'schemas' && r.path.length === 2) base = { path: r.path, schema: r.schema };
    node = r.schema;
    path = r.path;
  }
  return undefined;
}
