/**
 * What the commands say, worded for an agent driving `mcpgen mcp`: where a command's message names
 * a shell command that one of the tools does, the message names the tool call instead, with its
 * real argument names, so the agent stays in the loop the server offers. Next steps are worded from
 * their data (report/outcome.ts's Step); only what a command prints as text goes through agentWords.
 */
import type { IR } from '../normalize/ir.js';
import { staticEntryOf } from '../plan/orphans.js';
import type { Plan } from '../plan/plan.js';
import type { Outcome } from '../report/outcome.js';
import { contractText } from '../report/steps.js';
import type { RenameGuess } from '../rename/hint.js';
import { KINDS } from '../rename/kinds.js';

/** `rename_entry { kind: "tool", old: "a", new: "b", apply: true }`, with `manifest` when not the default one. */
export function renameCall(r: RenameGuess, manifest?: string): string {
  const args = [
    `kind: ${JSON.stringify(r.kind)}`,
    `old: ${JSON.stringify(r.old)}`,
    `new: ${JSON.stringify(r.new)}`,
    'apply: true',
    ...(manifest ? [`manifest: ${JSON.stringify(manifest)}`] : []),
  ];
  return `rename_entry { ${args.join(', ')} }`;
}

/** The renames done by hand a plan suggests: one entry of a kind removed (its handler orphaned), one added. */
export async function renamesIn(plan: Plan): Promise<RenameGuess[]> {
  if (!plan.entries.some((e) => e.action === 'orphan')) return [];
  const { renameGuesses } = await import('../rename/hint.js');
  return renameGuesses(plan);
}

/** What to do with a file no manifest entry uses: delete it, or the rename_entry call that carries it over. */
export function orphanAdvice(file: string, renames: readonly RenameGuess[], manifest?: string, ir?: IR): string {
  // An entry still there that no longer needs a handler is not a rename.
  const entry = staticEntryOf(file, ir);
  if (entry)
    return `${entry.kind} ${entry.name} ${entry.now}, so this ${file.startsWith('test/') ? "handler's test" : 'handler'} is not used (kept): delete it, or ${entry.undo}`;
  const dir = /^(?:src|test)\/handlers\/([^/]+)\//.exec(file)?.[1];
  const rename = renames.filter((r) => KINDS[r.kind].dir === dir);
  const renamed =
    rename.length === 1
      ? `if ${rename[0]!.kind} "${rename[0]!.old}" was renamed to "${rename[0]!.new}", call ${renameCall(rename[0]!, manifest)} (it moves the file onto the new name)`
      : 'if its entry was renamed, call rename_entry { kind, old, new, apply: true } with the old and new names (it moves the file onto the new name)';
  return `no manifest entry uses this file any more (kept): delete it if its entry is gone for good; ${renamed}`;
}

/** The messages generate's next steps make for an agent: each names the tool (or shell command) to use. */
export function nextStepMessages(outcome: Outcome): string[] {
  const out: string[] = [];
  for (const step of outcome.next) {
    if (!('kind' in step)) {
      if (step.command === null) out.push(step.message);
      else {
        // No tool of this server runs it (npm install): a shell command in the project folder.
        const where = step.cwd && step.cwd !== '.' ? `in ${step.cwd}` : 'in the project folder';
        out.push(`${step.message}: run \`${step.command}\` ${where} (a shell command; no mcpgen tool does it)`);
      }
      continue;
    }
    switch (step.kind) {
      case 'rename':
        // Said with each orphaned file (orphanAdvice), which names the rename_entry call.
        break;
      case 'contract-changed':
        out.push(
          `${contractText(step)} to the new types; the check tool type-checks the project and points at what does not match yet`,
        );
        break;
      case 'entry-mismatch':
        out.push(
          `${step.mismatch}, or delete src/main.ts and call the generate tool to have a new one written for the transports declared`,
        );
        break;
    }
  }
  return out;
}

/** A command's printed line or refusal with the mcpgen commands the tools do named as those tools. */
export function agentWords(text: string): string {
  return text
    .replace(/\(mcpgen validate lists them\)|\(mcpgen validate\)/g, '(the validate tool lists them)')
    .replace(/run mcpgen validate to see them/g, 'the validate tool lists them')
    .replace(/\(npm run typecheck\)/g, '(the check tool runs the type check)')
    .replace(/\(as mcpgen generate\)/g, '(as the generate tool does)')
    .replace(
      /\b(?:and )?run `?mcpgen generate`?(?: again)?/g,
      (m) => `${m.startsWith('and ') ? 'and ' : ''}call the generate tool${m.endsWith(' again') ? ' again' : ''}`,
    );
}
