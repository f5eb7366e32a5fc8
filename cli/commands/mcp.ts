/**
 * `mcpgen mcp [-C dir]`: mcpgen itself as an MCP server over stdio, for coding agents: tools to
 * validate, explain a diagnostic, add or rename an entry, generate and check the project in `dir`
 * (default: the working folder). stdout carries protocol frames only; the command returns when the
 * client closes stdin.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../diagnostics.js';
import { EXIT_OK, type CliIO } from '../io.js';

export interface McpCommandOptions {
  /** -C: the project folder. */
  dir?: string;
}

export async function mcpCommand(opts: McpCommandOptions, io: CliIO): Promise<number> {
  const dir = path.resolve(io.cwd, opts.dir ?? '.');
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`-C ${opts.dir ?? '.'}: not a folder`);
  // The SDK loads only here: no other command pays for it.
  const [{ serveStdio, StdioServerTransport }, { createServer }, { openProject }] = await Promise.all([
    import('@modelcontextprotocol/server/stdio'),
    import('../mcp/server.js'),
    import('../mcp/project.js'),
  ]);
  const project = openProject(dir);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    // serveStdio sets the transport's onclose when it starts it: wrap whatever it set.
    const start = transport.start.bind(transport);
    transport.start = async () => {
      await start();
      const onclose = transport.onclose;
      transport.onclose = () => {
        onclose?.();
        resolve();
      };
    };
  });
  serveStdio(() => createServer(project), {
    transport,
    onerror: (error) => io.stderr(`mcpgen mcp: ${error.message}\n`),
  });
  io.stderr(`mcpgen mcp: serving ${project.root} over stdio\n`);
  await closed;
  return EXIT_OK;
}
