import type { JsonPath } from '../manifest/json-path.js';

/** Plain-language words for values, types and places in the manifest, shared by all messages. */

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'nothing (null)',
};

export function describeType(type: string | readonly string[]): string {
  return orList(typeWords(typeof type === 'string' ? [type] : type));
}

/** Words for JSON types; `boolean` is "true/false" when listed with others ("a mapping or true/false"). */
export function typeWords(types: readonly string[], alone = types.length === 1): string[] {
  return types.map((t) => (t === 'boolean' && !alone ? 'true/false' : (TYPE_WORDS[t] ?? t)));
}

/**
 * What a value is, for "got …": short, with the value itself when it is a scalar. `raw` is the
 * value as written, so `version: 1.0` reads "got the number 1.0", not "1".
 */
export function describeValue(v: unknown, raw?: string): string {
  if ((typeof v === 'number' || typeof v === 'boolean') && raw !== undefined && raw.trim() !== '') {
    return typeof v === 'number' ? `the number ${raw.trim()}` : `\`${raw.trim()}\``;
  }
  if (v === null || v === undefined) return 'nothing (an empty value)';
  if (Array.isArray(v)) return 'a list';
  switch (typeof v) {
    case 'string':
      return `the string ${quote(v)}`;
    case 'number':
      return `the number ${v}`;
    case 'boolean':
      return `\`${v}\``;
    case 'object':
      return 'a mapping';
    default:
      return typeof v;
  }
}

/** JSON-quoted, shortened: values can be whole paragraphs. */
export function quote(s: string, max = 40): string {
  const q = JSON.stringify(s);
  return q.length > max ? `${q.slice(0, max - 2)}…"` : q;
}

/** A literal value as written in YAML: `false`, `handler`, `1`. */
export function literal(v: unknown): string {
  return `\`${typeof v === 'string' ? v : JSON.stringify(v)}\``;
}

/** "a, b or c" */
export function orList(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

const ENTRY_KINDS: Record<string, string> = {
  tools: 'tool',
  resources: 'resource',
  resourceTemplates: 'resource template',
  prompts: 'prompt',
  schemas: 'schema',
};

/**
 * The thing at a path, for "<subject> is missing `x`": tool `get`, argument `code` of prompt `review`,
 * `image` of message 2 of prompt `review`, `transports.http`.
 */
export function subject(path: JsonPath): string {
  if (path.length === 0) return 'the manifest';
  const [top, name, sub, child] = path;
  if (typeof top === 'string' && ENTRY_KINDS[top] && typeof name === 'string') {
    let base = `${ENTRY_KINDS[top]} \`${name}\``;
    let rest = path.slice(2);
    if (top === 'prompts' && sub === 'arguments' && typeof child === 'string') {
      base = `argument \`${child}\` of ${base}`;
      rest = path.slice(4);
    } else if (top === 'prompts' && sub === 'messages' && typeof child === 'number') {
      base = `message ${child + 1} of ${base}`;
      rest = path.slice(4);
    }
    return rest.length === 0 ? base : `\`${dotted(rest)}\` of ${base}`;
  }
  return `\`${dotted(path)}\``;
}

/** The last key of a path, with the index for list items: `sizes[0]`. */
export function keyName(path: JsonPath): string {
  const last = path[path.length - 1];
  if (last === undefined) return 'the manifest';
  if (typeof last === 'number') {
    const parent = path[path.length - 2];
    return `\`${parent === undefined ? '' : String(parent)}[${last}]\``;
  }
  return `\`${last}\``;
}

/** `tools.get.input.properties.city`, with [i] for list items. */
export function dotted(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** Which entry (tool/resource/template/prompt name) a path is inside, for Diagnostic.entry. */
export function entryOf(path: JsonPath): string | undefined {
  const [top, name] = path;
  return (top === 'tools' || top === 'resources' || top === 'resourceTemplates' || top === 'prompts') &&
    typeof name === 'string'
    ? name
    : undefined;
}
