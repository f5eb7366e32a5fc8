#!/usr/bin/env node
import v8 from 'node:v8';
import { runCli } from '../dist/main.js';

// A run is one short burst that keeps most of what it allocates (the parsed manifest, the IR, the
// output). V8's young generation grows to 16 MiB under that and copies every survivor through it;
// kept at its starting size, survivors leave it after one small scavenge: validate of a 1000-tool
// manifest −8 %, generate −5 % (bench/README). The factor is read whenever the young generation
// would grow, so setting it now takes effect. Only V8s known to have the flag (Node 20–24): an
// unknown one would print an error.
const v8Major = Number(process.versions.v8.split('.')[0]);
if (v8Major >= 11 && v8Major <= 13) v8.setFlagsFromString('--semi-space-growth-factor=1');

process.exitCode = await runCli(process.argv.slice(2));
