import { Codes } from '../manifest/codes.js';
import { fragmentSegments, isRecord, toPointer, type JsonPath } from '../manifest/json-path.js';
import type { EmbeddedSchema } from './json-schema-walk.js';
import { pointerTarget, type PointerTarget } from './ref-pointer.js';
import { didYouMean } from './suggest.js';

export type RefResolution =
  | { ok: true; path: JsonPath; schema: unknown }
  | { ok: false; code: string; message: string; hint?: string };

/**
 * Resolve a `$ref` written inside the embedded schema `root`. `#/schemas/<Name>` is a shared schema
 * of the manifest; any other fragment is a JSON Pointer (RFC 6901, percent-decoded first: §6) from
 * the root of `root` itself, as JSON Schema 2020-12 §8.2 resolves it against the schema's own
 * document. Remote refs are refused, never fetched: generation must not depend on the network, and
 * a fetched schema could change under a committed server.
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
  if (segs === undefined) {
    return {
      ok: false,
      code: Codes.REF_NOT_ALLOWED,
      message: `\`$ref\` ${shown} is not supported: use '#/schemas/<Name>' or a JSON Pointer into this schema ('#/$defs/<name>', '#/properties/<name>')`,
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
  const target = pointerTarget(root.schema, segs);
  if (target.ok) return { ok: true, path: [...root.path, ...target.path], schema: target.schema };
  return unresolved(shown, segs, target);
}

/** Why a pointer does not designate a schema, with a did-you-mean for a misspelled step. */
function unresolved(shown: string, segs: string[], t: Extract<PointerTarget, { ok: false }>): RefResolution {
  const missing = segs[t.at] ?? '';
  const dym = t.reason === 'missing' && missing !== '' ? didYouMean(missing, t.keys) : '';
  if ((segs[0] === '$defs' || segs[0] === 'definitions') && t.at === 1) {
    return {
      ok: false,
      code: Codes.REF_UNRESOLVED,
      message: `\`$ref\` ${shown}: no such definition in this schema${dym}`,
    };
  }
  const where = `\`#${toPointer(segs.slice(0, t.at + 1))}\``;
  const message =
    t.reason === 'missing'
      ? `\`$ref\` ${shown}: this schema has nothing at ${where}${dym}`
      : `\`$ref\` ${shown}: ${where} in this schema is not a schema (a local \`$ref\` must point at one, through schema keywords)`;
  return {
    ok: false,
    code: Codes.REF_UNRESOLVED,
    message,
    hint: "a local `$ref` is a JSON Pointer from the root of the schema it is written in (`~1` for `/`, `~0` for `~`); to use a schema from elsewhere in the manifest, put it under `schemas:` and refer to '#/schemas/<Name>'",
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
