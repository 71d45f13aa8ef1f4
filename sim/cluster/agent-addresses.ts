import type { IpAddress } from '../../src/scheduler/model/ip-address';

/** Host addresses of one /8 that {@link AgentAddresses} hands out: 254 per /24 (no .0, no .255). */
const HOSTS_PER_24 = 254;
const ADDRESSES = HOSTS_PER_24 * 256 * 256;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/**
 * The IP address of each simulated agent's host, which its executors' updates carry as the
 * task's `ipAddresses` (as a Mesos agent fills `container_status.network_infos` with its own IP for
 * a task on the host network, and the local cluster with its host's): deterministic, from the
 * hostname alone. A hostname that is an IPv4 address is its own address; any other gets the next
 * free one of 10.0.0.1, 10.0.0.2 … 10.0.0.254, 10.0.1.1 … in the order hostnames first register
 * (the order of a run is fixed by its seed), so hosts never share an address and an agent that
 * registers again on the same host keeps its address. Past 16,646,144 hostnames the addresses
 * wrap around.
 */
export class AgentAddresses {
  private readonly byHostname = new Map<string, readonly IpAddress[]>();
  private assigned = 0;

  of(hostname: string): readonly IpAddress[] {
    let addresses = this.byHostname.get(hostname);
    if (addresses === undefined) {
      addresses = [{ ipAddress: IPV4.test(hostname) ? hostname : this.next(), protocol: 'IPv4' }];
      this.byHostname.set(hostname, addresses);
    }
    return addresses;
  }

  private next(): string {
    const n = this.assigned++ % ADDRESSES;
    const host = (n % HOSTS_PER_24) + 1;
    const net = Math.floor(n / HOSTS_PER_24);
    return `10.${Math.floor(net / 256)}.${net % 256}.${host}`;
  }
}
