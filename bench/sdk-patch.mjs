// What only the SDK can do (issue 38, point 6; docs/sdk-proposal.md): a copy of the generated
// one-tool bench server that loads a patched copy of `@modelcontextprotocol/server` 2.4, for the
// bench only (never shipped). Each patch is a string replacement checked to apply once.
//   node bench/sdk-patch.mjs            writes .tmp/bench/sdk-<variant>/gen-1 for each variant
//   node bench/floor.mjs --only http --target trusted=.tmp/bench/sdk-trusted/gen-1/dist/src/main.js ...
// Variants:
//   trusted    the SDK trusts the messages it built: JSON-RPC type guards check the shape (the
//              inbound message was schema-checked once on arrival), a tool's result is not parsed
//              again by the wire schema, and closing an idle exchange builds no error (stack) for
//              nothing to reject
//   long-lived trusted, and a stateless 2026-07-28 request is served by an instance kept from an
//              earlier request to the same method and name (an upper bound of a long-lived
//              instance: instances here are reused one request at a time, without the isolation
//              of per-request state an SDK design would add)
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sdk = path.join(repo, 'node_modules/@modelcontextprotocol/server');
const project = path.join(repo, '.tmp/bench/servers/gen-1');
if (!existsSync(path.join(project, 'dist/src/main.js')))
  throw new Error(`build ${project} first (bench/floor.mjs --build)`);

const guards = `const isRpc = (v) => typeof v === "object" && v !== null && v.jsonrpc === "2.0";
const isId = (id) => typeof id === "string" || typeof id === "number";
const isJSONRPCRequest = (value) => isRpc(value) && typeof value.method === "string" && isId(value.id);
const isJSONRPCNotification = (value) => isRpc(value) && typeof value.method === "string" && !("id" in value);
const isJSONRPCResultResponse = (value) => isRpc(value) && isId(value.id) && typeof value.result === "object" && value.result !== null;
const isJSONRPCErrorResponse = (value) => isRpc(value) && "error" in value && typeof value.error?.code === "number";`;

const TRUSTED = [
  [
    'src-DdvbAHrR.mjs',
    'const isJSONRPCRequest = (value) => JSONRPCRequestSchema.safeParse(value).success;\nconst isJSONRPCNotification = (value) => JSONRPCNotificationSchema.safeParse(value).success;',
    guards.split('\n').slice(0, 4).join('\n'),
  ],
  [
    'src-DdvbAHrR.mjs',
    'const isJSONRPCResultResponse = (value) => JSONRPCResultResponseSchema.safeParse(value).success;',
    guards.split('\n')[4],
  ],
  [
    'src-DdvbAHrR.mjs',
    'const isJSONRPCErrorResponse = (value) => JSONRPCErrorResponseSchema.safeParse(value).success;',
    guards.split('\n')[5],
  ],
  [
    'src-DdvbAHrR.mjs',
    'const isJSONRPCResponse = (value) => JSONRPCResponseSchema.safeParse(value).success;',
    'const isJSONRPCResponse = (value) => isJSONRPCResultResponse(value) || isJSONRPCErrorResponse(value);',
  ],
  [
    'src-DdvbAHrR.mjs',
    'const error = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");\n\t\tthis._transport = void 0;',
    'const error = responseHandlers.size + requestHandlerAbortControllers.size > 0 ? new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed") : void 0;\n\t\tthis._transport = void 0;',
  ],
  [
    'mcp-oHn3ureC.mjs',
    'const validationResult = codec.validateResult("tools/call", normalizedResult);',
    'const validationResult = { ok: true, value: normalizedResult };',
  ],
];

const LONG_LIVED = [
  ...TRUSTED,
  [
    'index.mjs',
    '\t\tconst product = await factory({\n\t\t\tera: "modern",\n\t\t\t...authInfo !== void 0 && { authInfo },\n\t\t\trequestInfo: request\n\t\t});',
    '\t\tconst poolKey = `${request.headers.get("mcp-method")}\\0${request.headers.get("mcp-name") ?? ""}`;\n\t\tconst product = idle.get(poolKey)?.pop() ?? await factory({\n\t\t\tera: "modern",\n\t\t\t...authInfo !== void 0 && { authInfo },\n\t\t\trequestInfo: request\n\t\t});',
  ],
  [
    'index.mjs',
    '\t\tconst onExchangeClose = () => {\n\t\t\tinflight.delete(server);',
    '\t\tconst onExchangeClose = () => {\n\t\t\tinflight.delete(server);\n\t\t\tif (!closed) (idle.get(poolKey) ?? idle.set(poolKey, []).get(poolKey)).push(product);',
  ],
  [
    'index.mjs',
    '\tconst inflight = /* @__PURE__ */ new Set();\n\tlet closed = false;',
    '\tconst inflight = /* @__PURE__ */ new Set();\n\tconst idle = /* @__PURE__ */ new Map();\n\tlet closed = false;',
  ],
];

for (const [variant, patches] of [
  ['trusted', TRUSTED],
  ['long-lived', LONG_LIVED],
]) {
  const root = path.join(repo, '.tmp/bench', `sdk-${variant}`, 'gen-1');
  rmSync(root, { recursive: true, force: true });
  mkdirSync(path.dirname(root), { recursive: true });
  cpSync(project, root, { recursive: true });
  const modules = path.join(root, 'node_modules');
  // The runtime beside the project, so that its SDK import resolves to the patched copy too.
  cpSync(path.join(repo, 'packages/runtime/package.json'), path.join(modules, '@mcpgen/runtime/package.json'));
  cpSync(path.join(repo, 'packages/runtime/dist'), path.join(modules, '@mcpgen/runtime/dist'), { recursive: true });
  const copy = path.join(modules, '@modelcontextprotocol/server');
  cpSync(sdk, copy, { recursive: true, dereference: true });
  for (const [file, from, to] of patches) {
    const at = path.join(copy, 'dist', file);
    const text = readFileSync(at, 'utf8');
    const count = text.split(from).length - 1;
    if (count !== 1) throw new Error(`${variant}: ${file}: the patch's text occurs ${count} times:\n${from}`);
    writeFileSync(at, text.replace(from, to));
  }
  // The server is bundled (mcpgen build): built again, so the bundle holds the patched SDK.
  const built = spawnSync(process.execPath, [path.join(repo, 'bin/mcpgen.js'), 'build'], {
    cwd: root,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`${variant}: mcpgen build failed:\n${built.stdout}${built.stderr}`);
  console.log(`${variant}: ${path.relative(repo, path.join(root, 'dist/src/main.js'))}`);
}
