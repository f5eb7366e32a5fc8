/**
 * What init says of a tsconfig.json it keeps: read as tsc reads it, compared with what the
 * generated project needs. The whole flow (merge the advice, then npm test) is in init.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tsconfigAdvice } from '../cli/commands/init-tsconfig.js';
import { scratch } from './helpers/project.js';

const GENERATED = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    types: ['node'],
    rootDir: '.',
    outDir: 'dist',
  },
  include: ['src/**/*.ts', 'test/**/*.ts'],
};

function adviceFor(files: Record<string, string>) {
  const dir = scratch(`tsconfig-${Object.values(files).join('').length}-${Math.random().toString(36).slice(2, 8)}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return tsconfigAdvice(dir);
}

describe('tsconfigAdvice', () => {
  it('has nothing to say of the tsconfig.json mcpgen writes, or of equivalent ones', () => {
    expect(adviceFor({ 'tsconfig.json': JSON.stringify(GENERATED) })).toEqual({ set: null, reasons: [], leftOut: [] });
    // Node16, an ESNext target, a folder in include, no include at all, ./dist spelled otherwise.
    for (const variant of [
      {
        ...GENERATED,
        compilerOptions: {
          ...GENERATED.compilerOptions,
          module: 'node16',
          moduleResolution: 'node16',
          target: 'esnext',
        },
      },
      { ...GENERATED, include: ['src', 'test/'] },
      { compilerOptions: { ...GENERATED.compilerOptions, outDir: './dist/' } },
      { compilerOptions: { ...GENERATED.compilerOptions, lib: ['ES2023', 'DOM'] } },
    ]) {
      expect(adviceFor({ 'tsconfig.json': JSON.stringify(variant) }), JSON.stringify(variant)).toEqual({
        set: null,
        reasons: [],
        leftOut: [],
      });
    }
  });

  it('reads comments (with quotes inside), trailing commas, and strings holding comment marks', () => {
    const text =
      '{\n  // "module": "commonjs"\n  "compilerOptions": { /* , } */ "module": "NodeNext", "outDir": "dist", "types": ["node", "a//b", "c/*d",], },\n}\n';
    expect(adviceFor({ 'tsconfig.json': text })).toEqual({ set: null, reasons: [], leftOut: [] });
  });

  it('follows extends (files and arrays of them), the later base and then the file itself winning', () => {
    const advice = adviceFor({
      'tsconfig.json': JSON.stringify({
        extends: ['./configs/a.json', './configs/b'],
        compilerOptions: { types: ['node'] },
      }),
      // outDir is relative to the base that sets it: ../dist from configs/ is the project's dist.
      'configs/a.json': JSON.stringify({
        compilerOptions: { module: 'commonjs', outDir: '../dist' },
        include: ['../src/**/*.ts'],
      }),
      'configs/b.json': JSON.stringify({ compilerOptions: { module: 'nodenext' } }),
    });
    expect(advice).toEqual({
      set: null,
      reasons: ['include leaves out test/generated/contract.test.ts: add "src/**/*.ts" and "test/**/*.ts" to it'],
      leftOut: ['test/generated/contract.test.ts'],
    });
  });

  it('names each problem, and the options to set', () => {
    const advice = adviceFor({
      'tsconfig.json': JSON.stringify({
        compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', lib: ['ES2020'], noEmit: true },
        files: ['src/main.ts'],
      }),
    });
    expect(advice).toMatchObject({
      set: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2020', 'ES2022'],
        noEmit: false,
        outDir: 'dist',
      },
    });
    expect(typeof advice !== 'string' && advice.reasons.at(-1)).toBe(
      'include leaves out src/generated/server.ts, test/generated/contract.test.ts: add "src/**/*.ts" and "test/**/*.ts" to it',
    );
  });

  it('says why it cannot tell: not JSON, not an object, a loop of extends', () => {
    expect(adviceFor({ 'tsconfig.json': '{ "compilerOptions": ' })).toMatch(
      /^tsconfig\.json is not JSON with comments, as tsc reads it: /,
    );
    expect(adviceFor({ 'tsconfig.json': '[]' })).toBe('tsconfig.json is not a JSON object');
    expect(
      adviceFor({ 'tsconfig.json': '{ "extends": "./a.json" }', 'a.json': '{ "extends": "./tsconfig.json" }' }),
    ).toBe('tsconfig.json extends itself (tsconfig.json → a.json → tsconfig.json)');
  });
});
