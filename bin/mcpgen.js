#!/usr/bin/env node
import { tuneTiering } from '../dist/tiering.js';

// Before the CLI's own modules load, so their functions start with the tuned budget.
tuneTiering();
const { runCli } = await import('../dist/main.js');
process.exitCode = await runCli(process.argv.slice(2));
