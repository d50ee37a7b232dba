import { isIPv4, isIPv6 } from "node:net";

/**
 * IP addresses and CIDR ranges, IPv4 and IPv6, for a key's allow-list. An
 * IPv4 address written the IPv6 way (::ffff:192.0.2.1, as a dual-stack
 * socket reports it) is the IPv4 address: a list of IPv4 ranges admits it.
 */
export interface IpRange {
  version: 4 | 6;
  /** The first address of the range. */
  base: bigint;
  prefix: number;
  /** Its canonical text: "192.0.2.0/24", "2001:db8::/32", or the bare address for a single one. */
  text: string;
}

const BITS = { 4: 32, 6: 128 } as const;

function ipv4ToBigint(text: string): bigint {
  return text.split(".").reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function ipv6ToBigint(text: string): bigint {
  let address = text;
  // A dotted IPv4 tail ("::ffff:192.0.2.1") becomes two hex groups.
  const dotted = address.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v4 = ipv4ToBigint(dotted[1]!);
    address = `${address.slice(0, -dotted[1]!.length)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head = "", tail] = address.split("::");
  const front = head ? head.split(":") : [];
  const back = tail ? tail.split(":") : [];
  const groups = tail === undefined ? front : [...front, ...Array<string>(8 - front.length - back.length).fill("0"), ...back];
  return groups.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** An address as a number, IPv4-mapped IPv6 addresses as IPv4; null when the text is not an address. */
export function parseIp(raw: string): { version: 4 | 6; value: bigint } | null {
  const text = raw.trim().replace(/^\[(.*)\]$/, "$1").split("%")[0]!;
  if (isIPv4(text)) return { version: 4, value: ipv4ToBigint(text) };
  if (!isIPv6(text)) return null;
  const value = ipv6ToBigint(text);
  if (value >> 32n === 0xffffn) return { version: 4, value: value & 0xffffffffn };
  return { version: 6, value };
}

function formatAddress(version: 4 | 6, value: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((shift) => Number((value >> shift) & 0xffn)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt(112 - i * 16)) & 0xffffn).toString(16));
  // The longest run of two or more zero groups becomes "::" (RFC 5952).
  let best = { start: -1, length: 0 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > best.length && j - i >= 2) best = { start: i, length: j - i };
    i = j;
  }
  if (best.start < 0) return groups.join(":");
  return `${groups.slice(0, best.start).join(":")}::${groups.slice(best.start + best.length).join(":")}`;
}

export type IpRangeResult = { ok: true; range: IpRange } | { ok: false; reason: string };

/** "192.0.2.7", "192.0.2.0/24", "2001:db8::/32": a range, or why the text is not one. */
export function parseIpRange(raw: string): IpRangeResult {
  const text = raw.trim();
  const [addressText = "", prefixText, extra] = text.split("/");
  if (extra !== undefined) return { ok: false, reason: `“${text}” has more than one “/”` };
  const address = parseIp(addressText);
  if (!address || addressText.includes("%")) return { ok: false, reason: `“${addressText}” is not an IPv4 or IPv6 address` };
  // A prefix given for a mapped IPv4 address counts IPv6 bits; read it as the IPv4 prefix it covers.
  const mapped = address.version === 4 && addressText.includes(":");
  const bits = BITS[address.version];
  let prefix: number = bits;
  if (prefixText !== undefined) {
    const offset = mapped ? 96 : 0;
    const given = /^\d{1,3}$/.test(prefixText) ? Number(prefixText) - offset : Number.NaN;
    if (!(given >= 0 && given <= bits)) return { ok: false, reason: `“/${prefixText}” is not a prefix length for ${mapped ? "this address" : `IPv${address.version}`} (0–${bits + offset})` };
    prefix = given;
  }
  const hostBits = BigInt(bits - prefix);
  const base = (address.value >> hostBits) << hostBits;
  if (base !== address.value) {
    const suggestion = `${formatAddress(address.version, base)}/${prefix}`;
    return { ok: false, reason: `“${text}” has host bits set; the range it is in is ${suggestion}` };
  }
  const canonical = formatAddress(address.version, base);
  return { ok: true, range: { version: address.version, base, prefix, text: prefix === bits ? canonical : `${canonical}/${prefix}` } };
}

export function rangeContains(range: IpRange, address: { version: 4 | 6; value: bigint }): boolean {
  if (range.version !== address.version) return false;
  const hostBits = BigInt(BITS[range.version] - range.prefix);
  return address.value >> hostBits === range.base >> hostBits;
}

/** True when the address is in one of the ranges. An address that cannot be read is in none. */
export function ipAllowed(ranges: readonly IpRange[], ip: string | null): boolean {
  const address = ip === null ? null : parseIp(ip);
  return address !== null && ranges.some((range) => rangeContains(range, address));
}
