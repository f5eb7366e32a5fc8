/**
 * @mcpgen/runtime: what every server mcpgen generates runs on. Generated code registers the
 * manifest's entries through these functions; handlers import their helpers (`content`,
 * `toolResult`, `notFound`, `inputRequired`, `testContext` …) from here. The transports are
 * subpaths, so a server loads only what it serves: `@mcpgen/runtime/stdio`, `/http`, and, loaded
 * by `/http` when configured, `/sse`, `/oauth` and `/redis`; the tasks extension is `/tasks`.
 */

export type { ServerApp } from './app.js';
export { type Completions, completers } from './completions.js';
export { isObject, PROTOCOL_VERSIONS, speakEra } from './era.js';
export type * from './handlers.js';
export {
  type InputError,
  installInput,
  onRootsChanged,
  type RootsChange,
} from './input.js';
export { paginate } from './pagination.js';
export { type GuardPaths, type PathGuards, pathGuards, type PathVariable, safeJoin } from './paths.js';
export { MissingPeerError, OPTIONAL_PEERS } from './peers.js';
export {
  describedPrompt,
  getPrompt,
  type PromptArgumentInfo,
  promptArguments,
  type PromptInfo,
  renderPrompt,
  showDeclaredArguments,
} from './prompts.js';
export { principalOf, REQUEST_STATE_KEY_ENV, requestStateCodec, verifyRequestState } from './request-state.js';
export { listResources, readResource, readTemplate, type ResourceInfo } from './resources.js';
export {
  addNotificationSink,
  type Answer,
  connectionSink,
  content,
  handlerContext,
  inputRequired,
  installSubscriptions,
  invoke,
  isInputRequiredResult,
  isPromiseLike,
  isToolResult,
  lazy,
  type Loader,
  type Named,
  NotImplementedError,
  type NotificationSink,
  notFound,
  notify,
  type Open,
  type OpenIcons,
  ownProperties,
  ownRegistries,
  reachable,
  type Register,
  register,
  run,
  type ServerInfo,
  testContext,
  toolResult,
} from './runtime.js';
export { compiledOnFirstUse } from './schemas.js';
export { installHandlers } from './sdk-handlers.js';
export { contentTool, structuredTool, type ToolInfo } from './tools.js';
