/**
 * tools/list as a built project's server writes it on stdout, parsed with JSON.parse only, so key
 * order and every key survive (an SDK client would reparse and strip).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export type RawTool = { name: string; inputSchema: unknown; outputSchema?: unknown };

/** Initializes with `protocolVersion`, lists the tools, stops the server (bounded: 15 s). */
export function rawToolsList(dir: string, protocolVersion: string): Promise<RawTool[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(dir, 'dist/src/main.js')], {
      cwd: dir,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const timer = setTimeout(() => (child.kill(), reject(new Error('no tools/list answer within 15 s'))), 15_000);
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      for (const line of buf.split('\n').slice(0, -1)) {
        const msg = JSON.parse(line) as { id?: number; result?: { tools: RawTool[] } };
        if (msg.id === 2) {
          clearTimeout(timer);
          child.kill();
          resolve(msg.result!.tools);
        }
      }
      buf = buf.slice(buf.lastIndexOf('\n') + 1);
    });
    const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
  });
}
