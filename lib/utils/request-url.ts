/**
 * The URL a client asked for. Next hands a route a URL it rebuilt from the
 * query parsed into a plain object, which drops a parameter named
 * `__proto__` (so the API could not refuse it as unknown). Our HTTP server
 * (scripts/server.mjs) passes the query exactly as received in a header
 * whose name it picks at random on start (REQUEST_QUERY_HEADER), so no
 * client can send it; without that server (a handler called in a test) the
 * request's own URL is the client's.
 */
export function requestUrl(request: Pick<Request, "url" | "headers">, headerName = process.env.REQUEST_QUERY_HEADER): URL {
  const url = new URL(request.url);
  const query = headerName ? request.headers.get(headerName) : null;
  if (query !== null) url.search = query;
  return url;
}
