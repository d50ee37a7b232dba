import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAMPLE_SHOWCASE } from "@/lib/data/sample";
import { setKeyStatus } from "@/lib/keys/manage";
import { openApiTestbed, type Testbed } from "@/tests/support/api";

/** A refusal tells the caller what to do next, and where: the plan, the platform or the key's own settings. */
let t: Testbed;
const ticker = SAMPLE_SHOWCASE.highRisk;
beforeAll(async () => {
  t = await openApiTestbed();
}, 120_000);
afterAll(() => t?.close());

const refusal = async (path: string, key: string) => {
  const { status, body } = await t.json(path, { key });
  return { status, code: body.error.code as string, message: body.error.message as string, details: body.error.details };
};

describe("endpoint_not_allowed says which limit refused the call", () => {
  it("names the organization's plan and the plans that include the endpoint, keeping the code and details", async () => {
    const trial = await t.org({ plan: "trial", dollars: "1" });
    const refused = await refusal(`/v1/dilution-data?ticker=${ticker}`, trial.key);
    expect(refused).toMatchObject({ status: 403, code: "endpoint_not_allowed", details: { endpoint: "dilution-data" } });
    expect(refused.message).toBe(
      "Your organization's Trial plan does not include /v1/dilution-data. The Retail and Enterprise plans include it: an owner or admin can ask for another plan on the Settings page of the dashboard.",
    );
    expect(refused.message).not.toContain("This key");
  });

  it("names the platform's restriction and the API keys page", async () => {
    const org = await t.org({ dollars: "1" });
    await t.prisma.apiKey.update({ where: { id: org.keyId }, data: { platformEndpoints: ["offerings"], platformEndpointsReason: "Abuse review" } });
    const refused = await refusal(`/v1/registrations?ticker=${ticker}`, org.key);
    expect(refused).toMatchObject({ status: 403, code: "endpoint_not_allowed", details: { endpoint: "registrations", allowed_endpoints: ["offerings"] } });
    expect(refused.message).toMatch(/^The platform has restricted this key, and \/v1\/registrations is not among its endpoints; the API keys page/);
  });

  it("names the key's own settings on the API keys page", async () => {
    const org = await t.org({ dollars: "1", endpoints: ["offerings"] });
    const refused = await refusal(`/v1/registrations?ticker=${ticker}`, org.key);
    expect(refused.message).toBe("This key is set not to use /v1/registrations. Change the key's endpoints on the API keys page of the dashboard.");
  });
});

describe("a key its owner disabled", () => {
  it("is refused with where to re-enable it: the API keys page", async () => {
    const org = await t.org({ dollars: "1" });
    await setKeyStatus(t.prisma, org.keyId, "DISABLED", { actorLabel: "test" });
    const refused = await refusal(`/v1/offerings?ticker=${ticker}`, org.key);
    expect(refused).toMatchObject({ status: 401, code: "api_key_disabled" });
    expect(refused.message).toMatch(/is disabled\. An owner or admin can re-enable it on the API keys page of the dashboard\.$/);
  });
});
