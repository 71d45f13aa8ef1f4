import { ZkError } from './zk-error';
import { CREDENTIALS_MASK, redactUrlValue } from '../../url-credentials';

/** One ZooKeeper server of an ensemble. */
export interface ZkServer {
  host: string;
  port: number;
}

/** A parsed `zk://[user:pass@]host[:port][,host[:port]…]/path` URL. */
export interface ZkUrl {
  /** In the order written; the client tries them in turn. */
  servers: ZkServer[];
  /** The znode under which Mesos masters register, e.g. `/mesos` (no trailing slash). */
  path: string;
  /** Digest credentials (`user:pass@`), sent as a ZooKeeper `digest` AuthPacket. */
  digest?: { user: string; password: string };
}

/** ZooKeeper's client port when the URL names none. */
export const DEFAULT_ZK_PORT = 2181;
const SCHEME = 'zk://';

/**
 * Parses the `--master zk://…` form Mesos and Marathon accept: a comma-separated server list
 * (port 2181 when omitted, IPv6 in brackets), optional `user:pass@` digest credentials, and the
 * znode path (`/` when omitted). Throws ZkError `BAD_URL` with a message that never repeats the
 * password.
 */
export function parseZkUrl(url: string): ZkUrl {
  if (!url.startsWith(SCHEME)) throw badUrl(url, `it must start with ${SCHEME}`);
  const rest = url.slice(SCHEME.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const path = normalizePath(url, slash === -1 ? '/' : rest.slice(slash));
  const at = authority.lastIndexOf('@');
  const hosts = at === -1 ? authority : authority.slice(at + 1);
  const parsed: ZkUrl = { servers: parseServers(url, hosts), path };
  if (at !== -1) parsed.digest = parseCredentials(url, authority.slice(0, at));
  return parsed;
}

/**
 * Why pacer's ZooKeeper client cannot use `url`, or undefined: `node-zookeeper-client` cannot
 * parse IPv6 server addresses (it splits `host:port` at the first `:`). Checked when a flag is
 * read, so that such a URL stops start-up instead of failing every connection attempt, and again
 * when a session opens.
 */
export function unsupportedZkUrlProblem(url: ZkUrl): string | undefined {
  if (!url.servers.some((s) => s.host.includes(':'))) return undefined;
  return `${describeZkUrl(url)}: IPv6 server addresses are not supported; name the server by host name or IPv4`;
}

/** The URL for logs and errors: servers and path, credentials replaced by the mask (`xxxxxxxx`, url-credentials.ts). */
export function describeZkUrl(url: ZkUrl): string {
  const credentials = url.digest === undefined ? '' : `${CREDENTIALS_MASK}@`;
  return `${SCHEME}${credentials}${url.servers.map(describeServer).join(',')}${url.path}`;
}

/** `host:port`, IPv6 hosts in brackets. */
export function describeServer(server: ZkServer): string {
  return server.host.includes(':') ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`;
}

function parseServers(url: string, hosts: string): ZkServer[] {
  if (hosts === '') throw badUrl(url, 'it names no ZooKeeper server');
  return hosts.split(',').map((entry) => parseServer(url, entry.trim()));
}

function parseServer(url: string, entry: string): ZkServer {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]/\s]+))(?::(\d+))?$/.exec(entry);
  if (match === null) throw badUrl(url, `"${entry}" is not host[:port]`);
  const port = match[3] === undefined ? DEFAULT_ZK_PORT : Number(match[3]);
  if (port < 1 || port > 65535) throw badUrl(url, `port ${match[3]} is out of range`);
  return { host: match[1] ?? match[2] ?? '', port };
}

function parseCredentials(url: string, userInfo: string): { user: string; password: string } {
  const colon = userInfo.indexOf(':');
  if (colon <= 0) throw badUrl(url, 'credentials must be user:password@');
  return { user: userInfo.slice(0, colon), password: userInfo.slice(colon + 1) };
}

function normalizePath(url: string, path: string): string {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const segments = trimmed.split('/').slice(1);
  if (trimmed !== '/' && segments.some((s) => s === '' || s === '.' || s === '..')) {
    throw badUrl(url, `"${path}" is not a valid znode path`);
  }
  return trimmed;
}

function badUrl(url: string, reason: string): ZkError {
  return new ZkError('BAD_URL', `bad ZooKeeper URL ${redactUrlValue(url)}: ${reason}`);
}
