// The server's log: one JSON line per request on stderr (stdout may carry the protocol), and a
// handler's failure with its stack. Quiet by default on stdio, where desktop clients keep stderr
// in their own logs; `MCP_LOG_LEVEL` sets it (off, error, warn, info, debug).

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };

export const LOG_LEVEL_ENV = 'MCP_LOG_LEVEL';

let transportDefault: LogLevel = 'error';
let threshold: number | undefined;

/** The level a transport logs at unless `MCP_LOG_LEVEL` says otherwise (stdio: error, HTTP: info). */
export function setDefaultLogLevel(level: LogLevel): void {
  transportDefault = level;
  threshold = undefined;
}

/** The level `text` names (any case), or undefined. */
export function logLevelNamed(text: string): LogLevel | undefined {
  const level = text.trim().toLowerCase();
  return Object.hasOwn(RANK, level) ? (level as LogLevel) : undefined;
}

/** Whether a line at `level` is written: read once from the environment (checked at start, ./settings.ts). */
export function logs(level: Exclude<LogLevel, 'off'>): boolean {
  threshold ??= RANK[logLevelNamed(process.env[LOG_LEVEL_ENV] ?? '') ?? transportDefault];
  return RANK[level] <= threshold;
}

/** Writes one JSON line at `level` when the level is on (see `pending` for when). */
export function log(level: Exclude<LogLevel, 'off'>, msg: string, fields: Record<string, unknown> = {}): void {
  if (!logs(level)) return;
  pending += `${JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields })}\n`;
  if (level === 'error' || pending.length >= FLUSH_BYTES) flush();
  else if (!timer) timer = setTimeout(flush, FLUSH_MS).unref();
}

/**
 * Lines not yet written: a line per request is a write (a system call) per request, as much as
 * the answer's own, so lines go out together, within `FLUSH_MS`, at once past `FLUSH_BYTES`, and
 * with an error line. Whatever is left is written when the process exits.
 */
let pending = '';
let timer: NodeJS.Timeout | undefined;
const FLUSH_MS = 20;
const FLUSH_BYTES = 16_384;

/** Writes the lines not yet written (a start-up line that should come before what follows). */
export function flushLog(): void {
  flush();
}

function flush(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  if (pending === '') return;
  const lines = pending;
  pending = '';
  process.stderr.write(lines);
}

process.once('exit', flush);

/** What a request log line says: never a token, a request state or (unless asked) an argument. */
export interface RequestRecord {
  method: string;
  /** The tool, prompt or resource the request names. */
  name?: string;
  principal?: string;
  session?: string;
  requestId?: string | number;
  era: 'legacy' | '2026-07-28';
  durationMs: number;
  /**
   * `timeout`: the tool's `timeoutMs` ran out; `cancelled`: the client cancelled, went away, or
   * the server stopped before the answer.
   */
  outcome: 'ok' | 'tool_error' | 'timeout' | 'cancelled' | 'error';
  code?: number;
  /** A call a limit refused: which (`rate`, `concurrency`) and whose (`server`, `tool <name>`). */
  limit?: string;
  scope?: string;
  arguments?: unknown;
}

/**
 * The request's line: info when answered or cancelled, warn for a tool's error result, a time
 * limit, a refusal or a client's mistake, error for the server's.
 */
export function logRequest(record: RequestRecord): void {
  const level =
    record.outcome === 'ok' || record.outcome === 'cancelled'
      ? 'info'
      : record.outcome === 'error' && record.code === -32603
        ? 'error'
        : 'warn';
  log(level, 'request', { ...record });
}

/** A handler that threw: its stack stays on the server, the client gets the message only. */
export function logHandlerError(error: unknown, where: { method: string; name?: string }): void {
  const e = error instanceof Error ? error : new Error(String(error));
  log('error', 'handler failed', { ...where, error: { name: e.name, message: e.message, stack: e.stack } });
}
