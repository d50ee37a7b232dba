import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { cli, signUp, unique } from "./support";

/**
 * Every route and page of the app, with every method a client can send, signed out, as a customer and as a platform
 * administrator: no answer is a 5xx and the server logs no stack trace. The paths are read from app/, so a new route
 * is walked without anyone listing it here.
 */

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "PROPFIND"];

/** Values for dynamic segments: real-looking ones and ones that match nothing. */
const SEGMENT_SAMPLES: Record<string, string[]> = {
  "[id]": ["00000000-0000-0000-0000-000000000000", "not-an-id"],
  "[token]": ["0123456789abcdef", "%00"],
  "[...path]": ["offerings", "dilution-data", "no-such-endpoint", "offerings/extra"],
  "[...nextauth]": ["session", "csrf", "providers", "signin", "signout", "error", "callback/credentials", "signin/credentials", "no-such-action"],
};

function filesUnder(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const full = path.join(directory, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

function appPaths(): string[] {
  const paths = new Set<string>();
  for (const file of filesUnder("app")) {
    if (!/\/(page\.tsx|route\.ts)$/.test(file)) continue;
    const segments = path.dirname(path.relative("app", file)).split(path.sep).filter((segment) => segment !== "." && !/^\(.*\)$/.test(segment));
    let expanded = [""];
    for (const segment of segments) {
      const samples = SEGMENT_SAMPLES[segment] ?? (segment.startsWith("[") ? null : [segment]);
      if (!samples) throw new Error(`No sample values for the dynamic segment ${segment} (${file}): add them to SEGMENT_SAMPLES`);
      expanded = expanded.flatMap((prefix) => samples.map((sample) => `${prefix}/${sample}`));
    }
    for (const each of expanded) paths.add(each || "/");
  }
  paths.add("/no-such-page");
  return [...paths].sort();
}

const SERVER_LOG = process.env.E2E_SERVER_LOG;
const logSize = () => (SERVER_LOG ? statSync(SERVER_LOG).size : 0);
const logSince = (offset: number) => (SERVER_LOG ? readFileSync(SERVER_LOG).subarray(offset).toString() : "");

async function walk(request: APIRequestContext, who: string): Promise<string[]> {
  const failures: string[] = [];
  for (const url of appPaths()) {
    for (const method of METHODS) {
      const response = await request.fetch(url, { method, maxRedirects: 0, failOnStatusCode: false, data: method === "POST" || method === "PUT" || method === "PATCH" ? "{}" : undefined });
      if (response.status() >= 500) failures.push(`${who} ${method} ${url} → ${response.status()}`);
    }
  }
  return failures;
}

function expectNoStackTrace(log: string) {
  const traces = log.split("\n").filter((line) => /^\s+at\s/.test(line) || line.includes("⨯"));
  expect(traces, "the server logged a stack trace during the walk").toEqual([]);
}

test("every route and page answers every method without a 5xx, signed out", async ({ request }) => {
  expect(appPaths().length).toBeGreaterThan(40);
  const offset = logSize();
  expect(await walk(request, "signed out")).toEqual([]);
  expectNoStackTrace(logSince(offset));
});

test("every route and page answers every method without a 5xx, as a customer and as a platform administrator", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const offset = logSize();
  await signUp(page, unique("walker"));
  expect(await walk(page.request, "customer")).toEqual([]);

  const adminEmail = unique("walk-admin");
  cli("user:create", "--email", adminEmail, "--password", "a long enough password", "--platform-admin");
  const admin = await browser.newPage();
  await admin.goto("/sign-in");
  await admin.getByLabel("Email").fill(adminEmail);
  await admin.getByLabel("Password").fill("a long enough password");
  await admin.getByRole("button", { name: "Sign in" }).click();
  await expect(admin).toHaveURL(/\/dashboard|\/keys|\/organizations\/new/, { timeout: 30_000 });
  expect(await walk(admin.request, "administrator")).toEqual([]);
  await admin.close();
  expectNoStackTrace(logSince(offset));
});
