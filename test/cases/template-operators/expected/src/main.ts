#!/usr/bin/env node
// Entry point: MCP over stdio. This file is yours: mcpgen created it once and never changes it.
import { runStdio } from '@mcpgen/runtime/stdio';

import { app } from './generated/server.js';

const USAGE = `usage: ${app.info.name}   (speaks MCP over stdin and stdout)`;
const [arg] = process.argv.slice(2);
if (arg === '--help' || arg === '-h') {
  console.log(USAGE);
} else if (arg !== undefined) {
  console.error(`${app.info.name}: unknown argument ${arg}\n${USAGE}`);
  process.exit(2);
} else {
  try {
    runStdio(app);
  } catch (error) {
    console.error(`${app.info.name}: ${(error as Error).message}`);
    process.exit(1);
  }
}
