/**
 * Checking a value (a `default`, an example) against an embedded schema at validate time. The
 * schema is the user's, so it cannot be precompiled like the manifest schema (./ajv.ts): it is
 * compiled with the generated server's ajv setup (cli/manifest/server-ajv.ts), so "valid" here
 * means what the server will accept. Most values are decided by the quick check first.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { serverAjv } from '../../manifest/server-ajv.js';
import { quickCheck } from '../../manifest/sample-check.js';

/** What checking a value found: valid, invalid (with ajv's first complaint), or undecidable. */
export type ValueCheck = { valid: true } | { valid: false; problem: string } | { valid: undefined };

/**
 * Checks `value` against `schema`, a subschema read on its own: one that holds a `$ref` is
 * undecidable here (its target lies outside it), and so is one ajv cannot compile.
 */
export function checkValue(
  schema: Record<string, unknown>,
  value: unknown,
  dialect: '2020-12' | 'draft-07',
): ValueCheck {
  const quick = quickCheck(schema, value);
  if (quick === true) return { valid: true };
  if (quick === undefined && holdsRef(schema, 0)) return { valid: undefined };
  try {
    const { $schema: _s, $id: _i, $defs: _d, definitions: _e, ...rest } = schema;
    const validate = compiled(rest, dialect);
    if (validate(value)) return { valid: true };
    return { valid: false, problem: describe(validate.errors?.[0]) };
  } catch {
    return { valid: undefined };
  }
}

/**
 * One validator per distinct schema: imported APIs repeat the same parameter and property schemas
 * in hundreds of tools (GitHub's `per_page` in 400), and compiling is most of a large validate.
 */
const validators = new Map<string, ValidateFunction>();

function compiled(schema: Record<string, unknown>, dialect: '2020-12' | 'draft-07'): ValidateFunction {
  const key = `${dialect}\0${JSON.stringify(schema)}`;
  let v = validators.get(key);
  if (v === undefined) {
    // Bounded: `mcpgen watch` and `mcpgen mcp` validate edit after edit in one process.
    if (validators.size >= 5000) validators.clear();
    validators.set(key, (v = serverAjv(dialect).compile(schema)));
  }
  return v;
}

function describe(e: ErrorObject | undefined): string {
  if (!e) return 'rejected';
  return e.instancePath
    ? `${e.instancePath.slice(1).replace(/\//g, '.')} ${e.message ?? 'is invalid'}`
    : (e.message ?? 'rejected');
}

function holdsRef(v: unknown, depth: number): boolean {
  if (typeof v !== 'object' || v === null || depth > 512) return false;
  if (Array.isArray(v)) return v.some((e) => holdsRef(e, depth + 1));
  for (const [k, e] of Object.entries(v)) {
    if ((k === '$ref' || k === '$dynamicRef') && typeof e === 'string') return true;
    if (holdsRef(e, depth + 1)) return true;
  }
  return false;
}
