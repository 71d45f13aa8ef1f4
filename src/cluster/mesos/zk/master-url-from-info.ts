import { ZkError } from './zk-error';

/** The MasterInfo fields (as Mesos writes them in JSON) that locate the master. */
interface MasterInfoJson {
  address?: { hostname?: unknown; ip?: unknown; port?: unknown };
  hostname?: unknown;
  port?: unknown;
  pid?: unknown;
}

/**
 * The base URL (`<scheme>://host:port`) of the master whose MasterInfo JSON is `data`. The host is
 * `address.hostname`, else `address.ip`, else the deprecated top-level `hostname`; the port is
 * `address.port`, else the deprecated top-level `port` (spec §1.9). As a last resort the libprocess
 * `pid` (`master@ip:port`) is used. IPv6 addresses are bracketed. Throws ZkError
 * `MALFORMED_MASTER_INFO` naming `znode` when the data is not JSON or locates no host and port.
 */
export function masterUrlFromInfo(data: Buffer, znode: string, scheme: 'http' | 'https' = 'http'): string {
  const info = parseInfo(data, znode);
  const fromPid = parsePid(info.pid);
  const host = firstString(info.address?.hostname, info.address?.ip, info.hostname) ?? fromPid?.host;
  const port = firstPort(info.address?.port, info.port) ?? fromPid?.port;
  if (host === undefined || port === undefined) {
    throw malformed(znode, 'it names no master host and port (address.hostname|ip, address.port)');
  }
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function parseInfo(data: Buffer, znode: string): MasterInfoJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data.toString('utf8'));
  } catch {
    throw malformed(znode, `it is not JSON (${data.length} bytes)`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw malformed(znode, 'it is not a JSON object');
  const info = parsed as MasterInfoJson;
  if (info.address !== undefined && (typeof info.address !== 'object' || info.address === null)) {
    throw malformed(znode, '"address" is not an object');
  }
  return info;
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((value): value is string => typeof value === 'string' && value !== '');
}

function firstPort(...values: unknown[]): number | undefined {
  return values.find((value): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 65535);
}

function parsePid(pid: unknown): { host: string; port: number } | undefined {
  if (typeof pid !== 'string') return undefined;
  const match = /@(.+):(\d+)$/.exec(pid);
  if (match === null) return undefined;
  const port = firstPort(Number(match[2]));
  return port === undefined ? undefined : { host: match[1], port };
}

function malformed(znode: string, reason: string): ZkError {
  return new ZkError('MALFORMED_MASTER_INFO', `the leading Mesos master's znode ${znode} holds no usable MasterInfo: ${reason}`);
}
