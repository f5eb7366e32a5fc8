#!/usr/bin/env node
// V8's tiering is tuned where a command starts its heavy work (dist/tiering.js), not here: a
// no-op generate never needs it.
const { runCli } = await import('../dist/main.js');
process.exitCode = await runCli(process.argv.slice(2));
