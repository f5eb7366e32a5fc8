/**
 * View models of the user-owned stubs: created once when missing, never overwritten. Each one
 * compiles as is and answers "not implemented: edit <file>" until the user writes it.
 */
import type { PromptIR, ResourceIR, TemplateIR, ToolIR } from '../normalize/ir.js';
import { sampleOf } from './samples.js';
import { docComment } from './escape.js';
import { printPropertyKey, printString } from '../format/literal.js';
import { arrowConst, objectConst } from './stub-layout.js';

const file = (handlerPath: string) => `src/handlers/${handlerPath}.ts`;

/** The statement a stub answers with until the user writes it. */
const notImplemented = (handlerPath: string) => `throw new NotImplementedError(${printString(file(handlerPath))});`;

/** The two lines a read handler starts with, before it is written. */
const NOT_FOUND_HINT = [
  '// Nothing behind the URI? `throw notFound(uri)` (from @mcpgen/runtime): the client',
  '// gets "resource not found". An empty array is answered the same way, as a mistake.',
];

/** `export const complete: <type> = { <name>: async (value, context) => [], … };` */
function completeConst(type: string, names: readonly string[]): string {
  return objectConst(`export const complete: ${type}`, names.map((n) => ({ key: printPropertyKey(n), params: ['value', 'context'], expression: '[]' })));
}

function describe(kind: string, name: string, title: string | null, description: string | null, extra: string[]): string {
  const head = `${kind} \`${name}\`${title ? ` (${title})` : ''}${description ? `: ${description}` : '.'}`;
  return docComment([head, '', ...extra].join('\n'));
}

const CTX_DOC = [
  '`ctx` (HandlerContext, from @mcpgen/runtime): signal (cancellation), progress(done, total?, message?),',
  'log(level, data), authInfo, sessionId, clientCapabilities, notify.resourceUpdated(uri) / toolsChanged() …,',
  'and asking the client on every protocol era: `return ctx.ask({ inputRequests: { key: inputRequired.elicit({...}) } })`',
  '(also inputRequired.createMessage / listRoots), then ctx.accepted(key) / ctx.inputResponse(key)',
  'when the handler runs again; ctx.signState(payload) → requestState, read back with ctx.requestState().',
  "A request the client could not fulfil reads { kind: 'error', code, message } (-32601: roots not supported;",
  '-32602: elicited content not matching the schema, never given to accepted()): fall back there.',
  'Roots changing while connected (2025): onRootsChanged(({ sessionId, listRoots }) => …).',
  'Content blocks: content.text / image / audio / resourceLink / resource / blob. All from @mcpgen/runtime.',
].join('\n');

export function toolStub(t: ToolIR) {
  const extra = [
    t.inputType ? `\`input\` is a \`${t.inputType}\` (src/generated/types.ts), already validated against the tool's input schema.` : 'The tool takes no input.',
    t.outputType
      ? `Return a \`${t.outputType}\`: it is validated, then sent as structuredContent and as JSON text.`
      : 'Return a string (one text block) or content blocks; or toolResult({...}) for full control.',
    'Throw to answer with an error result (isError: true) carrying the message.',
    CTX_DOC,
  ];
  return {
    docBlock: describe('Tool', t.name, t.title, t.description, extra),
    handler: arrowConst(`export const handler: ToolHandlers[${printString(t.name)}]`, ['input', 'ctx'], { block: [notImplemented(t.handlerPath)] }),
  };
}

export function resourceStub(r: ResourceIR) {
  const extra = [
    `Return the contents of ${r.uri} as a string${r.mimeType ? ` (sent as ${r.mimeType})` : ''}, as bytes (sent as a base64 blob), or as a list of contents.`,
    CTX_DOC,
  ];
  return {
    docBlock: describe('Resource', r.name, r.title, r.description, extra),
    read: arrowConst(`export const read: ResourceHandlers[${printString(r.name)}]`, ['uri', 'ctx'], { block: [...NOT_FOUND_HINT, notImplemented(r.handlerPath!)] }),
  };
}

export function templateStub(t: TemplateIR) {
  const key = printString(t.name);
  const completers = t.vars.filter((v) => v.completion?.kind === 'handler').map((v) => v.name);
  const extra = [
    `URI template: ${t.uriTemplate}. \`params\` is a \`${t.paramsType}\`: the URI's variables, decoded and validated.`,
    'Return the contents as a string, as bytes, or as a list of contents.',
    ...pathDoc(t),
    CTX_DOC,
  ];
  return {
    docBlock: describe('Resource template', t.name, t.title, t.description, extra),
    read: arrowConst(`export const read: TemplateHandlers[${key}]['read']`, ['params', 'uri', 'ctx'], { block: [...NOT_FOUND_HINT, notImplemented(t.handlerPath)] }),
    list: t.hasList ? arrowConst(`export const list: TemplateHandlers[${key}]['list']`, ['ctx'], { expression: '[]' }) : null,
    complete: completers.length ? completeConst(`TemplateHandlers[${key}]['complete']`, completers) : null,
  };
}

/** One line for templates whose variables carry `/`: where to turn them into file paths safely. */
function pathDoc(t: TemplateIR): string[] {
  const v = t.vars.find((candidate) => candidate.carriesPath);
  if (!v) return [];
  const access = /^[A-Za-z_$][\w$]*$/.test(v.name) ? `params.${v.name}` : `params[${JSON.stringify(v.name)}]`;
  return [`For files, \`safeJoin(root, ${access}, uri)\` from @mcpgen/runtime keeps \`${v.name}\` under \`root\` (a lexical check: symlinks are not followed).`];
}

export function promptStub(p: PromptIR) {
  const key = printString(p.name);
  const completers = p.args.filter((a) => a.completion?.kind === 'handler').map((a) => a.name);
  const extra = [
    p.messages === null
      ? `Return the prompt's messages, or a string for one user text message.${p.argsType ? ` \`args\` is a \`${p.argsType}\`.` : ''}`
      : 'The messages come from the manifest; this file only completes arguments.',
    CTX_DOC,
  ];
  return {
    docBlock: describe('Prompt', p.name, p.title, p.description, extra),
    get: p.messages === null ? arrowConst(`export const get: PromptHandlers[${key}]['get']`, ['args', 'ctx'], { block: [notImplemented(p.handlerPath!)] }) : null,
    complete: completers.length ? completeConst(`PromptHandlers[${key}]['complete']`, completers) : null,
  };
}

export function toolTestStub(t: ToolIR) {
  return {
    title: printString(`${t.name} handler`),
    handlerModule: printString(`../../../src/handlers/${t.handlerPath}.js`),
    sample: t.inputSchema ? (sampleOf(t.inputSchema, 0) ?? {}) : {},
  };
}
