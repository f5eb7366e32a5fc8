/**
 * @mcpgen/runtime: what every server mcpgen generates runs on. This entry is what handlers use:
 * their types and the helpers they call (`content`, `toolResult`, `notFound`, `inputRequired`,
 * `testContext` …). Generated code registers the manifest's entries through `/server` and, when
 * the manifest has them, `/resources`, `/paths`, `/prompts`, `/completions`, `/pagination` and
 * `/tasks` and `/http-backend` (HTTP-backed tools); the transports are `/stdio` and `/http`, which loads `/sse`, `/oauth` and `/redis`
 * only when configured. `/testing` holds the contract tests' checks.
 */

export type { ServerApp } from './app.js';
export type * from './handlers.js';
export type { HttpCall, HttpMethod, HttpResponse, QueryValue } from './http-call.js';
export type { HookOutcome, HookRequest, RequestHooks } from './hooks.js';
export { callTool, outputOf, textOf, type ToolAnswer } from './handler-testing.js';
export { type InputError, onRootsChanged, type RootsChange } from './input.js';
export { safeJoin } from './paths.js';
export { MissingPeerError, OPTIONAL_PEERS } from './peers.js';
export { LOG_LEVEL_ENV, type LogLevel } from './request-log.js';
export { principalOf, REQUEST_STATE_KEY_ENV, requestStateCodec } from './request-state.js';
export {
  addNotificationSink,
  content,
  inputRequired,
  isInputRequiredResult,
  isToolResult,
  NotImplementedError,
  type NotificationSink,
  notFound,
  notify,
  type Open,
  type OpenIcons,
  run,
  type ServerInfo,
  testContext,
  toolResult,
} from './runtime.js';
export { RUNTIME_VERSION } from './version.js';
