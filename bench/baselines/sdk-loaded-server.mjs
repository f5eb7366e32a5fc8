// The floor with the SDK loaded: raw-server.mjs, started once `@modelcontextprotocol/server` is
// imported (its protocol schemas built, as at every SDK server's start), bundled and minified as
// `mcpgen build` bundles a server (bench/floor.mjs builds it into .tmp/bench/servers/sdk-loaded).
// The least a server on the SDK takes to start, and the measure of "starts in about the time Node
// takes to load its SDK" (issue 38).
import { McpServer } from '@modelcontextprotocol/server';

if (typeof McpServer !== 'function') throw new Error('the SDK did not load');
await import('./raw-server.mjs');
