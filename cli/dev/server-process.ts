/** The generated server as a child process over HTTP: start it, learn its URL, stop it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

export interface RunningServer {
  url: URL;
  child: ChildProcess;
  /** Resolves when the process has exited (SIGTERM, then SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

const URL_LINE = /MCP over Streamable HTTP at (\S+)/;

/**
 * Preloaded into the server: it stops when mcpgen dev ends however that ends (SIGKILL included),
 * because the IPC channel between them closes then; SIGTERM lets its own shutdown run, and it is
 * ended after 3 s if that does not. Nothing is sent on the channel, and the channel does not keep
 * the server alive. A data: URL, so no file of mcpgen's has to be found from the server.
 */
const EXIT_WITH_PARENT = `data:text/javascript,${encodeURIComponent(
  "if (process.channel) { process.channel.unref(); process.once('disconnect', () => { process.kill(process.pid, 'SIGTERM'); setTimeout(() => process.exit(1), 3000).unref(); }); }",
)}`;

/**
 * Runs `node dist/src/main.js --http --port <port> [--host <host>]` in `projectDir` and waits (at
 * most `timeoutMs`) for the line with its URL. The server's stderr goes to `log` line by line.
 */
export function startServer(
  projectDir: string,
  opts: { port: number; host?: string; timeoutMs?: number; log: (line: string) => void },
): Promise<RunningServer> {
  const args = [
    '--import',
    EXIT_WITH_PARENT,
    path.join(projectDir, 'dist/src/main.js'),
    '--http',
    '--port',
    String(opts.port),
    ...(opts.host ? ['--host', opts.host] : []),
  ];
  // Its own process group: a terminal's Ctrl-C reaches mcpgen dev, which stops the server itself
  // (so its exit is known to be wanted); `exit` below covers mcpgen exiting, the IPC channel its
  // being killed.
  const child = spawn(process.execPath, args, {
    cwd: projectDir,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    env: { ...process.env },
    detached: true,
  });
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 3000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let buffered = '';
    let url: URL | undefined;
    const onLine = (line: string) => {
      const m = URL_LINE.exec(line);
      if (m && !url) {
        url = new URL(m[1]!);
        clearTimeout(timer);
        resolve({ url, child, stop });
        return;
      }
      opts.log(line);
    };
    const onData = (d: Buffer) => {
      buffered += d.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        onLine(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
      }
    };
    child.stderr!.on('data', onData);
    child.stdout!.on('data', onData);
    const timer = setTimeout(() => {
      void stop(0);
      reject(new Error(`the server did not print its URL within ${(opts.timeoutMs ?? 15000) / 1000} s`));
    }, opts.timeoutMs ?? 15000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (buffered) opts.log(buffered);
      if (!url) reject(new Error(`the server exited (${signal ?? `code ${code}`}) before serving`));
    });
  });
}

/**
 * Why nothing can listen on `host:port`, when retrying cannot help (another process holds the
 * port, or it needs privileges), as a message naming `--port`; null when it can be listened on
 * (or fails for another reason, which the server's own message tells).
 */
export function portProblem(host: string, port: number): Promise<string | null> {
  const at = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  const advice = 'pass --port <n>, or --port 0 for a free one';
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') resolve(`port ${port} is in use (another process listens on ${at}): ${advice}`);
      else if (err.code === 'EACCES') resolve(`port ${port} needs privileges to listen on (${at}): ${advice}`);
      else resolve(null);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
