import type { Diagnostic } from '../diagnostics.js';
import { type ArtifactBase, artifactPath } from './locations.js';
import { fullRange } from './types.js';

/**
 * `--format github`: GitHub Actions workflow commands, which the runner turns into annotations on
 * the file and line: `::error file=…,line=…,col=…,endLine=…,endColumn=…,title=CODE::message`.
 * With `base`, `file` is relative to the repository root, which is what GitHub resolves it against.
 */
export function formatGithub(diags: readonly Diagnostic[], base?: ArtifactBase): string {
  return diags
    .map((d) => {
      const r = fullRange(d);
      const command = d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'notice';
      const props = [
        ['file', base ? artifactPath(d.file, base).path : d.file],
        ['line', String(r.line)],
        ['col', String(r.column)],
        ['endLine', String(r.endLine)],
        ['endColumn', String(r.endColumn)],
        ['title', d.code],
      ]
        .map(([k, v]) => `${k}=${escapeProperty(v!)}`)
        .join(',');
      const text = d.hint ? `${d.message}\nhint: ${d.hint}` : d.message;
      return `::${command} ${props}::${escapeData(text)}\n`;
    })
    .join('');
}

/** The runner's own escaping (actions/toolkit command.ts): `%`, CR and LF in the message. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** …and in property values also `:` and `,`, which delimit them. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
