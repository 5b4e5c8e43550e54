/**
 * The eight 16-bit pieces of an IPv6 address, or null when it is not one. The WHATWG URL parser
 * validates it (zone ids refused) and writes it canonically, lowercase hex, no dotted IPv4 tail,
 * at most one `::`, which is all that is left to expand. Parsing, never spelling, is how an
 * address is judged (the webhook address policy) or grouped (the login throttle's /64).
 */
export function ipv6Hextets(address: string): number[] | null {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = host.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((piece) => Number.parseInt(piece, 16));
}
