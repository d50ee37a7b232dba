import { unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import type { PrismaClient } from "@/lib/db";
import { getAppDatabase } from "@/lib/db/app";
import type { Principal } from "@/lib/platform/access";
import { DomainError } from "@/lib/orgs";
import { getPrincipal } from "./server";

/** What a server action answers a form: data, or a message a person can act on. */
export type ActionResult<T = null> =
  | { ok: true; data: T }
  | { ok: false; error: string; code?: string; fieldErrors?: Record<string, string> };

export function fieldErrorsOf(error: ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "form");
    fields[key] ??= issue.message;
  }
  return fields;
}

/**
 * Runs a server action's domain call with the verified principal (or null:
 * the domain refuses) and turns refusals into messages. Unexpected errors are
 * logged and answered with a generic message, never a stack trace.
 */
export async function runAction<T>(fn: (ctx: { db: PrismaClient; principal: Principal | null }) => Promise<T>): Promise<ActionResult<T>> {
  try {
    const [principal, { prisma }] = await Promise.all([getPrincipal(), getAppDatabase()]);
    return { ok: true, data: await fn({ db: prisma, principal }) };
  } catch (error) {
    unstable_rethrow(error); // redirect() and notFound() are not errors
    if (error instanceof ZodError) {
      const fieldErrors = fieldErrorsOf(error);
      return { ok: false, code: "invalid_input", error: Object.values(fieldErrors)[0] ?? "Check the form.", fieldErrors };
    }
    if (error instanceof DomainError) return { ok: false, code: error.code, error: error.message };
    console.error("[action] failed:", error instanceof Error ? error.message : error);
    return { ok: false, code: "internal_error", error: "Something went wrong on our side and nothing was changed. Try again." };
  }
}

/** FormData → a plain object for zod, with repeated names (checkboxes) as arrays. */
export function formObject(form: FormData, arrays: readonly string[] = []): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name).filter((v): v is string => typeof v === "string");
    object[name] = arrays.includes(name) ? values : values[0];
  }
  for (const name of arrays) object[name] ??= [];
  return object;
}
