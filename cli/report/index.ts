import type { Diagnostic } from '../diagnostics.js';
import { formatGithub } from './github.js';
import { formatJson } from './json.js';
import { formatSarif } from './sarif.js';
import { formatStylish } from './stylish.js';
import type { Format, ReportContext } from './types.js';

export { type ArtifactBase, findRepositoryRoot } from './locations.js';
export { FORMATS, type Format, type ReportContext } from './types.js';
export { formatGithub, formatJson, formatSarif, formatStylish };

/** Diagnostics in one of the output formats (without the stylish summary line). */
export function formatReport(format: Format, diags: readonly Diagnostic[], ctx: ReportContext): string {
  switch (format) {
    case 'json':
      return formatJson(diags);
    case 'github':
      return formatGithub(diags, ctx.base);
    case 'sarif':
      return formatSarif(diags, ctx.base);
    default:
      return formatStylish(diags, ctx);
  }
}
