/**
 * Checking a value (a `default`) against an embedded schema at validate time. The schema is the
 * user's, so it cannot be precompiled like the manifest schema (./ajv.ts): an ajv instance per
 * dialect is built on first need, with the options the generated server's validator uses (strict
 * off, formats from ajv-formats checked), so "valid" here means what the server will accept.
 * Most values are decided by the quick check; ajv (a hundred modules) loads only when it cannot.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type { Ajv as AjvDraft07 } from 'ajv';
import { quickCheck } from '../../render/sample-check.js';

type Engine = Pick<Ajv2020, 'compile'>;
const engines = new Map<'2020-12' | 'draft-07', Engine>();
const require = createRequire(import.meta.url);

function engine(dialect: '2020-12' | 'draft-07'): Engine {
  let ajv = engines.get(dialect);
  if (!ajv) {
    const opts = { strict: false, allErrors: false, validateFormats: true, logger: false } as const;
    const { Ajv } = require('ajv') as { Ajv: typeof AjvDraft07 };
    const { Ajv2020: Ajv2020Class } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
    const addFormats = (require('ajv-formats') as { default: (ajv: Engine) => Engine }).default;
    ajv = dialect === 'draft-07' ? new Ajv(opts) : new Ajv2020Class(opts);
    addFormats(ajv);
    engines.set(dialect, ajv);
  }
  return ajv;
}

/** What checking a value found: valid, invalid (with ajv's first complaint), or undecidable. */
export type ValueCheck = { valid: true } | { valid: false; problem: string } | { valid: undefined };

/**
 * Checks `value` against `schema`, a subschema read on its own: one that holds a `$ref` is
 * undecidable here (its target lies outside it), and so is one ajv cannot compile.
 */
export function checkValue(schema: Record<string, unknown>, value: unknown, dialect: '2020-12' | 'draft-07'): ValueCheck {
  const quick = quickCheck(schema, value);
  if (quick === true) return { valid: true };
  if (quick === undefined && holdsRef(schema, 0)) return { valid: undefined };
  try {
    const { $schema: _s, $id: _i, $defs: _d, definitions: _e, ...rest } = schema;
    const validate = engine(dialect).compile(rest);
    if (validate(value)) return { valid: true };
    return { valid: false, problem: describe(validate.errors?.[0]) };
  } catch {
    return { valid: undefined };
  }
}

function describe(e: ErrorObject | undefined): string {
  if (!e) return 'rejected';
  return e.instancePath ? `${e.instancePath.slice(1).replace(/\//g, '.')} ${e.message ?? 'is invalid'}` : (e.message ?? 'rejected');
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
