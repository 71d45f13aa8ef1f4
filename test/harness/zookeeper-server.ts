import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answersRuok, freePort } from '../../bench/lib/zookeeper';
import { PATIENCE_MS, waitFor } from './wait';

/** Debian's `zookeeper` package (what .ci/run installs). */
const JAR = '/usr/share/java/zookeeper.jar';
const MAIN_CLASS = 'org.apache.zookeeper.server.ZooKeeperServerMain';

/**
 * The JVM of a test's ZooKeeper: a small heap, the client (C1) JIT only and the serial collector.
 * A test's server lives for seconds to a minute and serves little: C2's compilations and G1's
 * threads cost about half of its CPU (zk-store.test.ts under c8: its JVM 8.4 -> 4.1 s of CPU),
 * on CI's 2 cores that the other test files need; ZooKeeper's behaviour is the same.
 */
const JVM_OPTIONS: readonly string[] = ['-Xmx256m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

/** Why real-ZooKeeper tests cannot run here (the package is absent), or false. */
export const ZOOKEEPER_MISSING: string | false = existsSync(JAR) && existsSync('/usr/bin/java')
  ? false
  : `Debian's zookeeper package is not installed (${JAR}, /usr/bin/java): apt-get install zookeeper to run these tests`;

/** A standalone ZooKeeper of this test file: `127.0.0.1:port`, its own temp data dir. */
export interface ZooKeeperServer {
  /** `127.0.0.1:port`, for a `zk://` URL. */
  readonly connect: string;
  /** Stops it (SIGTERM, then SIGKILL) and removes its data dir. Idempotent. */
  stop(): Promise<void>;
}

/** A {@link ZooKeeperServer} that can also be stopped and started again on the same port and data. */
export interface RestartableZooKeeper extends ZooKeeperServer {
  /** Stops the server (SIGTERM), keeping its data; sessions survive if it is back within their timeout. */
  halt(): Promise<void>;
  /** Starts it again on the same port and data; resolves once it answers `ruok`. */
  resume(): Promise<void>;
}

/**
 * Starts one ZooKeeper for a test file on 127.0.0.1 and a free port, its data in a fresh temp
 * directory, its admin server off; resolves once it answers `ruok` (bounded by PATIENCE_MS).
 * Call only when {@link ZOOKEEPER_MISSING} is false.
 */
export async function startZooKeeper(): Promise<RestartableZooKeeper> {
  const dir = mkdtempSync(join(tmpdir(), 'pacer-zk-'));
  const port = await freePort();
  writeFileSync(join(dir, 'zoo.cfg'), [
    'tickTime=500', `dataDir=${join(dir, 'data')}`, `clientPort=${port}`, 'clientPortAddress=127.0.0.1', 'maxClientCnxns=0',
    'admin.enableServer=false', '4lw.commands.whitelist=ruok', 'minSessionTimeout=1000', 'maxSessionTimeout=60000', '',
  ].join('\n'));
  let current: { child: ChildProcess; exited: () => boolean } | undefined;
  const launch = async (): Promise<void> => {
    const child = spawn('java', [...JVM_OPTIONS, '-Dzookeeper.log.dir=' + dir, '-cp', JAR, MAIN_CLASS, join(dir, 'zoo.cfg')], { stdio: 'ignore' });
    let exited = false;
    child.once('exit', () => { exited = true; });
    current = { child, exited: () => exited };
    await waitFor(async () => exited || await answersRuok(port), `ZooKeeper on 127.0.0.1:${port} answering ruok`, PATIENCE_MS, 200);
    if (exited) throw new Error('ZooKeeper exited during start-up');
  };
  const halt = async (): Promise<void> => {
    const running = current;
    current = undefined;
    if (running !== undefined) await stopChild(running.child, running.exited);
  };
  const stop = once(() => halt().finally(() => rmSync(dir, { recursive: true, force: true })));
  try {
    await launch();
  } catch (err) {
    await stop();
    throw err;
  }
  return { connect: `127.0.0.1:${port}`, stop, halt, resume: launch };
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}

async function stopChild(child: ChildProcess, exited: () => boolean): Promise<void> {
  if (exited()) return;
  child.kill('SIGTERM');
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}
