import type { ErrorObject } from 'ajv/dist/2020.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, valueAt, type JsonPath } from '../../manifest/json-path.js';
import { describeType, describeValue, keyName, literal, orList, quote, subject } from '../describe.js';
import { didYouMean } from '../suggest.js';

/** One problem found by the schema, before it is given a file position. */
export interface Issue {
  /** Instance path (relative to the validated value). */
  path: JsonPath;
  code: string;
  message: string;
  /** Point at the key of `path` rather than its value. */
  key?: boolean;
  hint?: string;
}

/** What each pattern of schemas/manifest.v1.json means, in words (test/manifest-schema.test.ts keeps this complete). */
export const PATTERN_WORDS: Record<string, string> = {
  '^(?:@[a-z0-9-~][a-z0-9-._~]*/)?[a-z0-9-~][a-z0-9-._~]*$':
    'an npm package name (lowercase letters, digits, `-`, `.`, `_`, `~`; optionally `@scope/name`)',
  '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$':
    'a semantic version like 1.0.0 (MAJOR.MINOR.PATCH)',
  '^(?:any|[1-9][0-9]*x[1-9][0-9]*)$': 'WIDTHxHEIGHT (e.g. 48x48) or `any`',
  '^/': 'a path starting with `/`',
  '^[0-9a-f]{8,64}$': 'a hex digest (8-64 of 0-9, a-f)',
  '^[\\u0021\\u0023-\\u005B\\u005D-\\u007E]+$': 'an OAuth scope (printable ASCII without spaces, `"` or `\\`)',
  '^[A-Za-z_][A-Za-z0-9_]*$': 'a letter or `_`, then letters, digits or `_`',
  '^[A-Za-z0-9_.-]{1,128}$': '1-128 letters, digits, `_`, `-` or `.`',
  '^[A-Za-z][A-Za-z0-9_-]{0,63}$': 'a letter, then up to 63 letters, digits, `_` or `-`',
  '^[^\\u0000-\\u001f\\u007f]+$': 'non-empty text without control characters (tabs, line breaks)',
  '^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$':
    'letters, digits, `_` and single dots (an RFC 6570 variable name)',
  '^(?:[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$':
    '`name` or `prefix/name` with a dot-separated prefix (e.g. `com.example/owner`); names start and end with a letter or digit',
};

const FORMAT_WORDS: Record<string, string> = {
  uri: 'an absolute URI (e.g. https://example.com/icon.png)',
  'date-time': 'an ISO 8601 date-time (e.g. 2025-01-12T15:00:58Z)',
};

/** What kind of name the keys of the mapping at `path` are. */
function nameKind(path: JsonPath): string {
  const last = path[path.length - 1];
  switch (last) {
    case 'tools':
      return 'tool name';
    case 'resources':
      return 'resource name';
    case 'resourceTemplates':
      return 'resource template name';
    case 'prompts':
      return 'prompt name';
    case 'schemas':
      return 'schema name';
    case 'apis':
      return 'API name';
    case 'arguments':
      return 'argument name';
    case 'params':
    case 'complete':
      return 'template variable';
    case 'meta':
      return '`meta` key';
    default:
      return 'key';
  }
}

