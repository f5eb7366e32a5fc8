/**
 * A unified diff of two texts (Myers' O(ND) algorithm on lines), as `diff -u` prints it.
 */
type Op = { kind: ' ' | '-' | '+'; line: string };

function diffLines(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  // Backtrack through the saved frontiers.
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[max + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: ' ', line: a[--x]! }), y--;
    if (x === prevX) ops.push({ kind: '+', line: b[--y]! });
    else ops.push({ kind: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) ops.push({ kind: ' ', line: a[--x]! }), y--;
  return ops.reverse();
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `--- a/path` / `+++ b/path` with hunks of `context` lines; '' when the texts are equal. */
export function unifiedDiff(pathA: string, pathB: string, before: string, after: string, context = 3): string {
  if (before === after) return '';
  const ops = diffLines(splitLines(before), splitLines(after));
  const out = [`--- ${pathA}`, `+++ ${pathB}`];
  // Line numbers before each op, for hunk headers.
  const pos: { a: number; b: number }[] = [];
  let aLine = 1;
  let bLine = 1;
  for (const op of ops) {
    pos.push({ a: aLine, b: bLine });
    if (op.kind !== '+') aLine++;
    if (op.kind !== '-') bLine++;
  }
  // Group changes whose context windows touch into one hunk.
  const changes = ops.flatMap((o, i) => (o.kind === ' ' ? [] : [i]));
  const hunks: [number, number][] = [];
  for (const c of changes) {
    const lo = Math.max(0, c - context);
    const hi = Math.min(ops.length, c + context + 1);
    const last = hunks[hunks.length - 1];
    if (last && lo <= last[1]) last[1] = hi;
    else hunks.push([lo, hi]);
  }
  for (const [lo, hi] of hunks) {
    const hunk = ops.slice(lo, hi);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    const aStart = aCount ? pos[lo]!.a : pos[lo]!.a - 1;
    const bStart = bCount ? pos[lo]!.b : pos[lo]!.b - 1;
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
  }
  return `${out.join('\n')}\n`;
}
