// Completions of template variables and prompt arguments: fixed values, or the handler's.

import type { Completer } from './handlers.js';
import type { Loader } from './runtime.js';

/** The SDK's completion callback; it may be called without context. */
type SdkCompleter = (value: string, context?: { arguments?: Record<string, string> }) => string[] | Promise<string[]>;

/** Completes from fixed values: those starting with what was typed, ignoring case. */
function completeFrom(values: readonly string[]): SdkCompleter {
  return (value) => values.filter((candidate) => candidate.toLowerCase().startsWith(value.toLowerCase()));
}

/** Completes with a handler (loaded on first use), giving it the arguments filled in so far. */
function completeWith<A>(load: () => Promise<Completer<A>>): SdkCompleter {
  // The client's values, as sent: only the names the completer may expect are typed.
  return async (value, context) =>
    (await load())(value, {
      arguments: (context?.arguments ?? {}) as Partial<Record<keyof A, string>>,
    });
}

/** The completions of a template's variables or a prompt's arguments, as data (server.ts). */
export interface Completions {
  /** Static values, by variable or argument name. */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Names completed by the handler module's `complete`. */
  handled?: readonly string[];
}

/** Completers from data: static values complete by prefix, the rest through the handler (loaded on first use). */
export function completers(
  completions: Completions | undefined,
  module?: Loader<{ complete: Readonly<Record<string, Completer<never>>> }>,
): Record<string, SdkCompleter> {
  // No prototype: the SDK looks a completer up by the name the client sends (`toString` too).
  const out: Record<string, SdkCompleter> = Object.create(null);
  for (const [name, values] of Object.entries(completions?.values ?? {})) out[name] = completeFrom(values);
  for (const name of completions?.handled ?? [])
    out[name] = completeWith(async () => (await module!()).complete[name]!);
  return out;
}
