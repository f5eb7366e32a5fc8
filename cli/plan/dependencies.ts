/**
 * The packages generated code imports. package.json is the user's after `init`, so mcpgen never
 * rewrites it: it names what is missing and the exact command that adds it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const RUNTIME_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/server': '^2.4.0',
};

export const DEV_DEPENDENCIES: Record<string, string> = {
  '@modelcontextprotocol/client': '^2.4.0',
  '@types/node': '^20.19.0',
  typescript: '^5.9.0 || ^7.0.0',
};

/** A message naming missing packages with the npm command to add them, or null when all are listed. */
export function missingDependencies(projectDir: string): string | null {
  let pkg: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    pkg = JSON.parse(readFileSync(path.join(projectDir, 'package.json'), 'utf8'));
  } catch {
    return null; // no readable package.json: nothing to compare with (generate creates one when missing)
  }
  const listed = { ...pkg.dependencies, ...pkg.devDependencies };
  const need = (deps: Record<string, string>) =>
    Object.entries(deps)
      .filter(([name]) => !(name in listed))
      .map(([name, range]) => `${name}@${JSON.stringify(range.split(' || ').pop())}`);
  const runtime = need(RUNTIME_DEPENDENCIES);
  const dev = need(DEV_DEPENDENCIES);
  if (!runtime.length && !dev.length) return null;
  const cmds = [];
  if (runtime.length) cmds.push(`npm install ${runtime.join(' ')}`);
  if (dev.length) cmds.push(`npm install -D ${dev.join(' ')}`);
  return `! package.json does not list packages the generated code needs; run:\n    ${cmds.join('\n    ')}`;
}
