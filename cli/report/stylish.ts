import type { Diagnostic } from '../diagnostics.js';
import { fullRange, type ReportContext } from './types.js';
import { displayWidth } from './display-width.js';

/** Lines of a range shown in a code frame; the rest is elided. */
const MAX_FRAME_LINES = 3;
/** Longer source lines are cut to a window around the caret. */
const MAX_FRAME_WIDTH = 120;

/** `text.trim() === ''` without making the trimmed string: trim() strips exactly what `\s` matches. */
const NOT_SPACE = /\S/;

const ANSI = {
  red: '\x1b[31m',
  yellow: '\x1b[33m',
  cyan: '\x1b[36m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  reset: '\x1b[0m',
};

/**
 * Human output: `file:line:col: severity CODE message`, a code frame (the lines of the range with
 * carets under it) and the hint; colours only when asked (a TTY).
 */
export function formatStylish(diags: readonly Diagnostic[], ctx: ReportContext): string {
  const paint = (code: string, s: string): string => (ctx.color ? `${code}${s}${ANSI.reset}` : s);
  const out: string[] = [];
  for (const d of diags) {
    const sev = d.severity === 'error' ? ANSI.red : d.severity === 'warning' ? ANSI.yellow : ANSI.cyan;
    out.push(
      `${paint(ANSI.bold, `${d.file}:${d.line}:${d.column}:`)} ${paint(sev, d.severity)} ${paint(ANSI.dim, d.code)} ${d.message}`,
    );
    const source = ctx.sources.get(d.file);
    if (source !== undefined)
      out.push(
        ...codeFrame(
          source,
          d,
          (s) => paint(sev, s),
          (s) => paint(ANSI.dim, s),
        ),
      );
    if (d.hint) out.push(`  ${paint(ANSI.cyan, 'hint:')} ${d.hint}`);
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

/**
 * The lines of a source, by number, found through an index of line starts built once per source:
 * a manifest gets thousands of diagnostics, and splitting a large one into strings costs more than
 * slicing the few lines each frame shows.
 */
class Lines {
  private readonly starts: Int32Array;
  readonly length: number;

  constructor(private readonly source: string) {
    let n = 1;
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) n++;
    this.starts = new Int32Array(n + 1);
    let k = 1;
    for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) this.starts[k++] = i + 1;
    this.starts[n] = source.length + 1;
    this.length = n;
  }

  /** Line `n` (1-based) without its newline; '' past the end. */
  text(n: number): string {
    return n >= 1 && n <= this.length ? this.source.slice(this.starts[n - 1]!, this.starts[n]! - 1) : '';
  }
}

let lastSource: string | undefined;
let lastLines: Lines | undefined;
function linesOf(source: string): Lines {
  if (source !== lastSource || !lastLines) {
    lastSource = source;
    lastLines = new Lines(source);
  }
  return lastLines;
}

/** `  12 |     desc: x` / `     |     ^^^^`; nothing when the line is blank or does not exist. */
export function codeFrame(
  source: string,
  d: Diagnostic,
  mark: (s: string) => string = (s) => s,
  gutter: (s: string) => string = (s) => s,
): string[] {
  const lines = linesOf(source);
  const r = fullRange(d);
  if (r.line > lines.length) return [];
  const last = Math.min(r.endLine, lines.length, r.line + MAX_FRAME_LINES - 1);
  const width = String(last).length;
  const out: string[] = [];
  for (let n = r.line; n <= last; n++) {
    // Tested before replacing: thousands of frames, and most lines have neither.
    let text = lines.text(n);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.includes('\t')) text = text.replace(/\t/g, ' ');
    if (n === r.line && !NOT_SPACE.test(text)) return [];
    const from = n === r.line ? r.column - 1 : text.length - text.trimStart().length;
    const to = n === r.endLine ? r.endColumn - 1 : text.length;
    let start = Math.min(Math.max(0, from), text.length);
    let end = Math.max(start + 1, Math.min(to, text.length));
    // Cut long lines to a window that shows the start of the range.
    let shown = text;
    let offset = 0;
    if (text.length > MAX_FRAME_WIDTH) {
      offset = Math.max(0, Math.min(start - 20, text.length - MAX_FRAME_WIDTH));
      shown =
        (offset > 0 ? '…' : '') +
        text.slice(offset, offset + MAX_FRAME_WIDTH) +
        (offset + MAX_FRAME_WIDTH < text.length ? '…' : '');
      const shift = offset > 0 ? offset - 1 : 0;
      start -= shift;
      end = Math.min(end - shift, shown.length);
      if (end <= start) end = start + 1;
    }
    out.push(`${gutter(` ${String(n).padStart(width)} |`)} ${shown}`.trimEnd());
    const pad = displayWidth(shown.slice(0, start));
    const carets = Math.max(1, displayWidth(shown.slice(start, end)));
    out.push(`${gutter(` ${' '.repeat(width)} |`)} ${' '.repeat(pad)}${mark('^'.repeat(carets))}`);
  }
  if (r.endLine > last && last < lines.length) out.push(gutter(` ${' '.repeat(width)} | …`));
  return out;
}
