import { revalidatePath } from "next/cache";
import { redirect, unstable_rethrow } from "next/navigation";
import type { Principal } from "@/lib/auth/session";
import type { PrismaClient } from "@/lib/db";
import { classifyError, DomainError } from "@/lib/errors";
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

const ACTION_WORDS = {
  invalid: "Check the form.",
  unavailable: "The service is briefly unavailable and nothing was changed. Try again in a few seconds.",
  internal: "Something went wrong on our side and nothing was changed. Try again.",
  log: "[action] failed:",
};

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
    const shown = classifyError(error, ACTION_WORDS);
    return shown.fieldErrors ? { ok: false, code: shown.code, error: shown.message, fieldErrors: shown.fieldErrors } : { ok: false, code: shown.code, error: shown.message };
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
