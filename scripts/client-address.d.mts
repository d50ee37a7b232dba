import type { IncomingMessage } from "node:http";

export interface Trust {
  hops: number;
  proxies: import("node:net").BlockList | null;
  description: string;
}
export function normalizeAddress(address: unknown): string;
export function trustFromEnv(env?: Record<string, string | undefined>): Trust;
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: Trust,
): { address: string; viaTrustedProxy: boolean };
export function clientAddressHeaderName(): string;
export function stampClientAddress(request: IncomingMessage, trust: Trust, headerName: string): string;
