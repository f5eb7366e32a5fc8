/**
 * GitHub's published OpenAPI description (@octokit/openapi, about 1,000 operations): a tag's worth
 * and the whole API import, validate without errors (warnings only where the description itself
 * lacks something, and max-tools pointing at --tag/--path), generate and type-check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../cli/main.js';
import { checkManifestFile } from '../cli/mcp/check-manifest.js';
import { memoryIO, REPO, run, scratch, TSC } from './helpers/project.js';

const GITHUB = path.join(REPO, 'node_modules/@octokit/openapi/generated/api.github.com.json');

async function importAndGenerate(name: string, args: string[]): Promise<{ dir: string; out: string }> {
  const dir = scratch(name);
  const io = memoryIO(dir);
  expect(await runCli(['import', 'openapi', GITHUB, '--api', 'github', ...args], io), io.err).toBe(0);
  const gen = memoryIO(dir);
  expect(await runCli(['generate', '-q'], gen), gen.err).toBe(0);
  return { dir, out: io.out };
}

async function typeChecks(dir: string): Promise<void> {
  const tsc = await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--noEmit'], dir, 300_000);
  expect(tsc.code, tsc.stdout + tsc.stderr).toBe(0);
}

describe("GitHub's REST API", () => {
  it('one tag: imports, validates, generates and type-checks', async () => {
    const { dir, out } = await importAndGenerate('openapi-octokit-issues', ['--tag', 'issues']);
    // GitHub's description declares no security scheme: the import says how to add one.
    expect(out).toContain('add one to apis.github, e.g. auth: { type: bearer, env: GITHUB_TOKEN }');
    const m = parse(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8'));
    expect(Object.keys(m.tools).length).toBeGreaterThan(40);
    expect(m.tools.issues_create.http).toMatchObject({
      api: 'github',
      method: 'POST',
      path: '/repos/{owner}/{repo}/issues',
    });
    expect(m.apis.github).toEqual({
      baseUrl: { env: 'GITHUB_URL', default: 'https://api.github.com' },
    });
    const checked = checkManifestFile(path.join(dir, 'mcpgen.yaml'), 'mcpgen.yaml');
    expect(checked.errors).toBe(0);
    await typeChecks(dir);
  }, 300_000);

  it('the whole API: every operation, valid, max-tools says how to select, generated and type-checked', async () => {
    const { dir, out } = await importAndGenerate('openapi-octokit-all', []);
    expect(out).toMatch(
      /\d{4} tools: several clients cap tools at 40; import a part with --tag, --path or --operation/,
    );
    const m = parse(readFileSync(path.join(dir, 'mcpgen.yaml'), 'utf8'));
    expect(Object.keys(m.tools).length).toBeGreaterThan(1000);
    const checked = checkManifestFile(path.join(dir, 'mcpgen.yaml'), 'mcpgen.yaml');
    expect(checked.errors).toBe(0);
    const maxTools = checked.diagnostics.find((d) => d.rule === 'max-tools');
    expect(maxTools?.hint).toContain('--tag');
    // What is left are the description's own gaps: parameters without a description, examples
    // that do not match their schema, a format of GitHub's own.
    const rules = new Set(checked.diagnostics.map((d) => d.rule ?? d.code));
    expect([...rules].sort()).toEqual(['MCPG206', 'MCPG208', 'max-tools', 'missing-description']);
    await typeChecks(dir);
  }, 600_000);
});
