import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * The network a sign-in came from: the /24 of an IPv4 address, the /48 of an IPv6 one. Phones and laptops move
 * within their provider's network without being "new"; another network is.
 */
export function networkOf(ip: string | null): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const v4 = mapped ? mapped[1]! : ip;
  if (isIPv4(v4)) return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(ip)) return null;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 3).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/48`;
}

/** The address when it is one (a forwarded header may carry anything), else null. */
export function validIp(ip: string | null | undefined): string | null {
  return ip && isIP(ip) ? ip : null;
}
