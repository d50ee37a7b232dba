import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import type { Principal } from "@/lib/auth/session";
import type { PrismaClient } from "@/lib/db";
import { DomainError, isServiceUnavailable } from "@/lib/errors";
import { getAppDatabase } from "@/lib/runtime/database";
import { getPrincipal, requestIp } from "./session";

/** What a server action answers a form: data, or a message a person can act on. */
export type ActionResult<T = null> =
  | { ok: true; data: T }
  | { ok: false; error: string; code?: string; fieldErrors?: Record<string, string> };

export interface ActionContext {
  db: PrismaClient;
  /** The verified session's user, or null: the domain function refuses what needs one. */
  principal: Principal | null;
  /** The client's address, for per-address limits of signed-out forms. */
  ip: string;
}

/** What follows a success: the pages to refresh, and where the browser goes next. */
export interface AfterSuccess<T> {
  /** A path to re-render, or "layout" for every page under the root layout (navigation, switcher, banners). */
  revalidate?: string;
  redirectTo?: string | ((data: T) => string);
}

export function fieldErrorsOf(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Every server action is this call: the domain function with the verified
 * principal, refusals turned into messages, and on success the refresh and
 * redirect it names. Unexpected errors are logged and answered with a generic
 * message, never a stack trace.
 */
export async function runAction<T>(fn: (ctx: ActionContext) => Promise<T>, after: AfterSuccess<T> = {}): Promise<ActionResult<T>> {
  const result = await attempt(fn);
  if (!result.ok) return result;
  if (after.revalidate === "layout") revalidatePath("/", "layout");
  else if (after.revalidate) revalidatePath(after.revalidate);
  if (after.redirectTo) redirect(typeof after.redirectTo === "function" ? after.redirectTo(result.data) : after.redirectTo);
  return result;
}

async function attempt<T>(fn: (ctx: ActionContext) => Promise<T>): Promise<ActionResult<T>> {
  try {
    const [principal, ip, { prisma }] = await Promise.all([getPrincipal(), requestIp(), getAppDatabase()]);
    return { ok: true, data: await fn({ db: prisma, principal, ip }) };
  } catch (error) {
    unstable_rethrow(error); // redirect() and notFound() are not errors
    if (error instanceof ZodError) {
      const fieldErrors = fieldErrorsOf(error);
      return { ok: false, code: "invalid_input", error: Object.values(fieldErrors)[0] ?? "Check the form.", fieldErrors };
    }
    if (error instanceof DomainError) return { ok: false, code: error.code, error: error.message };
    if (isServiceUnavailable(error)) return { ok: false, code: "service_unavailable", error: "The service is briefly unavailable and nothing was changed. Try again in a few seconds." };
    console.error("[action] failed:", error instanceof Error ? error.message : error);
    return { ok: false, code: "internal_error", error: "Something went wrong on our side and nothing was changed. Try again." };
  }
}

/** FormData → a plain object for zod, with repeated names (checkboxes) as arrays. */
export function formObject(form: unknown, arrays: readonly string[] = []): Record<string, unknown> {
  if (!(form instanceof FormData)) throw new DomainError("invalid_input", "The form was not sent as a form. Reload the page and try again.");
  const object: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name).filter((v): v is string => typeof v === "string");
    object[name] = arrays.includes(name) ? values : values[0];
  }
  for (const name of arrays) object[name] ??= [];
  return object;
}
