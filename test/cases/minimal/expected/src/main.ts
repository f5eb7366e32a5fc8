#!/usr/bin/env node
// Entry point: MCP over stdio. This file is yours: mcpgen created it once and never changes it.
import { runStdio } from '@mcpgen/runtime/stdio';

import { app } from './generated/server.js';

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  console.log(`usage: ${app.info.name}   (speaks MCP over stdin and stdout)`);
} else {
  runStdio(app);
}
