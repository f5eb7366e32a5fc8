#!/usr/bin/env node
const { runCli } = await import('../dist/main.js');
process.exitCode = await runCli(process.argv.slice(2));