/** Plain-language issue for one ajv error (unions are resolved before this). */
export function issueFor(
  e: ErrorObject,
  path: JsonPath,
  data: unknown,
  raw: (path: JsonPath) => string | undefined = () => undefined,
): Issue | undefined {
  const value = valueAt(data, path);
  const got = (): string => describeValue(value, raw(path));
  const name = keyName(path);
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'propertyNames':
      return undefined; // the inner error (with e.propertyName) says which name and why
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const allowed =
        isRecord(e.parentSchema) && isRecord(e.parentSchema.properties) ? Object.keys(e.parentSchema.properties) : [];
      const dym = didYouMean(key, allowed);
      return {
        path: [...path, key],
        key: true,
        code: Codes.UNKNOWN_KEY,
        message: `unknown key \`${key}\` in ${subject(path)}${dym}`,
        ...(dym || allowed.length === 0 ? {} : { hint: `allowed keys: ${allowed.join(', ')}` }),
      };
    }
    case 'required':
      return {
        path,
        key: true,
        code: Codes.MISSING_KEY,
        message: `${subject(path)} is missing required key \`${String(p.missingProperty)}\``,
      };
    case 'type': {
      const hint =
        typeof value === 'number' || typeof value === 'boolean'
          ? quoteHint(p.type, path, value, raw(path))
          : p.type === 'boolean' && typeof value === 'string'
            ? booleanHint(value)
            : undefined;
      return {
        path,
        code: Codes.WRONG_TYPE,
        message: `${name}: expected ${describeType(p.type as string)}, got ${got()}`,
        ...(hint ? { hint } : {}),
      };
    }
    case 'const':
      return {
        path,
        code: Codes.NOT_ALLOWED_VALUE,
        message: `${name} must be ${literal(p.allowedValue)}, got ${got()}`,
      };
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]) ?? [];
      const dym =
        typeof value === 'string'
          ? didYouMean(
              value,
              allowed.filter((a): a is string => typeof a === 'string'),
            )
          : '';
      return {
        path,
        code: Codes.NOT_ALLOWED_VALUE,
        message: `${name}: expected ${orList(allowed.map(literal))}, got ${got()}${dym}`,
      };
    }
    case 'pattern':
      return patternIssue(e, path, value, String(p.pattern));
    case 'format': {
      const words = FORMAT_WORDS[String(p.format)] ?? `a valid ${String(p.format)}`;
      return { path, code: Codes.BAD_STRING, message: `${name}: ${quote(String(value))} is not ${words}` };
    }
    case 'minLength':
      return {
        path,
        code: Codes.BAD_STRING,
        message:
          p.limit === 1 ? `${name} must not be empty` : `${name} must be at least ${String(p.limit)} characters long`,
      };
    case 'maxLength':
      return { path, code: Codes.BAD_STRING, message: `${name} is too long: at most ${String(p.limit)} characters` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum': {
      const words = {
        minimum: 'at least',
        maximum: 'at most',
        exclusiveMinimum: 'more than',
        exclusiveMaximum: 'less than',
      }[e.keyword];
      return {
        path,
        code: Codes.OUT_OF_RANGE,
        message: `${name} must be ${words} ${String(p.limit)}, got ${String(value)}`,
      };
    }
    case 'minItems':
      return {
        path,
        code: Codes.BAD_LIST,
        message:
          p.limit === 1 ? `${name} must not be an empty list` : `${name} needs at least ${String(p.limit)} items`,
        ...(path[path.length - 1] === 'messages'
          ? { hint: 'list at least one message, or remove `messages` to write a get handler instead' }
          : {}),
      };
    case 'uniqueItems': {
      const j = Number(p.j);
      const item = Array.isArray(value) ? value[j] : undefined;
      return {
        path: [...path, j],
        code: Codes.BAD_LIST,
        message: `${name} lists ${typeof item === 'string' ? quote(item) : JSON.stringify(item)} twice`,
      };
    }
    default:
      return { path, code: Codes.SCHEMA_OTHER, message: `${name} ${e.message ?? 'is invalid'}` };
  }
}

function patternIssue(e: ErrorObject, path: JsonPath, value: unknown, pattern: string): Issue {
  const words = PATTERN_WORDS[pattern] ?? `a match for the pattern ${pattern}`;
  if (e.propertyName !== undefined) {
    const key = e.propertyName;
    return {
      path: [...path, key],
      key: true,
      code: Codes.BAD_NAME,
      message: `invalid ${nameKind(path)} ${quote(key)}: expected ${words}`,
    };
  }
  const text = String(value);
  let hint: string | undefined;
  if (pattern.startsWith('^(?:@[a-z0-9-~]')) {
    // Accents dropped first (`météo` → `meteo`), then anything else that cannot be in a package name.
    const fixed = text
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9-._~@/]+/g, '-');
    if (fixed !== text) hint = `try \`${fixed}\``;
  } else if (pattern.startsWith('^(0|[1-9]') && /^\d+(\.\d+)?$/.test(text)) {
    hint = `try \`${text.includes('.') ? `${text}.0` : `${text}.0.0`}\``;
  }
  return {
    path,
    code: Codes.BAD_STRING,
    message: `${keyName(path)}: ${quote(text)} is not ${words}`,
    ...(hint ? { hint } : {}),
  };
}

/** YAML reads `1.0`, `true`, `0.1` as numbers and booleans; quoting is the fix when a string was meant. */
function quoteHint(
  expected: unknown,
  path: JsonPath,
  value: number | boolean,
  raw: string | undefined,
): string | undefined {
  if (expected !== 'string') return undefined;
  const written = raw?.trim() || String(value);
  const last = path[path.length - 1];
  if (last === 'version' && typeof value === 'number') {
    const semver = /^\d+\.\d+$/.test(written) ? `${written}.0` : /^\d+$/.test(written) ? `${written}.0.0` : written;
    return `quote it, e.g. version: "${semver}"; YAML reads ${written} as a number`;
  }
  return `quote it: YAML reads ${written} as a ${typeof value === 'number' ? 'number' : 'boolean'}`;
}

/** YAML 1.1 booleans (yes/no/on/off) are plain strings in YAML 1.2, which manifests use. */
function booleanHint(value: string): string | undefined {
  const v = value.trim().toLowerCase();
  if (['yes', 'y', 'on', 'true'].includes(v)) return `write true: YAML 1.2 reads ${value} as text`;
  if (['no', 'n', 'off', 'false'].includes(v)) return `write false: YAML 1.2 reads ${value} as text`;
  return undefined;
}
