/**
 * The client's address, for per-address limits and the audit log, as our own
 * HTTP server (scripts/server.mjs) decided it: from the socket, or from the
 * proxies it is told to trust (TRUSTED_PROXY_HOPS / TRUSTED_PROXIES). It hands
 * the answer over in a header whose name it picks at random on start
 * (CLIENT_ADDRESS_HEADER), so nothing a client sends is ever read as an
 * address. Without that server (a handler called in a test) it is "unknown".
 */
export function clientIp(headers: Pick<Headers, "get">, headerName = process.env.CLIENT_ADDRESS_HEADER): string {
  const value = headerName ? headers.get(headerName)?.trim() : undefined;
  return value ? value.slice(0, 64) : "unknown";
}
