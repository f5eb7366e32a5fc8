/**
 * Names that are distinct in the manifest but collide once derived: `get-sum` and `get_sum` give
 * the same identifier; `Notes` and `notes` give handler files that clash on macOS and Windows;
 * a tool `get_forecast` and a shared schema `GetForecastInput` give the same type name.
 */
import type { Diagnostic } from '../diagnostics.js';
import { Codes } from '../manifest/codes.js';
import type { EntryIR, IR } from './ir.js';

export function checkCollisions(ir: IR, file: string): Diagnostic[] {
  const diags: Diagnostic[] = [];
  const report = (e: EntryIR, kind: string, what: string, other: string) =>
    diags.push({
      code: Codes.NAME_COLLISION,
      severity: 'error',
      message: `${kind} "${e.name}" and "${other}" both become the ${what}`,
      file,
      line: e.loc.line,
      column: e.loc.column,
      entry: e.name,
      hint: `rename one of them; wire names may differ only in ways that survive the conversion to identifiers and file names`,
    });

  const groups: [string, EntryIR[]][] = [
    ['tool', ir.tools],
    ['resource', ir.resources],
    ['resource template', ir.templates],
    ['prompt', ir.prompts],
  ];
  for (const [kind, entries] of groups) {
    const idents = new Map<string, string>();
    const files = new Map<string, string>();
    for (const e of entries) {
      const i = idents.get(e.ident);
      if (i !== undefined) report(e, kind, `identifier "${e.ident}"`, i);
      else idents.set(e.ident, e.name);
      const f = files.get(e.fileBase.toLowerCase());
      if (f !== undefined && i === undefined) report(e, kind, `handler file "${e.fileBase}.ts" (file names are case-insensitive on macOS and Windows)`, f);
      else files.set(e.fileBase.toLowerCase(), e.name);
    }
  }

  // Type names share one namespace in types.ts.
  const types = new Map<string, string>();
  for (const s of ir.sharedSchemas) types.set(s.typeName, `schema "${s.name}"`);
  const claim = (e: EntryIR, kind: string, t: string | null) => {
    if (t === null) return;
    const prev = types.get(t);
    if (prev !== undefined) report(e, kind, `type "${t}"`, prev);
    else types.set(t, `${kind} "${e.name}"`);
  };
  for (const t of ir.tools) {
    claim(t, 'tool', t.inputType);
    claim(t, 'tool', t.outputType);
  }
  for (const t of ir.templates) claim(t, 'resource template', t.paramsType);
  for (const p of ir.prompts) claim(p, 'prompt', p.argsType);
  return diags;
}
