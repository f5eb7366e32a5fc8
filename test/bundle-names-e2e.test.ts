/**
 * The bundle keeps the names of the project's own functions and classes (minified as it is) and
 * maps a handler's stack to its TypeScript source, with the project's tsconfig as it is or extending
 * another: a generated project built by `mcpgen build`, served over stdio to a real client.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { buildServer, builtProject } from './helpers/project.js';

const MANIFEST = `version: 1
server: { name: bundle-names, version: 1.0.0 }
transports: { stdio: {} }
tools:
  names: { description: The names of the handler's own function and class }
  boom: { description: Throws }
`;

const HANDLERS = {
  'src/handlers/tools/names.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

class ReportCard {
  read(): string {
    return 'read';
  }
}

function namedHelper(): string {
  return 'helper';
}

export const handler: ToolHandlers['names'] = () =>
  JSON.stringify({ cls: new ReportCard().constructor.name, fn: namedHelper.name, method: ReportCard.prototype.read.name });
`,
  'src/handlers/tools/boom.ts': `import type { ToolHandlers } from '../../generated/handlers.js';

class BoomError extends Error {}

export const handler: ToolHandlers['boom'] = () => {
  throw new BoomError('kaboom');
};
`,
};

/** Calls both tools; resolves what `names` answers and what the server wrote to stderr. */
async function serve(dir: string): Promise<{ names: unknown; stderr: string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dir, 'dist/src/main.js')],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: 'bundle-names', version: '0.0.0' });
  await client.connect(transport);
  try {
    const named = await client.callTool({ name: 'names', arguments: {} });
    const boom = await client.callTool({ name: 'boom', arguments: {} });
    expect(boom.isError).toBe(true);
    const text = (named.content as { type: string; text: string }[])[0]!.text;
    return { names: JSON.parse(text), stderr };
  } finally {
    await client.close();
  }
}

describe('mcpgen build: the project’s names and stacks', () => {
  it('keeps function, class and method names, and maps a handler’s stack to its .ts line', async () => {
    const dir = await builtProject('bundle-names', MANIFEST, HANDLERS);
    const { names, stderr } = await serve(dir);
    expect(names).toEqual({ cls: 'ReportCard', fn: 'namedHelper', method: 'read' });
    expect(stderr).toContain('kaboom');
    expect(stderr).toMatch(/src\/handlers\/tools\/boom\.ts:6:\d+/);
  });

  it('keeps them too when tsconfig.json extends another (the whole bundle keeps names then)', async () => {
    const dir = await builtProject('bundle-names-extends', MANIFEST, HANDLERS);
    writeFileSync(path.join(dir, 'tsconfig.base.json'), '{ "compilerOptions": { "strict": true } }\n');
    const tsconfig = path.join(dir, 'tsconfig.json');
    const { readFileSync } = await import('node:fs');
    const own = JSON.parse(readFileSync(tsconfig, 'utf8')) as Record<string, unknown>;
    writeFileSync(tsconfig, `${JSON.stringify({ extends: './tsconfig.base.json', ...own }, null, 2)}\n`);
    const built = await buildServer(dir);
    expect(built.code, built.stdout + built.stderr).toBe(0);
    const { names } = await serve(dir);
    expect(names).toEqual({ cls: 'ReportCard', fn: 'namedHelper', method: 'read' });
  });
});
