/**
 * ajv as the generated server's validator sets it up (strict off, formats from ajv-formats checked,
 * no console output for an unknown format), one instance per dialect, for checking values against
 * a user's own schemas at generation time: "valid" here means what the server will accept. ajv (a
 * hundred modules) loads on first use only: most values are decided by a quick check before.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { Ajv as AjvDraft07 } from 'ajv';

export type Dialect = '2020-12' | 'draft-07';
export type ServerAjv = Pick<Ajv2020, 'compile' | 'validate'>;

const require = createRequire(import.meta.url);
const engines = new Map<string, ServerAjv>();

/** `oneShot`: each schema is compiled to check one value, so compiling fast is what counts (≈3×). */
export function serverAjv(dialect: Dialect, oneShot = false): ServerAjv {
  const key = `${dialect}${oneShot ? ' once' : ''}`;
  let ajv = engines.get(key);
  if (!ajv) {
    const opts = {
      strict: false,
      allErrors: false,
      validateFormats: true,
      logger: false,
      ...(oneShot ? { code: { optimize: false } } : {}),
    } as const;
    const { Ajv } = require('ajv') as { Ajv: typeof AjvDraft07 };
    const { Ajv2020: Ajv2020Class } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
    const addFormats = (require('ajv-formats') as { default: (ajv: ServerAjv) => ServerAjv }).default;
    ajv = dialect === 'draft-07' ? new Ajv(opts) : new Ajv2020Class(opts);
    addFormats(ajv);
    engines.set(key, ajv);
  }
  return ajv;
}
