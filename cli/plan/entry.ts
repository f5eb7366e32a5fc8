/**
 * src/main.ts is the user's once created, written for the transports the manifest had then. After
 * a change to `transports` it may import an HTTP entry no longer generated (the build breaks) or
 * start a transport the manifest no longer declares, or none it now does. mcpgen never edits it:
 * it names the mismatch and what to do (report/steps.ts adds the other way out: a new one generated).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ENTRY_PATH = 'src/main.ts';

/** What the manifest declares. */
export interface Transports {
  stdio: boolean;
  http: boolean;
}

/** One line per mismatch between src/main.ts and `transports`, with how to edit it; empty when they agree or there is no entry. */
export function entryMismatches(projectDir: string, transports: Transports): string[] {
  let text: string;
  try {
    text = readFileSync(path.join(projectDir, ENTRY_PATH), 'utf8');
  } catch {
    return []; // created by the next generate
  }
  // Comments say nothing about what the code does.
  const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
  const startsHttp = /['"]\.\/generated\/http\.js['"]/.test(code);
  const startsStdio = /\brunStdio\b/.test(code);
  const problems: string[] = [];
  if (startsHttp && !transports.http)
    problems.push(
      `src/main.ts imports ./generated/http.js, which is generated only with transports.http: take out its HTTP part`,
    );
  if (!startsHttp && transports.http)
    problems.push(
      `src/main.ts starts no Streamable HTTP server, and transports.http is declared: start one with startHttp from ./generated/http.js`,
    );
  if (startsStdio && !transports.stdio)
    problems.push(`src/main.ts serves stdio, which transports no longer declares: take out its runStdio call`);
  if (!startsStdio && transports.stdio)
    problems.push(
      `src/main.ts does not serve stdio, and transports.stdio is declared: call runStdio(app) from @mcpgen/runtime/stdio`,
    );
  return problems;
}
