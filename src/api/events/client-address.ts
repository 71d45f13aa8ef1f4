/**
 * The client's IP as `remoteAddress` reports it: the socket's address, with an IPv4-mapped IPv6
 * address (`::ffff:127.0.0.1`, seen on dual-stack listeners) shown as plain IPv4, as Marathon's
 * servlet container reports it. Unknown (socket already gone) → `""`.
 */
export function clientAddress(socketAddress: string | undefined): string {
  if (socketAddress === undefined) return '';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(socketAddress);
  return mapped === null ? socketAddress : mapped[1];
}
