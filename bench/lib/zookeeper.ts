import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's `zookeeper` package (what .ci/run installs). */
const JAR = '/usr/share/java/zookeeper.jar';

/** A ZooKeeper a benchmark started: `127.0.0.1:port`, and how to stop it (its data removed). */
export interface BenchZooKeeper {
  readonly connect: string;
  stop(): Promise<void>;
}

/**
 * Starts a standalone ZooKeeper from Debian's package on 127.0.0.1 and a free port (tick 1 s, as
 * .ci/zookeeper.sh: sessions of 2 s to 20 s), its data in a fresh temp directory; resolves once
 * it answers `ruok` (at most `waitMs`). Throws when the package is not installed. `onSpawned`
 * gets the server as soon as its process and directory exist, before the wait for `ruok`, so
 * that a benchmark interrupted meanwhile can stop it (its `stop` works at any time and more than
 * once; a server stopped during the wait makes this throw).
 */
export async function startBenchZooKeeper(options: { readonly waitMs?: number; readonly onSpawned?: (zk: BenchZooKeeper) => void } = {}): Promise<BenchZooKeeper> {
  const waitMs = options.waitMs ?? 60_000;
  if (!existsSync(JAR)) throw new Error(`no ${JAR}: install Debian's zookeeper package, or pass --zk host:port of a running ZooKeeper`);
  const port = await freePort();
  // From here to the spawn and onSpawned nothing waits: the directory is never left without a stop that removes it.
  const dir = mkdtempSync(join(tmpdir(), 'pacer-bench-zk-'));
  writeFileSync(join(dir, 'zoo.cfg'), [
    'tickTime=1000', `dataDir=${join(dir, 'data')}`, `clientPort=${port}`, 'clientPortAddress=127.0.0.1', 'maxClientCnxns=0',
    'admin.enableServer=false', '4lw.commands.whitelist=ruok', '',
  ].join('\n'));
  const child = spawn('java', ['-Xmx256m', `-Dzookeeper.log.dir=${dir}`, '-cp', JAR, 'org.apache.zookeeper.server.ZooKeeperServerMain', join(dir, 'zoo.cfg')], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // No java at all: 'error' (which would otherwise throw) and exitCode -2, no 'exit'; the wait below sees the exit code.
  child.on('error', () => undefined);
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const zk: BenchZooKeeper = { connect: `127.0.0.1:${port}`, stop };
  options.onSpawned?.(zk);
  const deadline = Date.now() + waitMs;
  while (!(await answersRuok(port))) {
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`ZooKeeper on 127.0.0.1:${port} did not answer ruok within ${waitMs} ms${child.exitCode !== null || child.signalCode !== null ? ' (it exited)' : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return zk;
}

/** A TCP port free on 127.0.0.1 now (for a throw-away server; also used by test/harness/zookeeper-server.ts). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Whether the ZooKeeper on 127.0.0.1:`port` answers its `ruok` four-letter word with `imok`. */
export function answersRuok(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let reply = '';
    socket.setTimeout(2_000, () => socket.destroy());
    socket.on('connect', () => socket.write('ruok'));
    socket.on('data', (d) => { reply += d.toString(); });
    socket.on('error', () => resolve(false));
    socket.on('close', () => resolve(reply === 'imok'));
  });
}
