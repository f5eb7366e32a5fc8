/**
 * The project README (created once, then the user's): what the server offers, how to run, test,
 * install, connect clients, deploy over HTTP and regenerate. Every value here comes from the IR;
 * manifest text reaches the Markdown through `inlineCode` / `oneLine`, and client configurations are
 * JSON printed by JSON.stringify, so nothing in a name or description can break the document.
 */
import type { IR, LimitSpecIR } from '../normalize/ir.js';
import { binName, projectView } from './views.js';
import { printJson } from './literal.js';

/** Inline code that survives backticks in the text (CommonMark: a longer fence, padded). */
export function inlineCode(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** One line of literal prose: whitespace collapsed, Markdown's inline punctuation backslash-escaped (no emphasis, code, links or HTML). */
export function oneLine(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\`*_[\]<>~#|]/g, '\\$&');
}

// Client configuration snippets, as JSON files are written.
const json = (value: unknown) => printJson(value).trimEnd();

interface Entry {
  name: string;
  description: string;
}

function entries(list: { name: string; description: string | null; title: string | null }[]): Entry[] {
  return list.map((e) => {
    const text = e.description ?? e.title;
    return { name: inlineCode(e.name), description: text ? ` — ${oneLine(text)}` : '' };
  });
}

export function readmeView(ir: IR) {
  const bin = binName(ir.server.packageName);
  const http = ir.transports.http;
  const hasStdio = ir.transports.stdio;
  const url = http ? `http://${http.host.includes(':') ? `[${http.host}]` : http.host}:${http.port}${http.path}` : '';
  const mainPath = `/absolute/path/to/${bin}/dist/src/main.js`;
  const stdioByName = { command: bin };
  const stdioByPath = { command: 'node', args: [mainPath] };
  const env: { name: string; what: string }[] = [];
  // What `apis` read at start: a missing one stops the server.
  for (const a of ir.apis) {
    const api = inlineCode(a.name);
    env.push({
      name: a.baseUrl.env,
      what: `base URL of API ${api}${a.baseUrl.default === null ? ' (required)' : ` (default ${inlineCode(a.baseUrl.default)})`}`,
    });
    const auth = a.auth;
    if (auth?.type === 'basic') {
      env.push({ name: auth.usernameEnv, what: `user name for API ${api} (required)` });
      env.push({ name: auth.passwordEnv, what: `password for API ${api} (required)` });
    } else if (auth)
      env.push({
        name: auth.env,
        what: `${auth.type === 'bearer' ? 'bearer token' : 'API key'} for API ${api} (required)`,
      });
  }
  if (http?.bearer)
    env.push({
      name: http.bearer.tokensEnv,
      what: 'the bearer tokens clients must send, comma-separated (`clientId:token` or a bare token); the server does not start without it',
    });
  if (http?.oauth) {
    const o = http.oauth;
    env.push({
      name: 'MCP_OAUTH_ISSUER',
      what: `issuer URL of the authorization server${o.issuer ? ` (manifest: ${inlineCode(o.issuer)})` : ' (required: the manifest names none)'}`,
    });
    env.push({
      name: 'MCP_OAUTH_RESOURCE',
      what: "this server's public URL, the resource tokens are issued for (behind a proxy: the URL clients use)",
    });
    env.push({ name: 'MCP_OAUTH_AUDIENCE', what: 'accepted token audiences, comma-separated (default: the resource)' });
    env.push({
      name: 'MCP_OAUTH_JWKS_URI',
      what: 'where the issuer publishes its signing keys (default: from its metadata)',
    });
    if (o.introspection) {
      env.push({
        name: 'MCP_OAUTH_INTROSPECTION_ENDPOINT',
        what: "token introspection endpoint (default: from the issuer's metadata)",
      });
      env.push({
        name: o.introspection.clientIdEnv,
        what: 'client id this server authenticates to the introspection endpoint with',
      });
      env.push({ name: o.introspection.clientSecretEnv, what: 'its client secret' });
    }
  }
  env.push({
    name: 'MCP_REQUEST_STATE_KEY',
    what: 'at least 32 bytes, the same on every replica: signs the `requestState` of multi-round requests (required when `NODE_ENV=production`)',
  });
  env.push({
    name: 'NODE_ENV',
    what: '`production` makes a missing `MCP_REQUEST_STATE_KEY` an error instead of a per-process development key',
  });
  env.push({
    name: 'REDIS_URL',
    what:
      'replicas: the Redis every replica shares (2025 sessions, notifications, resumable streams' +
      (ir.tools.some((t) => t.execution.taskSupport !== 'forbidden') ? ', tasks' : '') +
      '); unset, everything stays in one process',
  });
  if (ir.tools.some((t) => t.execution.taskSupport !== 'forbidden'))
    env.push({
      name: 'MCP_MAX_TASKS',
      what: 'tasks kept at once (default 10000; with `REDIS_URL`, across all replicas)',
    });
  env.push({
    name: 'MCP_REDIS_PREFIX',
    what: `with \`REDIS_URL\`: prefix of every key and channel (default \`mcp:${ir.server.name}:\`)`,
  });
  env.push({ name: 'MCP_SESSION_TTL', what: 'with `REDIS_URL`: seconds an idle 2025 session lives (default 3600)' });
  const { containerPort, imageName } = projectView(ir);
  // Views (MCP Apps): where each one's HTML comes from, as the user edits it.
  const views = ir.resources
    .filter((r) => r.view !== null)
    .map((r) => {
      const c = r.content;
      const from =
        c.kind === 'built'
          ? `built from ${inlineCode(c.folder)} by \`npm run build\` (mcpgen build) into ${inlineCode(`dist/src/views/${c.output}`)}; \`npm run dev\` rebuilds it on save`
          : r.sourceFile !== null
            ? `from ${inlineCode(r.sourceFile)}, embedded by \`mcpgen generate\``
            : c.kind === 'handler'
              ? `returned by its handler in ${inlineCode(`src/handlers/${r.handlerPath}.ts`)}`
              : 'inline in the manifest';
      return { name: inlineCode(r.name), uri: inlineCode(r.uri), from };
    });
  return {
    views,
    containerPort,
    imageName,
    title: oneLine(ir.server.title ?? ir.server.name),
    description: ir.server.description ? oneLine(ir.server.description) : null,
    bin,
    binCode: inlineCode(bin),
    packageName: ir.server.packageName,
    // The file `npm pack` writes: @scope/name → scope-name-<version>.tgz.
    tarball: `${ir.server.packageName.replace(/^@/, '').replace('/', '-')}-${ir.server.version}.tgz`,
    hasStdio,
    http: http ? { url, host: http.host, port: http.port, hasAllowedHosts: http.allowedHosts.length > 0 } : null,
    startHttp: hasStdio ? 'npm run start:http' : 'npm start',
    tools: entries(ir.tools),
    resources: entries(ir.resources),
    templates: entries(ir.templates),
    prompts: entries(ir.prompts),
    env,
    limits: limitLines(ir),
    // A served process is where traces matter most: over HTTP when the manifest has it.
    startCommand: http ? 'node dist/src/main.js --http' : 'node dist/src/main.js',
    generateCommand:
      ir.manifestPath === 'mcpgen.yaml'
        ? 'npx mcpgen generate'
        : `npx mcpgen generate -f ${JSON.stringify(ir.manifestPath)}`,
    watchCommand:
      ir.manifestPath === 'mcpgen.yaml' ? 'npx mcpgen watch' : `npx mcpgen watch -f ${JSON.stringify(ir.manifestPath)}`,
    manifestPath: inlineCode(ir.manifestPath),
    claudeDesktop: json({ mcpServers: { [bin]: stdioByName } }),
    claudeDesktopPath: json({ mcpServers: { [bin]: stdioByPath } }),
    claudeCodeName: `claude mcp add ${bin} -- ${bin}`,
    claudeCodePath: `claude mcp add ${bin} -- node ${mainPath}`,
    claudeCodeHttp: `claude mcp add --transport http ${bin} ${url}`,
    cursor: json({ mcpServers: { [bin]: stdioByName } }),
    cursorHttp: json({ mcpServers: { [bin]: { url } } }),
    vscode: json({ servers: { [bin]: { type: 'stdio', ...stdioByName } } }),
    vscodePath: json({ servers: { [bin]: { type: 'stdio', ...stdioByPath } } }),
    vscodeHttp: json({ servers: { [bin]: { type: 'http', url } } }),
    desktopHttp: json({ mcpServers: { [bin]: { command: 'npx', args: ['-y', 'mcp-remote', url] } } }),
  };
}

/** A window in words: `a minute`, `a second`, or its milliseconds. */
function per(windowMs: number): string {
  const named: Record<number, string> = { 1000: 'a second', 60000: 'a minute', 3600000: 'an hour', 86400000: 'a day' };
  return named[windowMs] ?? `${windowMs} ms`;
}

/** What a limit spec and a time limit allow, in words. */
function allowed(spec: LimitSpecIR | null, timeoutMs: number | undefined): string[] {
  const parts: string[] = [];
  if (timeoutMs !== undefined) parts.push(`${timeoutMs} ms a call`);
  if (spec?.concurrency !== undefined)
    parts.push(`${spec.concurrency} call${spec.concurrency === 1 ? '' : 's'} at once`);
  if (spec?.perPrincipal)
    parts.push(`${spec.perPrincipal.requests} calls ${per(spec.perPrincipal.windowMs)} per caller`);
  if (spec?.global) parts.push(`${spec.global.requests} calls ${per(spec.global.windowMs)} in all`);
  return parts;
}

/** The manifest's limits, one line for the server and one per tool that has its own: for the README. */
function limitLines(ir: IR): string[] {
  const lines: string[] = [];
  const server = allowed(ir.limits, undefined);
  if (server.length) lines.push(`every tool's calls together: ${server.join(', ')}`);
  for (const t of ir.tools) {
    const own = allowed(t.limits, typeof t.options?.timeoutMs === 'number' ? t.options.timeoutMs : undefined);
    if (own.length) lines.push(`${inlineCode(t.name)}: ${own.join(', ')}`);
  }
  return lines;
}
