// The numbers a server reads from its environment. Every one set is checked when a transport
// starts (`checkSettings`), so a value an operator mistyped stops the server with one line naming
// it, instead of a default applying without a word or a request failing later.

import { LOG_LEVEL_ENV, logLevelNamed } from './request-log.js';

/** A number read from the environment: its variable and the values it takes. */
export interface NumberSetting {
  readonly name: string;
  /** `whole`: an integer, 0 or more; `count`: an integer, 1 or more; `seconds`: any number above 0. */
  readonly kind: 'whole' | 'count' | 'seconds';
  /** What a whole number counts, for the message. */
  readonly unit?: string;
}

/** How long requests in flight may take to finish when the server stops (ms; default 10000). */
export const DRAIN_MS: NumberSetting = { name: 'MCP_DRAIN_MS', kind: 'whole', unit: 'milliseconds' };
/** With Redis: seconds an idle 2025 session lives (default 3600). */
export const SESSION_TTL: NumberSetting = { name: 'MCP_SESSION_TTL', kind: 'seconds' };
/** With Redis: seconds to wait for it at start (default 10). */
export const REDIS_START_TIMEOUT: NumberSetting = { name: 'MCP_REDIS_START_TIMEOUT', kind: 'seconds' };
/** Tasks kept at once (default 10000). */
export const MAX_TASKS: NumberSetting = { name: 'MCP_MAX_TASKS', kind: 'count' };
/** Tasks one principal keeps at once (default 100). */
export const MAX_TASKS_PER_PRINCIPAL: NumberSetting = { name: 'MCP_MAX_TASKS_PER_PRINCIPAL', kind: 'count' };
/** Bytes of a task's result (default 4 MiB). */
export const MAX_TASK_RESULT_BYTES: NumberSetting = { name: 'MCP_MAX_TASK_RESULT_BYTES', kind: 'count' };

const NUMBERS = [DRAIN_MS, SESSION_TTL, REDIS_START_TIMEOUT, MAX_TASKS, MAX_TASKS_PER_PRINCIPAL, MAX_TASK_RESULT_BYTES];

const FORMS: Record<NumberSetting['kind'], { test: RegExp; min: number; says: (unit?: string) => string }> = {
  whole: { test: /^\d+$/, min: 0, says: (unit) => `a whole number of ${unit} (0 or more)` },
  count: { test: /^\d+$/, min: 1, says: () => 'a whole number above 0' },
  seconds: { test: /^(\d+\.?\d*|\.\d+)$/, min: Number.MIN_VALUE, says: () => 'a number of seconds above 0' },
};

/** The value of `setting` in `env`, undefined when unset or blank; a value it does not take throws, naming it. */
export function numberSetting(setting: NumberSetting, env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env[setting.name]?.trim();
  if (!raw) return undefined;
  const form = FORMS[setting.kind];
  const value = Number(raw);
  if (form.test.test(raw) && Number.isFinite(value) && value >= form.min && (form.min === 0 || value > 0)) {
    if (setting.kind === 'seconds' || Number.isSafeInteger(value)) return value;
  }
  throw new Error(`${setting.name} must be ${form.says(setting.unit)}, not ${JSON.stringify(raw)}`);
}

/** Throws on the first setting in `env` with a value it does not take (`MCP_LOG_LEVEL` included). */
export function checkSettings(env: NodeJS.ProcessEnv = process.env): void {
  const level = env[LOG_LEVEL_ENV]?.trim();
  if (level && !logLevelNamed(level)) {
    throw new Error(`${LOG_LEVEL_ENV} must be one of off, error, warn, info, debug, not ${JSON.stringify(level)}`);
  }
  for (const setting of NUMBERS) numberSetting(setting, env);
}
