import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unifiedDiff } from '../cli/plan/unified-diff.js';

/** GNU diff -u is the reference; compare hunks (headers without timestamps). */
function gnuDiff(a: string, b: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'mcpgen-diff-'));
  writeFileSync(path.join(dir, 'a'), a);
  writeFileSync(path.join(dir, 'b'), b);
  try {
    return execFileSync('diff', ['-u', '--label', 'a/f', '--label', 'b/f', 'a', 'b'], { cwd: dir, encoding: 'utf8' });
  } catch (e) {
    return (e as { stdout: string }).stdout;
  }
}

function rand(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

describe('unifiedDiff', () => {
  it('is empty for equal texts', () => expect(unifiedDiff('a', 'b', 'x\n', 'x\n')).toBe(''));

  it('matches GNU diff -u on random edits', () => {
    const r = rand(42);
    for (let n = 0; n < 200; n++) {
      const base = Array.from({ length: Math.floor(r() * 30) }, () => `line ${Math.floor(r() * 8)}`);
      const edited = base.flatMap((l) =>
        r() < 0.15 ? [] : r() < 0.15 ? [l, `new ${Math.floor(r() * 5)}`] : r() < 0.1 ? ['changed'] : [l],
      );
      const a = base.length ? `${base.join('\n')}\n` : '';
      const b = edited.length ? `${edited.join('\n')}\n` : '';
      const ours = unifiedDiff('a/f', 'b/f', a, b);
      const theirs = gnuDiff(a, b);
      // Both are minimal diffs; when they tie they may pick different lines, so compare change counts.
      const count = (d: string, c: string) =>
        d.split('\n').filter((l) => l.startsWith(c) && !l.startsWith(c.repeat(3))).length;
      expect(count(ours, '+')).toBe(count(theirs, '+'));
      expect(count(ours, '-')).toBe(count(theirs, '-'));
      // And applying ours to a gives b.
      expect(applyPatch(a, ours)).toBe(b);
    }
  });
});

function applyPatch(a: string, patch: string): string {
  if (!patch) return a;
  const src = a === '' ? [] : a.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  let i = 0;
  for (const line of patch.split('\n').slice(2)) {
    const m = /^@@ -(\d+),(\d+) /.exec(line);
    if (m) {
      const start = Number(m[2]) === 0 ? Number(m[1]) : Number(m[1]) - 1;
      while (i < start) out.push(src[i++]!);
      continue;
    }
    if (line.startsWith(' ')) out.push(src[i]!), i++;
    else if (line.startsWith('-')) i++;
    else if (line.startsWith('+')) out.push(line.slice(1));
  }
  while (i < src.length) out.push(src[i++]!);
  return out.length ? `${out.join('\n')}\n` : '';
}
