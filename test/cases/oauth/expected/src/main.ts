#!/usr/bin/env node
// Entry point: stdio by default, Streamable HTTP with --http. This file is yours: mcpgen created it
// once and never changes it.
import { parseArgs } from 'node:util';

import { runStdio } from '@mcpgen/runtime/stdio';

import { app } from './generated/server.js';

const USAGE = `usage: ${app.info.name} [--http [--port N] [--host H]]`;

function fail(message: string): never {
  console.error(`${app.info.name}: ${message}\n${USAGE}`);
  process.exit(2);
}

function parse() {
  try {
    return parseArgs({
      options: {
        help: { type: 'boolean', short: 'h' },
        http: { type: 'boolean' },
        port: { type: 'string' },
        host: { type: 'string' },
      },
    }).values;
  } catch (error) {
    return fail((error as Error).message);
  }
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) fail(`--port must be 0 to 65535, not ${text}`);
  return port;
}

const args = parse();
if (args.help) {
  console.log(USAGE);
} else if (args.http) {
  try {
    const port = args.port === undefined ? undefined : parsePort(args.port);
    // Loaded here, not above: a stdio server never loads the HTTP stack.
    const { startHttp } = await import('./generated/http.js');
    const server = await startHttp({ host: args.host, port });
    // A close that fails still ends the process: one line, a non-zero exit.
    const stop = () =>
      void server.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(`${app.info.name}: stopping: ${(error as Error).message}`);
          process.exit(1);
        },
      );
    // Before the URL is printed: whoever waits for it may stop the server at once.
    process.once('SIGINT', stop).once('SIGTERM', stop);
    console.error(`${app.info.name}: MCP over Streamable HTTP at ${server.url}`);
  } catch (error) {
    console.error(`${app.info.name}: ${(error as Error).message}`);
    process.exit(1);
  }
} else if (args.port !== undefined || args.host !== undefined) {
  fail('--port and --host need --http');
} else {
  try {
    runStdio(app);
  } catch (error) {
    console.error(`${app.info.name}: ${(error as Error).message}`);
    process.exit(1);
  }
}
