import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import { DomainError, ServiceUnavailable } from "@/lib/errors";
import { AccessDenied } from "./access";
import { handleDashboardRoute } from "./route-handler";

/** No cookie, so no session is looked up: the database is never asked. */
const database = async () => ({ prisma: {} as PrismaClient });
const answerTo = (thrown: unknown) =>
  handleDashboardRoute(
    new Request("http://app.test/usage/export?org=o"),
    async () => {
      throw thrown;
    },
    database,
  );

describe("a dashboard route's refusals", () => {
  afterEach(() => vi.restoreAllMocks());

  it("are plain text with the status a person's browser or script can act on", async () => {
    for (const [thrown, status, body] of [
      [new AccessDenied("signed_out", "Sign in first."), 401, "Sign in first."],
      [new AccessDenied("forbidden", "Only admins."), 403, "Only admins."],
      [new AccessDenied("not_member", "No such organization."), 404, "No such organization."],
      [z.object({ from: z.string({ error: "Choose a start day." }) }).safeParse({}).error, 400, "Choose a start day."],
      [new DomainError("invalid_input", "The range is backwards."), 400, "The range is backwards."],
    ] as const) {
      const response = await answerTo(thrown);
      expect(response.status, body).toBe(status);
      expect(response.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe(body);
    }
  });

  it("say an outage is brief, with Retry-After, and hide a fault", async () => {
    const outage = await answerTo(new ServiceUnavailable("database"));
    expect(outage.status).toBe(503);
    expect(outage.headers.get("Retry-After")).toBe("5");
    expect(await outage.text()).toBe("The service is briefly unavailable. Try again in a few seconds.");

    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fault = await answerTo(new Error("relation does not exist"));
    expect(fault.status).toBe(500);
    expect(await fault.text()).toBe("Something went wrong on our side. Try again.");
  });
});
