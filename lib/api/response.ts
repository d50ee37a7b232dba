import { randomUUID } from "node:crypto";
import { ApiError, errorBody } from "./errors";

/** Headers on every API response, errors and public endpoints included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "X-API-Version": "v1",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "strict-origin-when-cross-origin",
  "Strict-Transport-Security": "max-age=31536000; includeSubDomains",
  "Permissions-Policy": "geolocation=(), microphone=(), camera=()",
};

export const newRequestId = (): string => randomUUID();

const encoder = new TextEncoder();

/** A JSON body as the exact bytes that will be sent (and billed). */
export function encodeJson(value: unknown): Uint8Array<ArrayBuffer> {
  return encoder.encode(JSON.stringify(value)) as Uint8Array<ArrayBuffer>;
}

export function jsonResponse(
  body: Uint8Array<ArrayBuffer> | unknown,
  init: { status?: number; requestId: string; headers?: Record<string, string>; cache?: string; omitBody?: boolean },
): Response {
  const bytes: Uint8Array<ArrayBuffer> = body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : encodeJson(body);
  const headers = new Headers({
    ...SECURITY_HEADERS,
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": init.cache ?? "no-store",
    "X-Request-ID": init.requestId,
    ...init.headers,
  });
  headers.set("Content-Length", String(bytes.byteLength));
  return new Response(init.omitBody ? null : bytes, { status: init.status ?? 200, headers });
}

export function errorResponse(error: ApiError, requestId: string, extraHeaders: Record<string, string> = {}): Response {
  return jsonResponse(errorBody(error, requestId), {
    status: error.status,
    requestId,
    headers: { ...extraHeaders, ...error.headers },
  });
}
