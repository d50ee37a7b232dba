import type { IncomingMessage, ServerResponse } from "node:http";

export const CONSOLE_NOT_FOUND_PATH: string;
export const UPLOAD_TICKET_HEADER: string;
export const UPLOAD_TICKET_TTL_MS: number;
export function ensureUploadKey(env?: Record<string, string | undefined>): string;
export function mintUploadTicket(now?: number, env?: Record<string, string | undefined>): string | null;
export function uploadTicketValid(ticket: unknown, now?: number, env?: Record<string, string | undefined>): boolean;
export function dropInvalidUploadTicket(request: IncomingMessage): void;
export function revealsConsoleRewrite(name: string, value: unknown): boolean;
export function hideConsoleRewrite(response: ServerResponse): void;
