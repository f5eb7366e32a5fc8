/**
 * A next step recorded as data (outcome.ts's Step) in the words a person reads: the line a command
 * prints and the step as --json gives it. `mcpgen mcp` words the same data its own way (cli/mcp/wording.ts).
 */
import type { ContractChangedStep, EntryMismatchStep, NextStep, RenameStep, Step } from './outcome.js';

/** `tool "a" was removed and "b" added; if it was renamed, run: mcpgen rename tool a b --yes`. */
export function renameText(s: RenameStep): string {
  return `${s.entryKind} ${JSON.stringify(s.old)} was removed and ${JSON.stringify(s.new)} added; if it was renamed, run: ${s.command}`;
}

/** `contract changed: tool a (input) → update src/handlers/tools/a.ts and test/handlers/tools/a.test.ts`. */
export function contractText(s: ContractChangedStep): string {
  return `contract changed: ${s.entry} (${s.parts.join(', ')}) → update ${s.files.join(' and ')}`;
}

export function entryMismatchText(s: EntryMismatchStep): string {
  return `${s.mismatch}, or delete src/main.ts and run mcpgen generate to have a new one written for the transports declared`;
}

export function stepText(step: Step): NextStep {
  if (!('kind' in step)) return { message: step.message, command: step.command, cwd: step.cwd };
  switch (step.kind) {
    case 'rename':
      return { message: renameText(step), command: step.command, cwd: '.' };
    case 'contract-changed':
      return { message: `${contractText(step)} to the new types`, command: null, cwd: null };
    case 'entry-mismatch':
      return { message: entryMismatchText(step), command: null, cwd: null };
  }
}
