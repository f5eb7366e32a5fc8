/**
 * A bundle's host starts the server and talks to it over stdio (MCPB bundles are local servers;
 * their `mcp_config` is a command, with no URL): a server that does not serve stdio would leave
 * the host waiting, so it is not packed.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import type { IR } from '../normalize/ir.js';

/** What a main.ts serving stdio has: the runtime's runStdio, or the SDK's stdio transport. */
const STDIO = /\brunStdio\b|\bStdioServerTransport\b|['"][^'"\n]*\/stdio(?:\.js)?['"]/;

/** Refuses (UsageError) a server a host could not talk to over stdio with `node dist/src/main.js`. */
export function checkServesStdio(ir: IR, manifest: string, projectDir: string, rel: (abs: string) => string): void {
  // main.ts is the user's, written once: one written while the manifest was HTTP-only serves HTTP without --http.
  const main = path.join(projectDir, 'src', 'main.ts');
  const httpOnlyMain = existsSync(main) && !STDIO.test(readFileSync(main, 'utf8'));
  const regenerate = httpOnlyMain
    ? `delete ${rel(main)} (yours, written for HTTP only) so that \`mcpgen generate\` writes one serving stdio, run it, rebuild`
    : 'run `mcpgen generate`, rebuild';
  if (!ir.transports.stdio) {
    const text = readFileSync(manifest, 'utf8');
    const at = /^transports[ \t]*:/m.exec(text);
    const where = at ? `:${text.slice(0, at.index).split('\n').length}:1` : '';
    throw new UsageError(
      `${rel(manifest)}${where}: \`transports\` has no stdio, and an MCP Bundle is a local server its host starts and talks to over stdio only: add \`stdio: {}\` under \`transports\`, ${regenerate}, then pack again`,
    );
  }
  if (httpOnlyMain)
    throw new UsageError(
      `${rel(main)} serves no stdio (it neither calls runStdio nor imports a stdio transport), and a bundle's host runs \`node dist/src/main.js\` and talks to it over stdio: ${regenerate}, then pack again`,
    );
}
