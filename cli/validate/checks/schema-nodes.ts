import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { embeddedSchemas, walkSchema } from '../json-schema-walk.js';
import { checkMetaSchema, embeddedSchemaNode, isDraft07 } from './embedded-schemas.js';
import { defaultNode } from './defaults.js';
import { refNode } from './refs.js';
import { protoPropertyNode } from './proto-keys.js';

/** Which of the per-node checks to run. */
export interface NodeChecks {
  refs?: boolean;
  embedded?: boolean;
  required?: boolean;
  defaults?: boolean;
}

/**
 * The checks that look at every node of every embedded schema ($ref targets, the embedded-schema
 * rules, `required` names), in one walk: a large manifest has hundreds of thousands of subschemas,
 * and walking them once per check would be most of their cost. Each check's diagnostics come out in the
 * order its own walk made them.
 */
export function checkSchemaNodes(
  m: LoadedManifest,
  which: NodeChecks = { refs: true, embedded: true, required: true, defaults: true },
): { refs: Diagnostic[]; embedded: Diagnostic[]; required: Diagnostic[]; defaults: Diagnostic[] } {
  const refs: Diagnostic[] = [];
  const embedded: Diagnostic[] = [];
  const required: Diagnostic[] = [];
  const defaults: Diagnostic[] = [];
  for (const root of embeddedSchemas(m.data)) {
    const draft07 = (which.embedded === true || which.defaults === true) && isDraft07(root);
    // The meta-schema check comes before the rules at the nodes, as in checkEmbeddedSchemas alone.
    const nodes: Diagnostic[] = [];
    walkSchema(root.schema, root.path, (node, path) => {
      if (which.refs) refNode(m, root, node, path, refs);
      if (which.embedded) embeddedSchemaNode(m, root, draft07, node, path, nodes);
      if (which.required) protoPropertyNode(m, node, path, required);
      if (which.defaults) defaultNode(m, draft07, node, path, defaults);
    });
    if (which.embedded) {
      checkMetaSchema(m, root, draft07, embedded);
      for (const d of nodes) embedded.push(d);
    }
  }
  return { refs, embedded, required, defaults };
}

/** refs, the embedded-schema rules, `required` names and defaults, as one semantic check (their codes differ: sorting orders them). */
export function checkSchemaNodesAll(m: LoadedManifest): Diagnostic[] {
  const r = checkSchemaNodes(m);
  return [...r.refs, ...r.embedded, ...r.required, ...r.defaults];
}

/** Every `$ref` in an embedded schema must resolve: `#/schemas/<Name>` that exists, or a JSON Pointer into the same schema. */
export function checkRefs(m: LoadedManifest): Diagnostic[] {
  return checkSchemaNodes(m, { refs: true }).refs;
}

/** Properties named `__proto__`, which the SDK drops (MCPG214). */
export function checkProtoProperties(m: LoadedManifest): Diagnostic[] {
  return checkSchemaNodes(m, { required: true }).required;
}

/**
 * Each embedded schema must itself be valid JSON Schema 2020-12 (checked against the meta-schema),
 * with regular expressions that compile; unknown `format`s are flagged because nothing would check them.
 */
export function checkEmbeddedSchemas(m: LoadedManifest): Diagnostic[] {
  return checkSchemaNodes(m, { embedded: true }).embedded;
}
