import type { ErrorObject } from 'ajv/dist/2020.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { LoadedManifest } from '../../load/types.js';
import { Codes } from '../../manifest/codes.js';
import { isRecord, valueAt, type JsonPath } from '../../manifest/json-path.js';
import { describeValue, keyName, literal, orList, subject, typeWords } from '../describe.js';
import { diagAt, rawText } from '../diagnostic.js';
import { didYouMean } from '../suggest.js';
import { issueFor, type Issue } from './messages.js';

export interface TranslateOptions {
  /** The value that was validated (instance paths are relative to it). */
  data: unknown;
  /** Where that value sits in the manifest. */
  base: JsonPath;
  /** Errors of an embedded schema against the JSON Schema meta-schema: one code, a prefix saying so. */
  embedded?: boolean;
}

type Item = { e: ErrorObject; path: JsonPath } | { issue: Issue; path: JsonPath };

/**
 * Turn ajv errors into diagnostics at the YAML nodes they concern. With allErrors, ajv reports every
 * failing branch of an anyOf/oneOf; those are resolved to the one that matters (see resolveUnion).
 */
export function translateErrors(
  m: LoadedManifest,
  errors: readonly ErrorObject[],
  opts: TranslateOptions,
): Diagnostic[] {
  if (errors.length === 0) return []; // the usual case, once per embedded schema
  const raw = (p: JsonPath): string | undefined => rawText(m, [...opts.base, ...p]);
  const items = resolveUnions(dedupe(errors), opts.data, raw);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    const issue = 'issue' in it ? it.issue : issueFor(it.e, it.path, opts.data, raw);
    if (!issue) continue;
    const id = `${issue.code}|${JSON.stringify(issue.path)}|${issue.message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const code = opts.embedded ? Codes.INVALID_JSON_SCHEMA : issue.code;
    const message = opts.embedded ? `invalid JSON Schema: ${issue.message}` : issue.message;
    out.push(
      diagAt(m, [...opts.base, ...issue.path], code, message, {
        key: issue.key ?? false,
        ...(issue.hint ? { hint: issue.hint } : {}),
      }),
    );
  }
  return out;
}

/** The JSON Schema meta-schema repeats errors through its vocabularies' allOf; report each once. */
function dedupe(errors: readonly ErrorObject[]): ErrorObject[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    const id = `${e.instancePath}|${e.keyword}|${JSON.stringify(e.params)}|${e.propertyName ?? ''}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * ajv emits a union's branch errors right before the union error itself, so when one is met, the
 * errors just before it at or under its path are its branches' (or its siblings'); they are replaced
 * by what resolveUnion keeps. Inner unions come first and are already resolved when the outer one is met.
 */
function resolveUnions(
  errors: readonly ErrorObject[],
  data: unknown,
  raw: (p: JsonPath) => string | undefined,
): Item[] {
  const out: Item[] = [];
  for (const e of errors) {
    const path = instancePath(e.instancePath, data);
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') {
      out.push({ e, path });
      continue;
    }
    const group: Item[] = [];
    while (out.length > 0 && isUnder(out[out.length - 1]!.path, path)) group.unshift(out.pop()!);
    out.push(...resolveUnion(e, path, group, data, raw(path)));
  }
  return out;
}

function resolveUnion(u: ErrorObject, path: JsonPath, group: Item[], data: unknown, raw: string | undefined): Item[] {
  const value = valueAt(data, path);
  const branches = Array.isArray(u.schema) ? (u.schema as unknown[]) : [];
  // `oneOf: [{required: [a]}, {required: [b]}]` means "exactly one of the keys a, b".
  if (branches.length > 0 && branches.every(isRequiredOnly)) {
    const keys = branches.flatMap((b) => (b as { required: string[] }).required);
    const rest = group.filter(
      (it) =>
        !(
          'e' in it &&
          it.e.keyword === 'required' &&
          samePath(it.path, path) &&
          keys.includes(String(it.e.params.missingProperty))
        ),
    );
    if (!isRecord(value)) return rest;
    const present = keys.filter((k) => Object.hasOwn(value, k));
    const names = orList(keys.map((k) => `\`${k}\``));
    if (present.length === 0) {
      rest.push({
        path,
        issue: { path, key: true, code: Codes.MISSING_KEY, message: `${subject(path)} needs one of ${names}` },
      });
    } else if (present.length > 1) {
      const second: JsonPath = [...path, present[1]!];
      rest.push({
        path: second,
        issue: {
          path: second,
          key: true,
          code: Codes.EXCLUSIVE_KEYS,
          message: `${subject(path)} has both \`${present[0]}\` and \`${present[1]}\`: use exactly one of ${names}`,
        },
      });
    }
    return rest;
  }
  // Any other union: a branch whose kind of value matched (object vs false, list vs "handler")
  // leaves errors other than type/const/enum at the union's own path; report those. If no branch
  // matched, say what was expected instead of listing every branch's complaint.
  const isKindError = (it: Item): boolean =>
    'e' in it && samePath(it.path, path) && ['type', 'const', 'enum'].includes(it.e.keyword);
  const relevant = group.filter((it) => !isKindError(it));
  if (relevant.length > 0) return relevant;
  const kinds = group.filter(isKindError).map((it) => (it as { e: ErrorObject }).e);
  if (kinds.length === 0) {
    return [
      { path, issue: { path, code: Codes.SCHEMA_OTHER, message: `${keyName(path)} ${u.message ?? 'is invalid'}` } },
    ];
  }
  const types: string[] = [];
  const values: string[] = [];
  const words: string[] = [];
  for (const k of kinds) {
    if (k.keyword === 'type') types.push(...([] as string[]).concat(k.params.type as string | string[]));
    else if (k.keyword === 'const') {
      values.push(literal(k.params.allowedValue));
      if (typeof k.params.allowedValue === 'string') words.push(k.params.allowedValue);
    } else {
      const allowed = (k.params.allowedValues as unknown[]) ?? [];
      values.push(`one of ${allowed.map(literal).join(', ')}`);
      words.push(...allowed.filter((a): a is string => typeof a === 'string'));
    }
  }
  const expected = [...typeWords(types, types.length + values.length === 1), ...values];
  const dym = typeof value === 'string' ? didYouMean(value, words) : '';
  const code = kinds.some(
    (k) =>
      k.keyword !== 'type' &&
      typeof value === typeof (k.params.allowedValue ?? (k.params.allowedValues as unknown[] | undefined)?.[0]),
  )
    ? Codes.NOT_ALLOWED_VALUE
    : Codes.WRONG_TYPE;
  return [
    {
      path,
      issue: {
        path,
        code,
        message: `${keyName(path)}: expected ${orList(expected)}, got ${describeValue(value, raw)}${dym}`,
      },
    },
  ];
}

function isRequiredOnly(b: unknown): boolean {
  return isRecord(b) && Object.keys(b).length === 1 && Array.isArray(b.required);
}

/** JSON Pointer → path, with numbers for list indices (so messages can say `sizes[0]`). */
function instancePath(pointer: string, data: unknown): JsonPath {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let cur: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      out.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      out.push(seg);
      cur = isRecord(cur) ? cur[seg] : undefined;
    }
  }
  return out;
}

function isUnder(p: JsonPath, parent: JsonPath): boolean {
  return p.length >= parent.length && parent.every((s, i) => s === p[i]);
}

function samePath(a: JsonPath, b: JsonPath): boolean {
  return a.length === b.length && isUnder(a, b);
}
