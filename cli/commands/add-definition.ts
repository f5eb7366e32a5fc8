/**
 * The flags of `mcpgen add tool|resource|template|prompt` as the entry's keys in the manifest, in
 * the order docs/manifest-reference.md lists them. Only what a flag says is written: the rest is
 * the manifest's to edit.
 */
import { parseUriTemplate } from '../manifest/uri-template.js';
import { UsageError } from '../diagnostics.js';
import type { RenameKind } from '../rename/kinds.js';

export interface EntryFlags {
  title?: string;
  description?: string;
  /** tool: `name[?][:type[:description]]` per input property. */
  input?: string[];
  /** tool: annotations.readOnlyHint. */
  readOnly?: boolean;
  /** resource. */
  uri?: string;
  /** template. */
  uriTemplate?: string;
  /** resource, template. */
  mimeType?: string;
  /** resource: its static content; prompt: its one user message. */
  text?: string;
  /** prompt: `name[?][:description]` per argument. */
  argument?: string[];
}

/** What `mcpgen add` adds: the kind, its arguments as usage shows them. */
export const ADD_KINDS = [
  'tool <name>',
  'resource <name> --uri <uri>',
  'template <name> --uri-template <template>',
  'prompt <name>',
  'view <tool>',
] as const;

/** `mcpgen add` without a kind it knows: the kinds, as a usage error. */
export function addKindUsage(given: string | undefined): UsageError {
  const what = given === undefined ? 'add needs what to add' : `add has no kind \`${given}\``;
  return new UsageError(
    `${what}; one of: ${ADD_KINDS.map((k) => `mcpgen add ${k}`).join(', ')} (mcpgen add <kind> --help shows its options)`,
  );
}

/** The JSON Schema types `--input` takes; a richer schema is written in the manifest. */
export const INPUT_TYPES = ['string', 'number', 'integer', 'boolean'] as const;

export function entryDefinition(kind: RenameKind, f: EntryFlags): Record<string, unknown> {
  const named = {
    ...(f.title !== undefined && { title: f.title }),
    ...(f.description !== undefined && { description: f.description }),
  };
  switch (kind) {
    case 'tool':
      return {
        ...named,
        ...(f.input?.length && { input: inputSchema(f.input) }),
        ...(f.readOnly && { annotations: { readOnlyHint: true } }),
      };
    case 'resource':
      if (f.uri === undefined)
        throw new UsageError('add resource needs --uri <uri>, the URI clients read it by (e.g. --uri notes://readme)');
      return {
        uri: f.uri,
        ...named,
        ...(f.mimeType !== undefined && { mimeType: f.mimeType }),
        ...(f.text !== undefined && { text: f.text }),
      };
    case 'template':
      if (f.uriTemplate === undefined)
        throw new UsageError(
          "add template needs --uri-template <template>, an RFC 6570 URI template (e.g. --uri-template 'notes://{id}')",
        );
      return {
        uriTemplate: f.uriTemplate,
        ...named,
        ...(f.mimeType !== undefined && { mimeType: f.mimeType }),
        ...templateParams(f.uriTemplate),
      };
    case 'prompt':
      return {
        ...named,
        ...(f.argument?.length && { arguments: promptArguments(f.argument) }),
        ...(f.text !== undefined && { messages: [{ role: 'user', text: f.text }] }),
      };
  }
}

/** A string schema per variable of the template (the handler's params are typed from them), to edit in the manifest. */
function templateParams(template: string): { params?: Record<string, { type: 'string' }> } {
  const parsed = parseUriTemplate(template);
  if (parsed.errors.length || !parsed.variables.length) return {}; // validation names what is wrong
  return { params: Object.fromEntries(parsed.variables.map((v) => [v.name, { type: 'string' as const }])) };
}

/** `--input city:string:The city --input 'days?:integer'` as an object schema: required unless marked `?`. */
function inputSchema(specs: readonly string[]): Record<string, unknown> {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const spec of specs) {
    const [head = '', type = '', ...rest] = spec.split(':');
    const { name, optional } = nameOf(head, '--input', spec);
    const t = type.trim() || 'string';
    if (!(INPUT_TYPES as readonly string[]).includes(t))
      throw new UsageError(
        `--input ${spec}: type \`${t}\` is not one of ${INPUT_TYPES.join(', ')}; write other schemas in the manifest's input:`,
      );
    if (Object.hasOwn(properties, name)) throw new UsageError(`--input ${name} is given twice`);
    const description = rest.join(':').trim();
    properties[name] = { type: t, ...(description && { description }) };
    if (!optional) required.push(name);
  }
  return { type: 'object', properties, ...(required.length && { required }) };
}

/** `--argument topic:What to write about --argument 'tone?'`: required unless marked `?`. */
function promptArguments(specs: readonly string[]): Record<string, Record<string, unknown>> {
  const args: Record<string, Record<string, unknown>> = {};
  for (const spec of specs) {
    const colon = spec.indexOf(':');
    const { name, optional } = nameOf(colon < 0 ? spec : spec.slice(0, colon), '--argument', spec);
    if (Object.hasOwn(args, name)) throw new UsageError(`--argument ${name} is given twice`);
    const description = colon < 0 ? '' : spec.slice(colon + 1).trim();
    args[name] = { ...(description && { description }), ...(!optional && { required: true }) };
  }
  return args;
}

function nameOf(head: string, flag: string, spec: string): { name: string; optional: boolean } {
  const optional = head.trimEnd().endsWith('?');
  const name = (optional ? head.trimEnd().slice(0, -1) : head).trim();
  if (name === '') throw new UsageError(`${flag} ${JSON.stringify(spec)}: no name; write it as name[?][:…]`);
  return { name, optional };
}
