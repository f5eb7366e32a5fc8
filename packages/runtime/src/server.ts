/**
 * What a generated `src/generated/server.ts` (and `schemas.ts`) registers its entries with: the
 * core every server loads. Resources, prompts, completions, pagination and path guards are
 * subpaths of their own (`@mcpgen/runtime/resources` …), loaded only by a server that has them.
 */

export type { ServerApp } from './app.js';
export { speakEra } from './era.js';
export { installInput } from './input.js';
export { verifyRequestState } from './request-state.js';
export {
  installSubscriptions,
  lazy,
  type Named,
  ownProperties,
  ownRegistries,
  reachable,
  type Register,
  register,
  type ServerInfo,
} from './runtime.js';
export { compiledOnFirstUse } from './schemas.js';
export { installHandlers } from './sdk-handlers.js';
export { contentTool, structuredTool, type ToolInfo } from './tools.js';
export type { ToolOptions } from './tool-options.js';
export { installHooks } from './hooks.js';
export { LIMIT_ERROR, LimitError, type LimitSpec, Limiter, limiter, type Rate } from './limits.js';
