import type { McpRequestContext } from '@modelcontextprotocol/server';
import { serveStdio, type StdioServerHandle } from '@modelcontextprotocol/server/stdio';
import { setDefaultLogLevel } from './request-log.js';
import { startTelemetry } from './telemetry.js';

import { logError, startApp, type ServerApp } from './app.js';
import { refusingUnsubscribable, withEveryVersion } from './era.js';
import { addNotificationSink, connectionSink } from './runtime.js';
import { StdioTransport, type StdioTransportOptions } from './stdio-transport.js';

export type { StdioTransportOptions };

/**
 * Serves MCP on stdin/stdout to clients of every protocol era (2025 initialize and 2026-07-28).
 * stdout carries protocol frames only: log with console.error. Malformed lines are answered with
 * JSON-RPC errors and a line over `maxLineBytes` (10 MiB) is answered and skipped
 * (./stdio-transport.ts).
 */
export function runStdio(app: ServerApp, options: StdioTransportOptions = {}): StdioServerHandle {
  startApp(app);
  // Desktop clients keep a stdio server's stderr in their own logs: errors only, unless MCP_LOG_LEVEL says.
  setDefaultLogLevel('error');
  // A malformed OTEL_* variable throws here; a missing package stops the process as it loads.
  startTelemetry(app.info.name).catch(() => {});
  // One instance serves the connection; ctx.notify reaches it (2026: onto its listen streams).
  let removeSink = () => {};
  const factory = (ctx: McpRequestContext) => {
    const server = app.createServer(ctx);
    removeSink();
    removeSink = addNotificationSink(connectionSink(server, ctx.era));
    return server;
  };
  // A refused version lists every version served, 2025 ones too; listen is checked as subscribe is (./era.ts).
  const transport = withEveryVersion(new StdioTransport(process.stdin, process.stdout, options));
  return serveStdio(factory, {
    transport: refusingUnsubscribable(transport, app.subscribable, app.tasks?.readListen(transport)),
    onerror: (error) => logError(error.message),
  });
}
