/**
 * View models of the user-owned stubs: created once when missing, never overwritten. Each one
 * compiles as is and answers "not implemented: edit <file>" until the user writes it.
 */
import type { PromptIR, ResourceIR, TemplateIR, ToolIR } from '../normalize/ir.js';
import { docComment } from './escape.js';
/** The file a stub is: what its "not implemented" error names. */
const file = (handlerPath: string) => `src/handlers/${handlerPath}.ts`;

function describe(
  kind: string,
  name: string,
  title: string | null,
  description: string | null,
  extra: string[],
): string {
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
    t.inputType
      ? `\`input\` is a \`${t.inputType}\` (src/generated/types.ts), already validated against the tool's input schema.`
      : 'The tool takes no input.',
    t.outputType
      ? `Return a \`${t.outputType}\`: it is validated, then sent as structuredContent and as JSON text.`
      : 'Return a string (one text block) or content blocks; or toolResult({...}) for full control.',
    'Throw to answer with an error result (isError: true) carrying the message.',
    ...(t.http
      ? [
          `\`await ctx.http()\` makes the declared call (${t.http.method} ${t.http.path} on API \`${t.http.api}\`) with the`,
          "tool's input (or `ctx.http({ input })`, `ctx.http({ path, method, query, body })`) and resolves with the",
          'response whatever its status: { ok, status, contentType, data, headers }.',
        ]
      : []),
    CTX_DOC,
  ];
  return {
    docBlock: describe('Tool', t.name, t.title, t.description, extra),
    name: t.name,
    file: file(t.handlerPath!),
    // `http: { handler: true }`: the stub starts as the declared call, for the user to wrap.
    passThrough: t.http?.handler ? { output: t.outputType } : null,
  };
}

export function resourceStub(r: ResourceIR) {
  const extra = [
    `Return the contents of ${r.uri} as a string${r.mimeType ? ` (sent as ${r.mimeType})` : ''}, as bytes (sent as a base64 blob), or as a list of contents.`,
    CTX_DOC,
  ];
  return {
    docBlock: describe('Resource', r.name, r.title, r.description, extra),
    name: r.name,
    file: file(r.handlerPath!),
  };
}

export function templateStub(t: TemplateIR) {
  const completers = t.vars.filter((v) => v.completion?.kind === 'handler').map((v) => v.name);
  const extra = [
    `URI template: ${t.uriTemplate}. \`params\` is a \`${t.paramsType}\`: the URI's variables, decoded and validated.`,
    'Return the contents as a string, as bytes, or as a list of contents.',
    ...pathDoc(t),
    CTX_DOC,
  ];
  return {
    docBlock: describe('Resource template', t.name, t.title, t.description, extra),
    name: t.name,
    file: file(t.handlerPath),
    list: t.hasList,
    complete: completers.length ? completers : null,
  };
}

/** One line for templates whose variables carry `/`: where to turn them into file paths safely. */
function pathDoc(t: TemplateIR): string[] {
  const v = t.vars.find((candidate) => candidate.carriesPath);
  if (!v) return [];
  const access = /^[A-Za-z_$][\w$]*$/.test(v.name) ? `params.${v.name}` : `params[${JSON.stringify(v.name)}]`;
  return [
    `For files, \`safeJoin(root, ${access}, uri)\` from @mcpgen/runtime keeps \`${v.name}\` under \`root\` (a lexical check: symlinks are not followed).`,
  ];
}

export function promptStub(p: PromptIR) {
  const completers = p.args.filter((a) => a.completion?.kind === 'handler').map((a) => a.name);
  const extra = [
    p.messages === null
      ? `Return the prompt's messages, or a string for one user text message.${p.argsType ? ` \`args\` is a \`${p.argsType}\`.` : ''}`
      : 'The messages come from the manifest; this file only completes arguments.',
    CTX_DOC,
  ];
  return {
    docBlock: describe('Prompt', p.name, p.title, p.description, extra),
    name: p.name,
    file: file(p.handlerPath!),
    get: p.messages === null,
    complete: completers.length ? completers : null,
  };
}

export function toolTestStub(t: ToolIR) {
  return {
    name: t.name,
    title: `${t.name} handler`,
    handlerModule: `../../../src/handlers/${t.handlerPath!}.js`,
    sample: t.stubInput,
  };
}
